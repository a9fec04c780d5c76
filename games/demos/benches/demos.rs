//! DēmoS throughput: random playouts per second, and the server's cost of one move — the
//! action applied plus the four seats' views serialised — in a four-seat complete match. The
//! project budget is 20 µs per move including the four views.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use pandemonium_demos::{Demos, DemosConfig};
use pandemonium_game::playout::{positions, random_playout};
use pandemonium_game::{Game, SeededChance, Viewer};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("demos");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0;
    group.bench_function("random_playout_4_seats", |b| {
        b.iter(|| {
            seed += 1;
            black_box(random_playout::<Demos>(&DemosConfig::default(), 4, seed))
        })
    });

    // Every position of one random match, with the move played from it: the move applied,
    // then the four seats' views written as the server writes them (`Game::write_view`).
    let positions = positions::<Demos>(&DemosConfig::default(), 4, 42);
    let mut buffer = Vec::with_capacity(4096);
    for (name, built) in [
        ("move_plus_four_views", false),
        ("move_plus_four_views_built", true),
    ] {
        let mut next = 0;
        group.bench_function(name, |b| {
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
                        let viewer = Viewer::Seat(viewer);
                        if built {
                            // The view built, then serialised: what `write_view` spares.
                            serde_json::to_writer(&mut buffer, &game.view(viewer)).unwrap();
                        } else {
                            game.write_view(viewer, &mut buffer);
                        }
                        black_box(&buffer);
                    }
                    game
                },
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(demos, benches);
criterion_main!(demos);
