//! Demon throughput: random playouts per second, and the server's cost of one action — the
//! action applied plus all nine views (eight seats and the spectators) serialised — at an
//! eight-seat table in the middle of a bot-played deal. The project budget is 20 µs per move.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use pandemonium_demon_klondike::{Action, Config, DemonKlondike, KlondikeBot};
use pandemonium_game_contract::playout::random_playout;
use pandemonium_game_contract::{Bot, Game, Seat, SeededChance, Viewer};
use std::hint::black_box;

fn one_deal() -> Config {
    Config {
        deals: 1,
        ..Config::default()
    }
}

/// Every position of one eight-seat deal played by bots, with the move played from it.
fn positions() -> Vec<(DemonKlondike, Seat, Action)> {
    let mut chance = SeededChance::from_u64(42);
    let mut game = DemonKlondike::new(&one_deal(), 8, &mut chance).unwrap();
    let mut out = Vec::new();
    let mut turn = 0;
    while game.outcome().is_none() {
        let to_act: Vec<Seat> = game.to_act().iter().collect();
        let seat = to_act[turn % to_act.len()];
        let legal = game.legal_actions(seat);
        let action = KlondikeBot.choose(&game.view(Viewer::Seat(seat)), &legal, &mut chance);
        out.push((game.clone(), seat, action));
        game.apply(seat, &action, &mut chance).unwrap();
        turn += 1;
    }
    out
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("demon_klondike");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0;
    group.bench_function("random_playout_8_seats", |b| {
        b.iter(|| {
            seed += 1;
            black_box(random_playout::<DemonKlondike>(&one_deal(), 8, seed))
        })
    });

    let positions = positions();
    let mut next = 0;
    let mut buffer = Vec::with_capacity(8192);
    group.bench_function("action_plus_nine_views_8_seats", |b| {
        b.iter_batched(
            || {
                next = (next + 1) % positions.len();
                positions[next].clone()
            },
            |(mut game, seat, action)| {
                let mut chance = SeededChance::from_u64(7);
                game.apply(seat, &action, &mut chance).unwrap();
                let viewers = (0..8).map(Viewer::Seat).chain([Viewer::Spectator]);
                for viewer in viewers {
                    buffer.clear();
                    serde_json::to_writer(&mut buffer, &game.view(viewer)).unwrap();
                    black_box(&buffer);
                }
                game
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(demon_klondike, benches);
criterion_main!(demon_klondike);
