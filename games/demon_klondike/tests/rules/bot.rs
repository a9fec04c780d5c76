//! The bot: sensible Klondike from its own view, and better than random.

use pandemonium_demon_klondike::{Action, Config, DemonKlondike, KlondikeBot, hint};
use pandemonium_game_contract::Conformance;
use pandemonium_game_contract::{Bot, Game, RandomBot, Seat, SeededChance, Viewer};

use super::support::*;

fn choose(game: &DemonKlondike, seat: Seat) -> Action {
    let legal = game.legal_actions(seat);
    KlondikeBot.choose(
        &game.view(Viewer::Seat(seat)),
        &legal,
        &mut SeededChance::from_u64(0),
    )
}

#[test]
fn the_bot_plays_a_card_to_a_foundation_before_anything_else() {
    let me = layout(["QS", "2C", "5D | KH", "", "", "", ""], "", "JD AS");
    let game = rigged(
        vec![me, lively()],
        vec![foundation(pandemonium_demon_klondike::Suit::Clubs, 1, 1)],
    );
    let action = choose(&game, 0);
    assert!(matches!(action, Action::ToFoundation { .. }), "{action:?}");
    // The lowest card first: the Ace before the two.
    assert_eq!(action, to_foundation("AS", None));
}

#[test]
fn the_bot_turns_up_a_face_down_card_before_playing_from_the_waste() {
    let me = layout(["QS", "5D 4C | JH", "", "", "", "", ""], "", "JD");
    let game = rigged(vec![me, lively()], vec![]);
    assert_eq!(choose(&game, 0), to_pile("JH", 0));
}

#[test]
fn the_bot_never_shuffles_cards_between_piles_for_nothing() {
    // 9S could hop onto 10D, uncovering nothing: the bot turns its stock instead.
    let me = layout(["10H 9S", "10D", "", "", "", "", ""], "2C 3C 4C", "");
    let game = rigged(vec![me, lively()], vec![]);
    assert_eq!(choose(&game, 0), Action::Draw);
}

#[test]
fn the_bot_says_it_is_stuck_after_two_passes_with_no_progress_by_anyone() {
    let me = layout(["9S", "", "", "", "", "", ""], "2C 3C 4C", "");
    let mut game = rigged(vec![me, lively()], vec![]);
    let mut actions = Vec::new();
    while !game.stuck().contains(0) {
        let action = choose(&game, 0);
        actions.push(action);
        play(&mut game, 0, action);
        assert!(actions.len() < 20, "the bot never gave up: {actions:?}");
    }
    let recycles = actions.iter().filter(|a| **a == Action::Recycle).count();
    assert_eq!(recycles, 2);
}

#[test]
fn the_hint_is_the_bot_s_move() {
    let me = layout(["AH", "", "", "", "", "", ""], "", "");
    let game = rigged(vec![me, lively()], vec![]);
    let mut chance = SeededChance::from_u64(0);
    assert_eq!(hint(&game, 0, &mut chance), Some(to_foundation("AH", None)));
}

#[test]
fn the_bot_plays_every_seat_count_and_option_to_the_end() {
    for (config, seats) in DemonKlondike::conformance_configs() {
        let mut chance = SeededChance::from_u64(seats as u64);
        let mut game = DemonKlondike::new(&config, seats, &mut chance).unwrap();
        let mut turn = 0;
        while game.outcome().is_none() {
            let to_act: Vec<Seat> = game.to_act().iter().collect();
            let seat = to_act[turn % to_act.len()];
            let legal = game.legal_actions(seat);
            let action = KlondikeBot.choose(&game.view(Viewer::Seat(seat)), &legal, &mut chance);
            assert!(legal.contains(&action));
            game.apply(seat, &action, &mut chance).unwrap();
            turn += 1;
        }
    }
}

/// Plays one two-player deal, the bot in `bot_seat` and the random bot in the other, the two
/// taking turns; returns (bot's score, random bot's score).
fn bot_against_random(seed: u64, bot_seat: Seat) -> (u32, u32) {
    let config = Config {
        deals: 1,
        ..Config::default()
    };
    let mut chance = SeededChance::from_u64(seed);
    let mut game = DemonKlondike::new(&config, 2, &mut chance).unwrap();
    let mut turn = 0;
    while game.outcome().is_none() {
        let to_act: Vec<Seat> = game.to_act().iter().collect();
        let seat = to_act[turn % to_act.len()];
        let legal = game.legal_actions(seat);
        let view = game.view(Viewer::Seat(seat));
        let action = if seat == bot_seat {
            KlondikeBot.choose(&view, &legal, &mut chance)
        } else {
            Bot::<DemonKlondike>::choose(&RandomBot, &view, &legal, &mut chance)
        };
        game.apply(seat, &action, &mut chance).unwrap();
        turn += 1;
    }
    let totals = game.totals();
    (totals[bot_seat as usize], totals[1 - bot_seat as usize])
}

#[test]
fn the_bot_outscores_the_random_bot_in_a_seeded_deal() {
    let (bot, random) = bot_against_random(1, 0);
    assert!(bot > random, "bot {bot}, random {random}");
}

/// The measured figure: `cargo test --release -p pandemonium-demon-klondike --test rules --
/// --ignored --nocapture`.
#[test]
#[ignore]
fn the_bot_beats_the_random_bot_in_at_least_nine_of_ten_two_player_deals() {
    let mut wins = 0;
    let mut bot_points = 0;
    let mut random_points = 0;
    for seed in 0..1000 {
        let (bot, random) = bot_against_random(seed, (seed % 2) as Seat);
        wins += (bot > random) as u32;
        bot_points += bot;
        random_points += random;
    }
    println!(
        "KlondikeBot beat RandomBot in {wins} of 1000 two-player deals \
         (average score {:.1} to {:.1})",
        bot_points as f64 / 1000.0,
        random_points as f64 / 1000.0
    );
    assert!(wins >= 900, "the bot won {wins} of 1000");
}
