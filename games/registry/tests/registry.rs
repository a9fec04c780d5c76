//! Tests over every registered game: the conformance harness, and the TypeScript bindings the
//! web client uses being up to date with the Rust types.

mod typescript;

use pandemonium_game::conformance::{DEFAULT_MATCHES, matches_from_env};

#[test]
fn every_registered_game_passes_the_conformance_harness() {
    let matches = matches_from_env(DEFAULT_MATCHES);
    // One thread per game: the games are independent, and the machine has more than one core.
    std::thread::scope(|scope| {
        for entry in pandemonium_games::all() {
            scope.spawn(move || (entry.conformance)(matches));
        }
    });
}

#[test]
fn game_ids_are_unique_and_every_game_has_a_name_and_seats() {
    let mut ids: Vec<String> = pandemonium_games::all()
        .iter()
        .map(|e| (e.info)().id)
        .collect();
    for entry in pandemonium_games::all() {
        let info = (entry.info)();
        assert!(
            !info.name.is_empty() && !info.description.is_empty(),
            "{}",
            info.id
        );
        assert!(1 <= info.min_seats && info.min_seats <= info.max_seats && info.max_seats <= 8);
    }
    let count = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), count, "duplicate game ids");
}
