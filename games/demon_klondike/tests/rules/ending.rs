//! How a deal ends: "Demon!" at once, everyone stuck, the idle time, the stall safeguard; the
//! match of N deals with the scores between deals.

use pandemonium_demon_klondike::{
    Action, BETWEEN_DEALS_SECONDS, Config, DemonKlondike, Ending, Phase, STALL_ACTIONS_PER_SEAT,
    STALL_SPREAD, Suit,
};
use pandemonium_game_contract::{Game, RuleError, SeededChance};

use super::support::*;

fn demon_ready(config: Config) -> DemonKlondike {
    // Seat 0 has 51 cards on the foundations and the King of clubs left.
    let foundations = vec![
        foundation(Suit::Spades, 13, 0),
        foundation(Suit::Hearts, 13, 0),
        foundation(Suit::Diamonds, 13, 0),
        foundation(Suit::Clubs, 12, 0),
    ];
    let p1 = layout(["KC", "", "", "", "", "", ""], "", "");
    DemonKlondike::rigged(config, vec![p1, lively()], foundations)
}

#[test]
fn after_demon_later_moves_of_that_deal_are_refused() {
    let mut game = demon_ready(Config::default());
    play(&mut game, 0, to_foundation("KC", Some(3)));
    assert!(matches!(game.phase(), Phase::BetweenDeals { .. }));
    assert_eq!(
        refused(&mut game, 1, to_foundation("AD", None)),
        "between_deals"
    );
}

#[test]
fn the_next_deal_starts_when_everyone_is_ready_and_is_freshly_shuffled() {
    let mut game = demon_ready(Config::default());
    play(&mut game, 0, to_foundation("KC", Some(3)));
    play(&mut game, 1, Action::Ready);
    assert_eq!(refused(&mut game, 1, Action::Ready), "already_ready");
    assert_eq!(game.to_act().iter().collect::<Vec<_>>(), vec![0]);
    game.apply(0, &Action::Ready, &mut SeededChance::from_u64(4))
        .unwrap();
    assert_eq!(game.phase(), Phase::Racing);
    assert_eq!(game.deal(), 2);
    assert!(game.foundations().is_empty());
    assert_eq!(
        (game.layout(1).stock.len(), game.layout(1).waste.len()),
        (21, 3)
    );
    assert_eq!(refused(&mut game, 0, Action::Ready), "deal_underway");
}

#[test]
fn a_match_of_n_deals_adds_up_running_totals_and_the_highest_total_wins() {
    let mut game = demon_ready(Config {
        deals: 2,
        ..Config::default()
    });
    play(&mut game, 0, to_foundation("KC", Some(3)));
    let mut chance = SeededChance::from_u64(5);
    for seat in 0..2 {
        game.apply(seat, &Action::Ready, &mut chance).unwrap();
    }
    // Deal 2: both say they are stuck at once.
    play(&mut game, 0, Action::Stuck);
    play(&mut game, 1, Action::Stuck);
    assert_eq!(game.phase(), Phase::Over);
    assert_eq!(game.results()[1].scores, vec![0, 0]);
    assert_eq!(game.totals(), [62, 0].as_slice());
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.placements, vec![1, 2]);
}

#[test]
fn tied_totals_share_the_win() {
    let mut game = rigged(vec![lively(), lively()], vec![]);
    play(&mut game, 0, Action::Stuck);
    play(&mut game, 1, Action::Stuck);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winners, vec![0, 1]);
    assert_eq!(outcome.placements, vec![1, 1]);
}

#[test]
fn saying_stuck_stops_that_player_and_the_deal_ends_when_everyone_has() {
    let two_aces = layout(["AD", "AC", "", "", "", "", ""], "", "");
    let mut game = rigged(vec![lively(), two_aces, lively()], vec![]);
    play(&mut game, 0, Action::Stuck);
    assert_eq!(game.to_act().iter().collect::<Vec<_>>(), vec![1, 2]);
    assert!(game.legal_actions(0).is_empty());
    assert_eq!(refused(&mut game, 0, to_foundation("AD", None)), "stopped");
    // The others race on; their progress does not bring the stopped player back.
    play(&mut game, 1, to_foundation("AD", None));
    play(&mut game, 2, Action::Stuck);
    assert_eq!(game.phase(), Phase::Racing);
    play(&mut game, 1, Action::Stuck);
    assert_eq!(game.results()[0].ending, Ending::AllStuck);
    assert_eq!(game.results()[0].scores, vec![0, 1, 0]);
}

#[test]
fn when_the_players_still_racing_have_no_progress_the_deal_is_a_stalemate() {
    // Seat 1 could still play its Ace, but it said it is stuck and has stopped.
    let stuck = layout(["9S", "", "", "", "", "", ""], "", "");
    let mut game = rigged(vec![stuck, lively()], vec![]);
    play(&mut game, 1, Action::Stuck);
    assert_eq!(game.results()[0].ending, Ending::Stalemate);
}

#[test]
fn the_idle_time_restarts_with_each_progress_move_and_its_default_is_stuck() {
    let me = layout(["AH", "2H", "", "", "", "", ""], "3S 4S 5S", "");
    let mut game = rigged(vec![me, lively()], vec![]);
    let first = game.rule_deadline().unwrap();
    assert_eq!(first.seconds, 60);
    play(&mut game, 0, Action::Draw);
    assert_eq!(game.rule_deadline(), Some(first), "a draw is not progress");
    play(&mut game, 0, to_foundation("AH", None));
    let second = game.rule_deadline().unwrap();
    assert_ne!(second.window, first.window, "progress opens a new window");
    // The idle time runs out: the room applies every racing seat's default action.
    for seat in game.to_act().iter().collect::<Vec<_>>() {
        let default = game.default_action(seat).unwrap();
        assert_eq!(default, Action::Stuck);
        play(&mut game, seat, default);
    }
    assert_eq!(game.results()[0].ending, Ending::AllStuck);
    assert_eq!(game.rule_deadline(), None, "a one-deal match is over");
}

#[test]
fn between_deals_the_scores_stay_up_for_a_while_and_the_default_is_ready() {
    let mut game = demon_ready(Config::default());
    play(&mut game, 0, to_foundation("KC", Some(3)));
    let clock = game.rule_deadline().unwrap();
    assert_eq!(clock.seconds, BETWEEN_DEALS_SECONDS);
    assert_eq!(game.default_action(1), Some(Action::Ready));
}

#[test]
fn the_idle_time_is_a_lobby_option() {
    let config = Config {
        idle_seconds: 90,
        ..one_deal()
    };
    let game = DemonKlondike::rigged(config, vec![lively(), lively()], vec![]);
    assert_eq!(game.rule_deadline().unwrap().seconds, 90);
}

/// Turns three cards from the stock, or the waste over when the stock is out: no progress.
fn spin(game: &mut DemonKlondike, seat: u8) {
    let action = if game.layout(seat).stock.is_empty() {
        Action::Recycle
    } else {
        Action::Draw
    };
    play(game, seat, action);
}

/// `seat` spins `times` times, the deal still racing before each one.
fn spin_while_racing(game: &mut DemonKlondike, seat: u8, times: u32) {
    for step in 0..times {
        assert_eq!(
            game.phase(),
            Phase::Racing,
            "still racing after {step} of seat {seat}'s actions"
        );
        spin(game, seat);
    }
}

#[test]
fn a_deal_stalls_once_every_racing_player_has_spun_without_progress() {
    let me = layout(["", "", "", "", "", "", ""], "2S 3S 4S", "");
    // The other player could still play the Ace, so the deal is no stalemate.
    let other = layout(["AD", "", "", "", "", "", ""], "5H 6H 7H", "");
    let mut game = rigged(vec![me, other], vec![]);
    for _ in 0..STALL_ACTIONS_PER_SEAT {
        spin(&mut game, 0);
    }
    spin_while_racing(&mut game, 1, STALL_ACTIONS_PER_SEAT);
    assert_eq!(game.results()[0].ending, Ending::Stalled);
    let error = game.apply(0, &Action::Draw, &mut SeededChance::from_u64(0));
    assert_eq!(error.unwrap_err().rule(), "match_over");
}

#[test]
fn one_player_spinning_alone_cannot_stall_the_deal_before_the_hard_bound() {
    let me = layout(["", "", "", "", "", "", ""], "2S 3S 4S", "");
    let mut game = rigged(vec![me, lively()], vec![]);
    // One player's actions alone do not end the deal before the bound.
    spin_while_racing(&mut game, 0, STALL_ACTIONS_PER_SEAT * STALL_SPREAD * 2);
    assert_eq!(game.results()[0].ending, Ending::Stalled);
}
