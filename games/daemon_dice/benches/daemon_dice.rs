//! Daemon Dice throughput: random playouts per second (two 13-dice daemons, and a battle of
//! six), and the server's cost of one move — the action applied plus both seats' views
//! serialised — in a two-player battle. The project budget is 20 µs per move.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use pandemonium_daemon_dice::{DaemonAction, DaemonDice, DaemonDiceConfig};
use pandemonium_game::{Chance, Game, Seat, SeededChance, Viewer};
use std::hint::black_box;

fn random_playout(seed: u64, seats: u8) -> usize {
    let mut chance = SeededChance::from_u64(seed);
    let mut game = DaemonDice::new(&DaemonDiceConfig::default(), seats, &mut chance).unwrap();
    let mut moves = 0;
    while game.outcome().is_none() {
        let to_act: Vec<Seat> = game.to_act().iter().collect();
        let seat = to_act[chance.below(to_act.len() as u32) as usize];
        let legal = game.legal_actions(seat);
        let action = legal[chance.below(legal.len() as u32) as usize];
        game.apply(seat, &action, &mut chance).unwrap();
        moves += 1;
    }
    moves
}

/// Every position of one random two-player battle, with the move played from it.
fn positions() -> Vec<(DaemonDice, Seat, DaemonAction)> {
    let mut chance = SeededChance::from_u64(42);
    let mut game = DaemonDice::new(&DaemonDiceConfig::default(), 2, &mut chance).unwrap();
    let mut out = Vec::new();
    while game.outcome().is_none() {
        let to_act: Vec<Seat> = game.to_act().iter().collect();
        let seat = to_act[chance.below(to_act.len() as u32) as usize];
        let legal = game.legal_actions(seat);
        let action = legal[chance.below(legal.len() as u32) as usize];
        out.push((game.clone(), seat, action));
        game.apply(seat, &action, &mut chance).unwrap();
    }
    out
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("daemon_dice");
    group.throughput(Throughput::Elements(1));
    for seats in [2, 6] {
        let mut seed = 0;
        group.bench_function(format!("random_playout_{seats}_seats_13_dice"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(random_playout(seed, seats))
            })
        });
    }

    let positions = positions();
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
