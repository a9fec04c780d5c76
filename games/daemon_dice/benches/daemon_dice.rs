//! Daemon Dice throughput: random playouts per second (two 13-dice daemons, and a battle of
//! six), and the server's cost of one move — the action applied plus both seats' views
//! serialised — in a two-player battle. The project budget is 20 µs per move.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use pandemonium_daemon_dice::{DaemonDice, DaemonDiceConfig};
use pandemonium_game_contract::playout::{positions, random_playout};
use pandemonium_game_contract::{Game, SeededChance, Viewer};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("daemon_dice");
    group.throughput(Throughput::Elements(1));
    for seats in [2, 6] {
        let mut seed = 0;
        group.bench_function(format!("random_playout_{seats}_seats_13_dice"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(random_playout::<DaemonDice>(
                    &DaemonDiceConfig::default(),
                    seats,
                    seed,
                ))
            })
        });
    }

    // Every position of one random match, with the move played from it.
    let positions = positions::<DaemonDice>(&DaemonDiceConfig::default(), 2, 42);
    let mut next = 0;
    let mut buffer = Vec::with_capacity(4096);
    group.bench_function("move_plus_two_views", |b| {
        b.iter_batched(
            || {
                next = (next + 1) % positions.len();
                positions[next].clone()
            },
            |(mut game, seat, action)| {
                let mut chance = SeededChance::from_u64(7);
                game.apply(seat, &action, &mut chance).unwrap();
                for viewer in 0..2 {
                    buffer.clear();
                    serde_json::to_writer(&mut buffer, &game.view(Viewer::Seat(viewer))).unwrap();
                    black_box(&buffer);
                }
                game
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(daemon_dice, benches);
criterion_main!(daemon_dice);
