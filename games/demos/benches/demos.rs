//! DēmoS throughput: random playouts per second, the server's cost of one move — the
//! action applied plus the four seats' views serialised — in a four-seat complete match, and
//! the cost of the four patches that take each seat's view from before the move to after it
//! (what a room works out for clients that take patches). The project budget is 20 µs per
//! move including the four views.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use pandemonium_demos::{Demos, DemosConfig};
use pandemonium_game_contract::playout::{positions, random_playout};
use pandemonium_game_contract::{Game, SeededChance, Viewer};
use pandemonium_wire::{Outline, TextDiff};
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

    // Each seat's view before and after every move of the match, as text; then the four
    // patches of a move worked out on those texts, as a room does: the view before was
    // outlined when it was new, the view after is outlined now.
    // Each seat's view: its text and the text's outline.
    type SeatViews = Vec<(String, Outline)>;
    let seat_views = |game: &Demos| -> SeatViews {
        (0..4)
            .map(|seat| {
                let mut text = Vec::new();
                game.write_view(Viewer::Seat(seat), &mut text);
                let text = String::from_utf8(text).unwrap();
                let outline = Outline::of(&text).unwrap();
                (text, outline)
            })
            .collect()
    };
    let moves: Vec<(SeatViews, SeatViews)> = positions
        .iter()
        .map(|(game, seat, action)| {
            let before = seat_views(game);
            let mut game = game.clone();
            game.apply(*seat, action, &mut SeededChance::from_u64(7))
                .unwrap();
            (before, seat_views(&game))
        })
        .collect();
    let mut next = 0;
    group.bench_function("four_seat_patches", |b| {
        b.iter(|| {
            next = (next + 1) % moves.len();
            let (before, after) = &moves[next];
            for ((from, base), (to, _)) in before.iter().zip(after) {
                let outline = Outline::of(to).unwrap();
                buffer.clear();
                let mut ops = TextDiff::new(&mut buffer);
                ops.diff_outlined("/view", base.root(from), outline.root(to));
                black_box(ops.finish());
            }
        })
    });
    group.finish();
}

criterion_group!(demos, benches);
criterion_main!(demos);
