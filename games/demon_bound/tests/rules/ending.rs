//! Carried away to hell (proposals 19-20) and the end of the game (proposals 21-23).

use pandemonium_demon_bound::{
    DemonBound, DemonBoundAction as Act, DemonBoundConfig, Ending, Phase, Rigging,
};
use pandemonium_game_contract::{Game, Viewer};

use super::support::*;

fn doomed_b(bound_demons: &str) -> DemonBound {
    table(
        3,
        Rigging {
            hands: lists(&[JUNK[0], "AH 2D 3D 4D 5D 6D", JUNK[2]]),
            sacrifices: lists(&["", "9H", ""]),
            treasuries: lists(&["", "7D", ""]),
            threats: lists(&["", "4S", ""]),
            bound: lists(&["", bound_demons, ""]),
            stains: vec![1, 6, 1],
            turn: B,
            ..Rigging::default()
        },
    )
}

fn carry_b_away(game: &mut DemonBound) {
    apply(game, B, Act::EndPlay);
    apply(
        game,
        B,
        Act::Discard {
            cards: set("AH 2D 3D 4D 5D 6D"),
        },
    );
}

#[test]
fn a_sixth_stain_means_discarding_the_whole_hand() {
    let mut game = doomed_b("");
    apply(&mut game, B, Act::EndPlay);
    // 4S marked B a seventh time; B holds six cards and must discard them all.
    assert_eq!(phase(&game), Phase::Discard { at_least: 6 });
    assert_eq!(game.legal_actions(B).len(), 1);
}

#[test]
fn a_player_carried_away_loses_every_table_card_to_the_discard_pile() {
    let mut game = doomed_b("");
    carry_b_away(&mut game);
    let view = omniscient(&game);
    let b = &view.players[B as usize];
    assert!(b.out && b.sacrifice.is_empty() && b.treasury.is_empty() && b.threats.is_empty());
    assert!(discarded(&game, "9H 7D 4S"));
    assert_eq!(view.turn, Some(C), "no released demons: play goes on");
}

#[test]
fn released_demons_go_by_default_to_the_first_opponent_clockwise() {
    let mut game = doomed_b("3S 8S");
    carry_b_away(&mut game);
    assert_eq!(game.default_action(B), Some(Act::Attack { target: C }));
    assert_eq!(omniscient(&game).pending.len(), 2);
    for _ in 0..2 {
        let default = game.default_action(B).unwrap();
        apply(&mut game, B, default);
    }
    assert_eq!(threats(&game, C), cards("3S 8S"));
}

#[test]
fn the_players_carried_away_are_skipped_in_the_turn_order() {
    let mut game = doomed_b("");
    carry_b_away(&mut game);
    apply(&mut game, C, Act::EndPlay);
    apply(&mut game, C, Act::Discard { cards: set("8C") });
    apply(&mut game, A, Act::EndPlay);
    apply(&mut game, A, Act::Discard { cards: set("2C") });
    assert_eq!(omniscient(&game).turn, Some(C));
}

#[test]
fn when_only_one_player_remains_that_player_wins() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&[JUNK[0], "AH 2D 3D 4D 5D 6D"]),
            treasuries: lists(&["", "10D 9D"]),
            bound: lists(&["", "5S"]),
            stains: vec![1, 6],
            turn: B,
            ..Rigging::default()
        },
    );
    carry_b_away(&mut game);
    let outcome = game.outcome().expect("the game is over");
    assert_eq!(outcome.winners, vec![A]);
    assert_eq!(outcome.placements, vec![1, 2]);
    assert_eq!(omniscient(&game).ending, Some(Ending::LastSurvivor));
}

#[test]
fn a_hand_emptied_off_turn_is_refilled_at_the_next_refresh() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&["JD 2C 3C 4C 5C 6C", "7D"]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(&mut game, A, Act::Cast { card: card("JD") });
    apply(&mut game, A, Act::Scry { seat: B });
    apply(&mut game, A, Act::Steal { card: card("7D") });
    assert!(hand(&game, B).is_empty());
    assert!(!omniscient(&game).players[B as usize].out);
    apply(&mut game, A, Act::Discard { cards: set("2C") });
    assert_eq!(hand(&game, B).len(), 6);
}

#[test]
fn diamonds_from_a_treasury_lost_to_hell_go_back_into_circulation() {
    let mut game = table(
        3,
        Rigging {
            hands: lists(&[JUNK[0], "AH 2H 3H 4H 5H 6H", "AD 8C 9C 10C 8H 9H"]),
            treasuries: lists(&["2D 3D 4D 5D", "6D 7D 8D 9D 10D", ""]),
            bound: lists(&["", "", "AS"]),
            stains: vec![1, 6, 1],
            turn: B,
            ..Rigging::default()
        },
    );
    apply(&mut game, B, Act::EndPlay);
    apply(
        &mut game,
        B,
        Act::Discard {
            cards: set("AH 2H 3H 4H 5H 6H"),
        },
    );
    // C claims the last diamond: not all ten are in survivors' treasuries.
    apply(
        &mut game,
        C,
        Act::Treasure {
            card: card("AD"),
            release: set("AS"),
        },
    );
    assert!(game.outcome().is_none());
    assert!(discarded(&game, "6D 7D 8D 9D 10D"));
}

#[test]
fn a_tie_in_wealth_goes_to_fewer_stains_and_then_the_win_is_shared() {
    let config = DemonBoundConfig {
        round_cap: Some(1),
        ..DemonBoundConfig::default()
    };
    let mut game = DemonBound::rigged(
        &config,
        3,
        Rigging {
            hands: lists(&[JUNK[0], JUNK[1], JUNK[2]]),
            stains: vec![2, 1, 1],
            draw: filler(20, &[JUNK[0], JUNK[1], JUNK[2]].join(" ")),
            turn: A,
            ..Rigging::default()
        },
    )
    .unwrap();
    for seat in [A, B, C] {
        apply(&mut game, seat, Act::EndPlay);
        let first = hand(&game, seat);
        let least = match phase(&game) {
            Phase::Discard { at_least } => at_least as usize,
            other => panic!("{other:?}"),
        };
        apply(
            &mut game,
            seat,
            Act::Discard {
                cards: first[..least].to_vec().into(),
            },
        );
    }
    // Everyone has 0 treasure; B and C have one stain, A two.
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winners, vec![B, C]);
    assert_eq!(outcome.placements, vec![3, 1, 1]);
    assert_eq!(omniscient(&game).ending, Some(Ending::RoundCap));
}

#[test]
fn the_reshuffle_cap_ends_the_game_instead_of_a_reshuffle() {
    let config = DemonBoundConfig {
        reshuffle_cap: Some(0),
        ..DemonBoundConfig::default()
    };
    let mut game = DemonBound::rigged(
        &config,
        2,
        Rigging {
            hands: lists(&[JUNK[0], "2D 3D 4D 5D 6D"]),
            treasuries: lists(&["", "7D"]),
            discard: cards("8D"),
            turn: A,
            ..Rigging::default()
        },
    )
    .unwrap();
    apply(&mut game, A, Act::EndPlay);
    apply(&mut game, A, Act::Discard { cards: set("2C") });
    let outcome = game.outcome().expect("B's refresh needed a reshuffle");
    assert_eq!(omniscient(&game).ending, Some(Ending::ReshuffleCap));
    assert_eq!(outcome.winners, vec![B]);
}

#[test]
fn everything_is_revealed_once_the_game_is_over() {
    let mut game = doomed_b("");
    carry_b_away(&mut game);
    let mut over = table(
        2,
        Rigging {
            hands: lists(&[JUNK[0], "AH 2D 3D 4D 5D 6D"]),
            stains: vec![1, 6],
            turn: B,
            ..Rigging::default()
        },
    );
    carry_b_away(&mut over);
    let spectator = over.view(Viewer::Spectator);
    assert!(spectator.players[A as usize].hand.is_some());
    assert!(spectator.revealed_draw_pile.is_some());
    assert!(game.view(Viewer::Spectator).revealed_draw_pile.is_none());
}
