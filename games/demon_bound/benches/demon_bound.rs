//! Demon Bound! throughput: random playouts per second (three and four seats, and solitaire),
//! and the server's cost of one move — the action applied plus every seat's view serialised —
//! in a four-seat match. The project budget is 20 µs per move including the views.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use pandemonium_demon_bound::{DemonBound, DemonBoundAction, DemonBoundConfig};
use pandemonium_game::{Chance, Game, Seat, SeededChance, Viewer};
use std::hint::black_box;

fn random_playout(seats: u8, seed: u64) -> usize {
    let mut chance = SeededChance::from_u64(seed);
    let mut game = DemonBound::new(&DemonBoundConfig::default(), seats, &mut chance).unwrap();
    let mut moves = 0;
    while game.outcome().is_none() {
        let to_act: Vec<Seat> = game.to_act().iter().collect();
        let seat = to_act[chance.below(to_act.len() as u32) as usize];
        let legal = game.legal_actions(seat);
        let action = legal[chance.below(legal.len() as u32) as usize].clone();
        game.apply(seat, &action, &mut chance).unwrap();
        moves += 1;
    }
    moves
}

/// Every position of one random four-seat match, with the move played from it.
fn positions() -> Vec<(DemonBound, Seat, DemonBoundAction)> {
    let mut chance = SeededChance::from_u64(42);
    let mut game = DemonBound::new(&DemonBoundConfig::default(), 4, &mut chance).unwrap();
    let mut out = Vec::new();
    while game.outcome().is_none() {
        let to_act: Vec<Seat> = game.to_act().iter().collect();
        let seat = to_act[chance.below(to_act.len() as u32) as usize];
        let legal = game.legal_actions(seat);
        let action = legal[chance.below(legal.len() as u32) as usize].clone();
        out.push((game.clone(), seat, action.clone()));
        game.apply(seat, &action, &mut chance).unwrap();
    }
    out
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("demon_bound");
    group.throughput(Throughput::Elements(1));
    for seats in [1, 3, 4] {
        let mut seed = 0;
        group.bench_function(format!("random_playout_{seats}_seats"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(random_playout(seats, seed))
            })
        });
    }

    let positions = positions();
    let mut next = 0;
    let mut buffer = Vec::with_capacity(4096);
    group.bench_function("move_plus_four_views", |b| {
        b.iter_batched(
            || {
                next = (next + 1) % positions.len();
                positions[next].clone()
            },
            |(mut game, seat, action)| {
                let mut chance = SeededChance::from_u64(7);
                game.apply(seat, &action, &mut chance).unwrap();
                for viewer in 0..4 {
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

criterion_group!(demon_bound, benches);
criterion_main!(demon_bound);
