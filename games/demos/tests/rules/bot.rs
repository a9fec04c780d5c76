//! The bot plays from its view only and beats random play.

use pandemonium_demos::{Demos, DemosBot, Mode};
use pandemonium_game_contract::Conformance;
use pandemonium_game_contract::{Bot, Game, RandomBot, SeededChance, Viewer};

use super::support::*;

/// Plays `matches` seeded four-player complete matches, [`DemosBot`] in one seat (rotating)
/// and [`RandomBot`] in the others; returns how many the bot won. A shared victory counts as
/// a win; a match without a winner does not.
fn bot_wins(matches: u64) -> u64 {
    let mut wins = 0;
    for number in 0..matches {
        let mut chance = SeededChance::from_u64(number);
        let mut choices = SeededChance::from_u64(number ^ 0xB07_B07);
        let mut game = Demos::new(&config(Mode::Complete), 4, &mut chance).unwrap();
        let bot_seat = (number % 4) as u8;
        while game.outcome().is_none() {
            let seat = game.to_act().iter().next().unwrap();
            let legal = game.legal_actions(seat);
            let action = if seat == bot_seat {
                DemosBot.choose(&game.view(Viewer::Seat(seat)), &legal, &mut choices)
            } else {
                <RandomBot as Bot<Demos>>::choose(
                    &RandomBot,
                    &game.view(Viewer::Seat(seat)),
                    &legal,
                    &mut choices,
                )
            };
            game.apply(seat, &action, &mut chance).unwrap();
        }
        if game.outcome().unwrap().winners.contains(&bot_seat) {
            wins += 1;
        }
    }
    wins
}

#[test]
fn the_bot_wins_most_of_a_few_matches_against_random_bots() {
    let wins = bot_wins(40);
    assert!(wins >= 20, "the bot won {wins} of 40");
}

/// The measurement in the crate documentation: `cargo test --release -p pandemonium-demos
/// --test rules -- --ignored --nocapture`.
#[test]
#[ignore]
fn the_bot_wins_at_least_half_of_a_thousand_four_player_matches_against_random_bots() {
    let wins = bot_wins(1000);
    println!("DemosBot won {wins} of 1000 four-player complete matches against three RandomBots");
    assert!(wins >= 500, "the bot won {wins} of 1000");
}

#[test]
fn the_bot_plays_every_mode_to_the_end() {
    for (config, seats) in Demos::conformance_configs() {
        let mut chance = SeededChance::from_u64(seats as u64);
        let mut game = Demos::new(&config, seats, &mut chance).unwrap();
        while game.outcome().is_none() {
            let seat = game.to_act().iter().next().unwrap();
            let legal = game.legal_actions(seat);
            let action = DemosBot.choose(&game.view(Viewer::Seat(seat)), &legal, &mut chance);
            assert!(legal.contains(&action));
            game.apply(seat, &action, &mut chance).unwrap();
        }
    }
}
