//! Measurements, run by hand in release mode:
//! `cargo test --release -p pandemonium-soulitaire --test rules -- --ignored --nocapture`

use pandemonium_game::{Bot, Game, RandomBot, SeededChance, Viewer};
use pandemonium_soulitaire::{Config, SolverBot, Soulitaire, Title};
use std::collections::BTreeMap;

/// Plays one seeded deal with `bot`; returns the title if it won.
pub fn play_deal<B: Bot<Soulitaire>>(bot: &B, config: Config, seed: u64) -> Option<Title> {
    let mut chance = SeededChance::from_u64(seed);
    let mut game = Soulitaire::new(&config, 1, &mut chance).expect("valid");
    let mut bot_chance = SeededChance::from_u64(seed ^ 0xB07);
    while game.outcome().is_none() {
        let legal = game.legal_actions(0);
        let view = game.view(Viewer::Seat(0));
        let action = bot.choose(&view, &legal, &mut bot_chance);
        game.apply(0, &action, &mut chance).expect("bots play legal actions");
    }
    game.title()
}

fn report<B: Bot<Soulitaire>>(name: &str, bot: &B, config: Config, deals: u64) {
    let mut titles: BTreeMap<Title, u32> = BTreeMap::new();
    let mut wins = 0;
    for seed in 0..deals {
        if let Some(title) = play_deal(bot, config, seed) {
            wins += 1;
            *titles.entry(title).or_default() += 1;
        }
    }
    println!(
        "{name} {config:?}: {wins}/{deals} won ({:.1}%)",
        100.0 * wins as f64 / deals as f64
    );
    for (title, count) in titles {
        println!("  {:<24} {count:>6} ({:.1}%)", title.name(), 100.0 * count as f64 / deals as f64);
    }
}

#[test]
#[ignore = "a measurement: run in release mode with --nocapture"]
fn measure_win_rates_over_ten_thousand_deals() {
    let deals = std::env::var("DEALS").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000);
    for config in Config::all() {
        report("solver", &SolverBot, config, deals);
    }
    report("random", &RandomBot, Config::default(), deals);
}

#[test]
#[ignore = "a measurement: run in release mode with --nocapture"]
fn measure_the_longest_legal_action_lists() {
    let deals = std::env::var("DEALS").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000u64);
    let mut longest = 0;
    let mut total = 0usize;
    let mut steps = 0usize;
    for seed in 0..deals {
        let mut chance = SeededChance::from_u64(seed);
        let mut game = Soulitaire::new(&Config::default(), 1, &mut chance).expect("valid");
        while game.outcome().is_none() {
            let legal = game.legal_actions(0);
            longest = longest.max(legal.len());
            total += legal.len();
            steps += 1;
            let view = game.view(Viewer::Seat(0));
            let action = SolverBot.choose(&view, &legal, &mut chance);
            game.apply(0, &action, &mut chance).expect("legal");
        }
    }
    println!("longest legal list {longest}, mean {:.1}", total as f64 / steps as f64);
}
