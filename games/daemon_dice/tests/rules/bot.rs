//! The bot plays from its view only, plays every configuration to the end, and beats random
//! play.

use pandemonium_daemon_dice::{DaemonBot, DaemonDice, DaemonDiceConfig};
use pandemonium_game_contract::Conformance;
use pandemonium_game_contract::{Bot, Game, RandomBot, SeededChance, Viewer};

/// Plays `matches` seeded two-player battles of 13-dice daemons, [`DaemonBot`] against
/// [`RandomBot`] (the bot's seat alternates); returns how many the bot won.
fn bot_wins(matches: u64) -> u64 {
    let mut wins = 0;
    for number in 0..matches {
        let mut chance = SeededChance::from_u64(number);
        let mut choices = SeededChance::from_u64(number ^ 0xB07_B07);
        let mut game = DaemonDice::new(&DaemonDiceConfig::default(), 2, &mut chance).unwrap();
        let bot_seat = (number % 2) as u8;
        while game.outcome().is_none() {
            let seat = game.to_act().iter().next().unwrap();
            let legal = game.legal_actions(seat);
            let view = game.view(Viewer::Seat(seat));
            let action = if seat == bot_seat {
                DaemonBot.choose(&view, &legal, &mut choices)
            } else {
                <RandomBot as Bot<DaemonDice>>::choose(&RandomBot, &view, &legal, &mut choices)
            };
            game.apply(seat, &action, &mut chance).unwrap();
        }
        if game.outcome().unwrap().winners == vec![bot_seat] {
            wins += 1;
        }
    }
    wins
}

#[test]
fn the_bot_wins_most_of_a_few_duels_against_random_play() {
    let wins = bot_wins(30);
    assert!(wins >= 24, "the bot won {wins} of 30");
}

/// The measurement in the crate documentation: `cargo test --release -p
/// pandemonium-daemon-dice --test rules -- --ignored --nocapture`.
#[test]
#[ignore]
fn the_bot_wins_at_least_80_percent_of_a_thousand_duels_against_random_play() {
    let wins = bot_wins(1000);
    println!("DaemonBot won {wins} of 1000 two-player battles against RandomBot");
    assert!(wins >= 800, "the bot won {wins} of 1000");
}

#[test]
fn bots_play_every_configuration_to_the_end_with_legal_actions() {
    for (number, (config, seats)) in DaemonDice::conformance_configs().into_iter().enumerate() {
        let mut chance = SeededChance::from_u64(number as u64);
        let mut game = DaemonDice::new(&config, seats, &mut chance).unwrap();
        while game.outcome().is_none() {
            let seat = game.to_act().iter().next().unwrap();
            let legal = game.legal_actions(seat);
            let action = DaemonBot.choose(&game.view(Viewer::Seat(seat)), &legal, &mut chance);
            assert!(legal.contains(&action), "{action:?} is not legal");
            game.apply(seat, &action, &mut chance).unwrap();
        }
    }
}

#[test]
fn the_bot_says_it_is_ready_once_its_daemon_is_built() {
    use pandemonium_daemon_dice::DaemonAction as A;
    let config = DaemonDiceConfig {
        size: 2,
        ..DaemonDiceConfig::default()
    };
    let mut chance = SeededChance::from_u64(7);
    let mut game = DaemonDice::new(&config, 2, &mut chance).unwrap();
    let choose = |game: &DaemonDice| {
        let legal = game.legal_actions(0);
        DaemonBot.choose(
            &game.view(Viewer::Seat(0)),
            &legal,
            &mut SeededChance::from_u64(1),
        )
    };
    for _ in 0..2 {
        let action = choose(&game);
        assert!(matches!(action, A::Pick { .. }), "{action:?}");
        game.apply(0, &action, &mut chance).unwrap();
    }
    assert_eq!(choose(&game), A::Ready { breed: None });
}
