//! Random playouts per second, solver decisions per second, listing the legal actions (sent
//! with every state message), and the cost of one move plus the player's view (built and
//! serialised), the server's hot path.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use pandemonium_game_contract::{Bot, Game, RandomBot, SeededChance, Viewer};
use pandemonium_soulitaire::{Config, SolverBot, Soulitaire, View, hint};
use std::hint::black_box;

/// One whole match played by the random bot, with a view per action as a room would build.
fn random_playout(seed: u64) -> usize {
    let mut chance = SeededChance::from_u64(seed);
    let mut game = Soulitaire::new(&Config::default(), 1, &mut chance).expect("valid");
    let mut actions = 0;
    while game.outcome().is_none() {
        let legal = game.legal_actions(0);
        let view = game.view(Viewer::Seat(0));
        let action = Bot::<Soulitaire>::choose(&RandomBot, &view, &legal, &mut chance);
        game.apply(0, &action, &mut chance).expect("legal");
        actions += 1;
    }
    actions
}

/// Positions (and the player's views of them) from solver-played matches, sacrifices under
/// way included, for timing single decisions and legal lists.
fn solver_positions(count: u64) -> (Vec<Soulitaire>, Vec<View>) {
    let (mut games, mut views) = (Vec::new(), Vec::new());
    for seed in 0..count {
        let mut chance = SeededChance::from_u64(seed);
        let mut game = Soulitaire::new(&Config::default(), 1, &mut chance).expect("valid");
        while game.outcome().is_none() {
            let view = game.view(Viewer::Seat(0));
            let legal = game.legal_actions(0);
            let action = SolverBot.choose(&view, &legal, &mut chance);
            games.push(game.clone());
            views.push(view);
            game.apply(0, &action, &mut chance).expect("legal");
        }
    }
    (games, views)
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("soulitaire");

    group.throughput(Throughput::Elements(1));
    let mut seed = 0;
    group.bench_function("random_playout", |b| {
        b.iter(|| {
            seed += 1;
            black_box(random_playout(seed))
        })
    });

    let (games, views) = solver_positions(50);
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function("legal_actions", |b| {
        b.iter(|| {
            for game in &games {
                black_box(game.legal_actions(0));
            }
        })
    });

    group.throughput(Throughput::Elements(views.len() as u64));
    group.bench_function("solver_decisions", |b| {
        b.iter(|| {
            for view in &views {
                black_box(hint(view));
            }
        })
    });

    let mut chance = SeededChance::from_u64(7);
    let start = Soulitaire::new(&Config::default(), 1, &mut chance).expect("valid");
    let first = hint(&start.view(Viewer::Seat(0))).expect("a move");
    group.throughput(Throughput::Elements(1));
    group.bench_function("move_and_view_json", |b| {
        b.iter_batched(
            || start.clone(),
            |mut game| {
                game.apply(0, &first, &mut SeededChance::from_u64(0))
                    .expect("legal");
                black_box(serde_json::to_string(&game.view(Viewer::Seat(0))).expect("json"))
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(soulitaire, benches);
criterion_main!(soulitaire);
