//! Measurements, run by hand in release mode:
//! `cargo test --release -p pandemonium-soulitaire --test rules -- --ignored --nocapture`

use pandemonium_game_contract::{Bot, Game, RandomBot, SeededChance, Viewer};
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
        game.apply(0, &action, &mut chance)
            .expect("bots play legal actions");
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
        println!(
            "  {:<24} {count:>6} ({:.1}%)",
            title.name(),
            100.0 * count as f64 / deals as f64
        );
    }
}

#[test]
#[ignore = "a measurement: run in release mode with --nocapture"]
fn measure_win_rates_over_ten_thousand_deals() {
    let deals = std::env::var("DEALS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    for config in Config::all() {
        report("solver", &SolverBot, config, deals);
    }
    report("random", &RandomBot, Config::default(), deals);
}

#[test]
#[ignore = "a measurement: run in release mode with --nocapture"]
fn measure_the_longest_legal_action_lists() {
    let deals = std::env::var("DEALS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000u64);
    let mut longest = 0;
    let mut total = 0usize;
    let mut steps = 0usize;
    let (mut over_1k, mut over_10k) = (0, 0);
    for seed in 0..deals {
        let mut chance = SeededChance::from_u64(seed);
        let mut game = Soulitaire::new(&Config::default(), 1, &mut chance).expect("valid");
        while game.outcome().is_none() {
            let legal = game.legal_actions(0);
            longest = longest.max(legal.len());
            total += legal.len();
            over_1k += usize::from(legal.len() > 1_000);
            over_10k += usize::from(legal.len() > 10_000);
            steps += 1;
            let view = game.view(Viewer::Seat(0));
            let action = SolverBot.choose(&view, &legal, &mut chance);
            game.apply(0, &action, &mut chance).expect("legal");
        }
    }
    println!(
        "longest legal list {longest}, mean {:.1}; over 1,000 at {over_1k} and over 10,000 at \
         {over_10k} of {steps} steps",
        total as f64 / steps as f64
    );
}

#[test]
#[ignore = "a measurement: run in release mode with --nocapture"]
fn measure_how_the_solver_loses() {
    let deals = std::env::var("DEALS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000u64);
    let mut left_cards: BTreeMap<usize, u32> = BTreeMap::new();
    let mut left_demons: BTreeMap<usize, u32> = BTreeMap::new();
    for seed in 0..deals {
        let mut chance = SeededChance::from_u64(seed);
        let mut game = Soulitaire::new(&Config::default(), 1, &mut chance).expect("valid");
        while game.outcome().is_none() {
            let legal = game.legal_actions(0);
            let view = game.view(Viewer::Seat(0));
            let action = SolverBot.choose(&view, &legal, &mut chance);
            game.apply(0, &action, &mut chance).expect("legal");
        }
        if game.title().is_none() {
            let view = game.view(Viewer::Seat(0));
            let cards: usize = view.spellboard.iter().map(|c| c.len()).sum();
            *left_cards.entry(cards).or_default() += 1;
            *left_demons.entry(view.demon_pile.len()).or_default() += 1;
        }
    }
    println!("cards left when lost: {left_cards:?}");
    println!("demons left when lost: {left_demons:?}");
}

#[test]
#[ignore = "a measurement: run in release mode with --nocapture"]
fn show_some_lost_endings() {
    use pandemonium_soulitaire::{LayerView, Top};
    let mut shown = 0;
    let (mut discards, mut sacrifices, mut losses) = (0, 0, 0);
    for seed in 0..2000u64 {
        let mut chance = SeededChance::from_u64(seed);
        let mut game = Soulitaire::new(&Config::default(), 1, &mut chance).expect("valid");
        let mut log = Vec::new();
        while game.outcome().is_none() {
            let legal = game.legal_actions(0);
            let view = game.view(Viewer::Seat(0));
            let action = SolverBot.choose(&view, &legal, &mut chance);
            log.push(action.clone());
            game.apply(0, &action, &mut chance).expect("legal");
        }
        if game.title().is_none() {
            losses += 1;
            let view = game.view(Viewer::Seat(0));
            discards += view.discarded.len();
            sacrifices += 6 - view.discarded.len() - view.demon_pile.len();
            if shown < 6 {
                shown += 1;
                let tops: Vec<String> = view
                    .foundations
                    .iter()
                    .map(|f| match f.top {
                        Top::Face(face) => format!("{}{:?}", face.rank, face.suit),
                        Top::Wild => "W".into(),
                        Top::Dead => "DEAD".into(),
                    })
                    .collect();
                let board: Vec<String> = view
                    .spellboard
                    .iter()
                    .map(|c| {
                        c.iter()
                            .map(|s| format!("{}", s.card.unwrap()))
                            .collect::<Vec<_>>()
                            .join(",")
                    })
                    .collect();
                println!(
                    "seed {seed}: tops {tops:?} board {board:?} pile {} discarded {}",
                    view.demon_pile.len(),
                    view.discarded.len()
                );
                for a in log.iter().rev().take(8).rev() {
                    println!("   {a:?}");
                }
                let demons: Vec<String> = view
                    .foundations
                    .iter()
                    .flat_map(|f| f.layers.iter())
                    .filter_map(|l| {
                        if let LayerView::Demon(d) = l {
                            Some(d.name.clone())
                        } else {
                            None
                        }
                    })
                    .collect();
                println!("   sacrificed {demons:?}");
            }
        }
    }
    println!("losses {losses}: discards {discards}, sacrifices {sacrifices}");
}
