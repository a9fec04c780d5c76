//! The conformance harness: properties every game must have, checked over many seeded random
//! matches.
//!
//! For each match (config from [`Conformance::conformance_configs`], seed = match number):
//! - it ends within [`Conformance::max_actions`], nothing panics, and while it runs someone can act;
//! - seats not to act have no legal actions; seats to act have some, and every listed legal
//!   action is accepted;
//! - random actions from [`Conformance::arbitrary_action`] are accepted exactly when listed as legal,
//!   and a refused action leaves the state unchanged;
//! - the default action for a seat to act is legal;
//! - configs, actions and views survive a serde round trip;
//! - **view invariance**: re-dealing everything hidden from a viewer leaves that viewer's
//!   serialised view byte-identical; and re-dealing what is hidden from a seat leaves the
//!   spectator's view (and that seat's team view) unchanged, so a spectator never knows more
//!   than a player;
//! - replaying `(config, seed, log)` reaches the same final state.
//!
//! `CONFORMANCE_MATCHES` overrides the number of matches (CI runs the default, 2,000).

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::{Chance, Conformance, RuleError, Seat, SeededChance, Viewer};

/// The number of matches `make test` plays per game.
pub const DEFAULT_MATCHES: usize = 2_000;

/// Reads `CONFORMANCE_MATCHES`, falling back to `default`.
pub fn matches_from_env(default: usize) -> usize {
    std::env::var("CONFORMANCE_MATCHES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Plays `matches` seeded random matches of `G` and panics, naming the seed and the property,
/// at the first failure.
pub fn check<G: Conformance>(matches: usize) {
    let configs = G::conformance_configs();
    assert!(
        !configs.is_empty(),
        "{}: no conformance configs",
        G::info().id
    );
    for number in 0..matches {
        let (config, seats) = &configs[number % configs.len()];
        let seed = number as u64;
        let outcome = catch_unwind(AssertUnwindSafe(|| play_one::<G>(config, *seats, seed)));
        if let Err(panic) = outcome {
            let why = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!(
                "{} conformance failed in match {number} (seed {seed}, {seats} seats, config {}): {why}",
                G::info().id,
                serde_json::to_string(config).unwrap_or_default(),
            );
        }
    }
}

/// Plays one random match and checks every property along the way.
pub fn play_one<G: Conformance>(config: &G::Config, seats: u8, seed: u64) {
    round_trip(config);
    let mut chance = SeededChance::from_u64(seed);
    // The harness's own choices use a separate stream, so checking never disturbs the game's.
    let mut harness = SeededChance::from_u64(seed ^ 0x9E37_79B9_7F4A_7C15);
    let mut game = G::new(config, seats, &mut chance).expect("conformance configs are valid");
    let limit = G::max_actions(config, seats);
    let mut log: Vec<(Seat, G::Action)> = Vec::new();

    while game.outcome().is_none() {
        assert!(
            log.len() < limit,
            "the match did not end within {limit} actions"
        );
        check_views(&game, seats, &mut harness);
        let to_act = game.to_act();
        assert!(
            !to_act.is_empty(),
            "nobody can act, yet there is no outcome"
        );
        for seat in 0..seats {
            if !to_act.contains(seat) {
                assert!(
                    game.legal_actions(seat).is_empty(),
                    "seat {seat} is not to act but has legal actions"
                );
            }
            let listed = serde_json::to_string(&game.legal_actions(seat)).expect("serialises");
            let mut written = Vec::new();
            game.write_legal(seat, &mut written);
            assert!(
                written == listed.as_bytes(),
                "seat {seat}'s legal actions as the server writes them differ from the list \
                 serialised:\n{}\n{listed}",
                String::from_utf8_lossy(&written)
            );
        }
        let seats_to_act: Vec<Seat> = to_act.iter().collect();
        let seat = seats_to_act[harness.below(seats_to_act.len() as u32) as usize];
        let legal = game.legal_actions(seat);
        assert!(
            !legal.is_empty(),
            "seat {seat} is to act but has no legal action"
        );
        check_actions(&game, seat, &legal, &mut harness);

        let action = legal[harness.below(legal.len() as u32) as usize].clone();
        game.apply(seat, &action, &mut chance)
            .unwrap_or_else(|e| panic!("legal action {action:?} refused: {e}"));
        log.push((seat, action));
    }

    let outcome = game.outcome().expect("the loop ends on an outcome");
    assert!(
        game.to_act().is_empty(),
        "a finished match still asks for actions"
    );
    assert_eq!(
        outcome.placements.len(),
        seats as usize,
        "a placement per seat"
    );
    assert_eq!(outcome.scores.len(), seats as usize, "a score per seat");
    for &winner in &outcome.winners {
        assert_eq!(
            outcome.placements[winner as usize], 1,
            "winners are placed first"
        );
    }
    check_views(&game, seats, &mut harness);

    // Replay: the same config, seed and log reach the same state.
    let mut replay_chance = SeededChance::from_u64(seed);
    let mut replay = G::new(config, seats, &mut replay_chance).expect("valid config");
    for (seat, action) in &log {
        replay
            .apply(*seat, action, &mut replay_chance)
            .expect("a replayed action is accepted");
    }
    assert!(
        replay == game,
        "replaying the log reached a different state"
    );
}

fn check_actions<G: Conformance>(
    game: &G,
    seat: Seat,
    legal: &[G::Action],
    harness: &mut SeededChance,
) {
    let mut scratch = SeededChance::from_u64(harness.below(u32::MAX) as u64);
    // Every listed action is accepted (a sample per step keeps the run affordable).
    for _ in 0..legal.len().min(4) {
        let action = &legal[harness.below(legal.len() as u32) as usize];
        round_trip(action);
        refuses_unknown_fields(action);
        let mut copy = game.clone();
        if let Err(e) = copy.apply(seat, action, &mut scratch) {
            panic!("listed legal action {action:?} for seat {seat} refused: {e}");
        }
    }
    if let Some(default) = game.default_action(seat) {
        assert!(
            legal.contains(&default),
            "default action {default:?} for seat {seat} is not legal"
        );
    }
    // Random actions: accepted exactly when listed; a refusal changes nothing.
    for _ in 0..4 {
        let action = game.arbitrary_action(harness);
        let mut copy = game.clone();
        let result = copy.apply(seat, &action, &mut scratch);
        if legal.contains(&action) {
            assert!(
                result.is_ok(),
                "legal {action:?} refused: {:?}",
                result.err()
            );
        } else {
            let Err(refusal) = result else {
                panic!("unlisted action {action:?} was accepted for seat {seat}");
            };
            assert!(copy == *game, "refused action {action:?} changed the state");
            assert!(
                <G::Error as RuleError>::RULES.contains(&refusal.rule()),
                "refused with rule `{}`, which the game's RULES do not list",
                refusal.rule()
            );
        }
    }
}

fn check_views<G: Conformance>(game: &G, seats: u8, harness: &mut SeededChance) {
    let teams = game.teams();
    let mut viewers: Vec<Viewer> = (0..seats).map(Viewer::Seat).collect();
    viewers.push(Viewer::Spectator);
    if let Some(teams) = &teams {
        let mut ids = teams.clone();
        ids.sort();
        ids.dedup();
        viewers.extend(ids.into_iter().map(Viewer::Team));
    }
    for &viewer in &viewers {
        let view = game.view(viewer);
        round_trip(&view);
        let before = serde_json::to_string(&view).expect("views serialise");
        let mut written = Vec::new();
        game.write_view(viewer, &mut written);
        assert!(
            written == before.as_bytes(),
            "{viewer:?}'s view as the server writes it differs from the view serialised:\n{}\n{before}",
            String::from_utf8_lossy(&written)
        );
        let redealt = game.redeal_hidden(viewer, harness);
        let after = serde_json::to_string(&redealt.view(viewer)).expect("views serialise");
        assert_eq!(
            before, after,
            "{viewer:?}'s view changed when what is hidden from it was dealt again: it leaks"
        );
        assert_eq!(
            game.to_act_seen_by(viewer),
            redealt.to_act_seen_by(viewer),
            "who {viewer:?} is shown as still to act depends on something hidden from it"
        );
    }
    // Whatever a seat cannot see, neither can a spectator, nor the seat's team as a whole.
    let spectator = serde_json::to_string(&game.view(Viewer::Spectator)).expect("serialise");
    for seat in 0..seats {
        let redealt = game.redeal_hidden(Viewer::Seat(seat), harness);
        let after = serde_json::to_string(&redealt.view(Viewer::Spectator)).expect("serialise");
        assert_eq!(
            spectator, after,
            "the spectator view depends on something hidden from seat {seat}"
        );
        if let Some(teams) = &teams {
            let team = Viewer::Team(teams[seat as usize]);
            let before = serde_json::to_string(&game.view(team)).expect("serialise");
            let after = serde_json::to_string(&redealt.view(team)).expect("serialise");
            assert_eq!(
                before, after,
                "{team:?}'s view depends on something hidden from its member {seat}"
            );
        }
    }
}

/// An action sent with a field its type does not have is refused (by the type, or by
/// [`crate::dynamic::unknown_field`] on the server's path), not read with the field left out.
fn refuses_unknown_fields<T: Serialize + DeserializeOwned + Debug>(action: &T) {
    let mut sent = serde_json::to_value(action).expect("serialises");
    let Some(fields) = sent.as_object_mut() else {
        return;
    };
    fields.insert("no_such_field".into(), serde_json::Value::from(0));
    if let Ok(read) = serde_json::from_value::<T>(sent.clone()) {
        let canonical = serde_json::to_value(&read).expect("serialises");
        assert_eq!(
            crate::dynamic::unknown_field(&sent, &canonical).as_deref(),
            Some("no_such_field"),
            "{action:?} with an unknown field is accepted"
        );
    }
}

fn round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &T) {
    let json = serde_json::to_string(value).expect("serialises");
    let back: T = serde_json::from_str(&json)
        .unwrap_or_else(|e| panic!("{json} does not deserialise back: {e}"));
    assert!(&back == value, "{json} changes in a serde round trip");
}
