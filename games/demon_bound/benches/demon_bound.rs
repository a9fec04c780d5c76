//! Demon Bound! throughput: random playouts per second (three and four seats, and solitaire),
//! and the server's cost of one move — the action applied plus every seat's view serialised —
//! in a four-seat match. The project budget is 20 µs per move including the views.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use pandemonium_demon_bound::{DemonBound, DemonBoundConfig};
use pandemonium_game_contract::playout::{positions, random_playout};
use pandemonium_game_contract::{Game, SeededChance, Viewer};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("demon_bound");
    group.throughput(Throughput::Elements(1));
    for seats in [1, 3, 4] {
        let mut seed = 0;
        group.bench_function(format!("random_playout_{seats}_seats"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(random_playout::<DemonBound>(
                    &DemonBoundConfig::default(),
                    seats,
                    seed,
                ))
            })
        });
    }

    // Every position of one random match, with the move played from it.
    let positions = positions::<DemonBound>(&DemonBoundConfig::default(), 4, 42);
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
