//! The bot plays from its view only, beats random play and plays every configuration to the
//! end.

use pandemonium_demon_bound::{DemonBound, DemonBoundBot, DemonBoundConfig};
use pandemonium_game_contract::Conformance;
use pandemonium_game_contract::{Bot, Game, RandomBot, SeededChance, Viewer};

/// Plays `matches` seeded three-player matches, [`DemonBoundBot`] in one seat (rotating) and
/// [`RandomBot`] in the others; returns how many the bot won (a shared win counts).
fn bot_wins(matches: u64) -> u64 {
    let mut wins = 0;
    for number in 0..matches {
        let mut chance = SeededChance::from_u64(number);
        let mut choices = SeededChance::from_u64(number ^ 0xB07_B07);
        let mut game = DemonBound::new(&DemonBoundConfig::default(), 3, &mut chance).unwrap();
        let bot_seat = (number % 3) as u8;
        while game.outcome().is_none() {
            let seat = game.to_act().iter().next().unwrap();
            let legal = game.legal_actions(seat);
            let view = game.view(Viewer::Seat(seat));
            let action = if seat == bot_seat {
                DemonBoundBot.choose(&view, &legal, &mut choices)
            } else {
                <RandomBot as Bot<DemonBound>>::choose(&RandomBot, &view, &legal, &mut choices)
            };
            game.apply(seat, &action, &mut chance).unwrap();
        }
        if game.outcome().unwrap().winners.contains(&bot_seat) {
            wins += 1;
        }
    }
    wins
}

/// Plays `deals` seeded solitaire deals with the bot; returns how many it won.
pub fn solitaire_wins(deals: u64) -> u64 {
    let mut wins = 0;
    for number in 0..deals {
        let mut chance = SeededChance::from_u64(number);
        let mut choices = SeededChance::from_u64(number ^ 0x5011);
        let mut game = DemonBound::new(&DemonBoundConfig::default(), 1, &mut chance).unwrap();
        while game.outcome().is_none() {
            let legal = game.legal_actions(0);
            let action = DemonBoundBot.choose(&game.view(Viewer::Seat(0)), &legal, &mut choices);
            game.apply(0, &action, &mut chance).unwrap();
        }
        if !game.outcome().unwrap().winners.is_empty() {
            wins += 1;
        }
    }
    wins
}

#[test]
fn the_bot_wins_most_of_a_few_three_player_matches_against_random_bots() {
    let wins = bot_wins(60);
    assert!(wins >= 36, "the bot won {wins} of 60");
}

/// The measurements in the crate documentation: `cargo test --release -p
/// pandemonium-demon-bound --test rules -- --ignored --nocapture`.
#[test]
#[ignore]
fn the_bot_wins_at_least_sixty_percent_of_a_thousand_three_player_matches_against_random_bots() {
    let wins = bot_wins(1000);
    println!("DemonBoundBot won {wins} of 1000 three-player matches against two RandomBots");
    assert!(wins >= 600, "the bot won {wins} of 1000");
}

#[test]
#[ignore]
fn the_bots_solitaire_win_rate_over_ten_thousand_deals() {
    let wins = solitaire_wins(10_000);
    println!("DemonBoundBot won {wins} of 10000 solitaire deals");
    assert!(wins > 0);
}

#[test]
fn the_bot_plays_every_configuration_to_the_end() {
    for (config, seats) in DemonBound::conformance_configs() {
        let mut chance = SeededChance::from_u64(seats as u64);
        let mut game = DemonBound::new(&config, seats, &mut chance).unwrap();
        let mut moves = 0;
        while game.outcome().is_none() {
            let seat = game.to_act().iter().next().unwrap();
            let legal = game.legal_actions(seat);
            let action = DemonBoundBot.choose(&game.view(Viewer::Seat(seat)), &legal, &mut chance);
            assert!(legal.contains(&action));
            game.apply(seat, &action, &mut chance).unwrap();
            moves += 1;
            assert!(moves < 100_000, "bots alone end a match");
        }
    }
}
