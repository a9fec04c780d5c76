//! The store, against SQLite and PostgreSQL alike: the writer's promises here, the log model,
//! upgrades from older databases and SQLite's own file in the modules below.

mod log_model;
mod sqlite;
mod upgrades;

use serde_json::json;

use pandemonium_protocol::{ActionSource, Outcome};
use pandemonium_server::store::{Append, MatchStatus, NewMatch, RoomSettings, Store, StoredSeat};

use crate::on_both_stores;
use crate::support::TestDb;

pub(super) fn new_match(id: &str, game: &str, started_at: i64) -> NewMatch {
    NewMatch {
        id: id.into(),
        room_code: "ACDEFG".into(),
        game: game.into(),
        config: json!({"mode": "x"}),
        seats: vec![
            StoredSeat {
                player_id: Some("p1".into()),
                name: "Alice".into(),
                bot: false,
            },
            StoredSeat {
                player_id: None,
                name: "Bot 2".into(),
                bot: true,
            },
        ],
        room: RoomSettings {
            public: false,
            turn_seconds: Some(30),
            grace_seconds: 60,
            host: Some("p1".into()),
        },
        seed: "00".repeat(32),
        seed_hash: "ab".repeat(32),
        started_at,
        rematch_of: None,
    }
}

pub(super) fn outcome() -> Outcome {
    Outcome {
        winners: vec![0],
        placements: vec![1, 2],
        scores: vec![5, 3],
        summary: "Alice wins".into(),
    }
}

async fn the_store_keeps_guests_matches_and_ordered_logs(db: &TestDb) {
    let store = Store::connect(&db.url).await.expect("connect and migrate");
    // Migrations are idempotent: connecting again is fine.
    let again = Store::connect(&db.url).await.expect("connect twice");
    again.close().await;

    store.insert_player("p1", "Alice", "hash-1").await.unwrap();
    assert_eq!(
        store.player_by_token_hash("hash-1").await.unwrap(),
        Some(("p1".into(), "Alice".into()))
    );
    assert_eq!(store.player_by_token_hash("hash-2").await.unwrap(), None);
    assert!(
        store.insert_player("p2", "Eve", "hash-1").await.is_err(),
        "token hashes are unique"
    );

    store
        .start_match(&new_match("m1", "soulitaire", 1))
        .await
        .unwrap();
    // Many concurrent appends are committed together and read back in order.
    let appends = (0..50u64).map(|i| {
        let store = store.clone();
        async move {
            let action = json!({"n": i}).to_string();
            store
                .append(append(
                    "m1",
                    i,
                    (i % 2) as u8,
                    &action,
                    ActionSource::Player,
                ))
                .await
        }
    });
    for result in futures_util::future::join_all(appends).await {
        result.expect("committed");
    }
    let running = store.running_matches().await.unwrap();
    assert_eq!(running.len(), 1);
    let m = &running[0];
    assert_eq!(m.log.len(), 50);
    assert!(
        m.log
            .iter()
            .enumerate()
            .all(|(i, l)| l.action["n"] == i as u64)
    );
    assert!(m.seats[1].bot);
    assert_eq!(m.room.turn_seconds, Some(30));

    // A duplicate index is refused, and nothing else is lost. After the failure the match's
    // later appends are refused (no gap in the log) until its room reopens the log.
    let (bad, next) = (json!({}).to_string(), json!({"n": 50}).to_string());
    assert!(
        store
            .append(append("m1", 3, 0, &bad, ActionSource::Bot))
            .await
            .is_err()
    );
    assert!(
        store
            .append(append("m1", 50, 1, &next, ActionSource::Timeout))
            .await
            .is_err(),
        "appends behind a failed one are refused until the room rolls back"
    );
    store.reopen_log("m1").await.unwrap();
    store
        .append(append("m1", 50, 1, &next, ActionSource::Timeout))
        .await
        .unwrap();
    store.finish("m1", &outcome()).await.unwrap();
    let finished = store.get_match("m1").await.unwrap().unwrap();
    assert_eq!(finished.status, MatchStatus::Finished);
    assert_eq!(finished.outcome, Some(outcome()));
    assert_eq!(finished.log.len(), 51);
    assert_eq!(finished.log[50].by, ActionSource::Timeout);
    assert!(store.running_matches().await.unwrap().is_empty());

    // Paging and filtering of finished matches, newest first.
    for (i, game) in ["demos", "soulitaire", "demos"].iter().enumerate() {
        let id = format!("h{i}");
        store
            .start_match(&new_match(&id, game, 10 + i as i64))
            .await
            .unwrap();
        store.finish(&id, &outcome()).await.unwrap();
    }
    store
        .start_match(&new_match("gone", "demos", 20))
        .await
        .unwrap();
    store.abandon("gone").await.unwrap();
    let (all, total) = store.finished_matches(None, 0, 2).await.unwrap();
    assert_eq!((all.len(), total), (2, 4));
    let (demos, total) = store.finished_matches(Some("demos"), 0, 10).await.unwrap();
    assert_eq!(total, 2, "abandoned matches are not history");
    assert!(demos.iter().all(|m| m.game == "demos"));
    let (page2, _) = store.finished_matches(None, 1, 2).await.unwrap();
    assert_eq!(page2.len(), 2);
    assert!(
        page2.iter().all(|m| !all.iter().any(|a| a.id == m.id)),
        "pages do not overlap"
    );
    store.close().await;
}
on_both_stores!(the_store_keeps_guests_matches_and_ordered_logs);

pub(super) fn append<'a>(
    match_id: &'a str,
    index: u64,
    seat: u8,
    action: &'a str,
    source: ActionSource,
) -> Append<'a> {
    Append {
        match_id,
        index,
        seat,
        action,
        source,
        seq: None,
        finish: None,
    }
}

/// Queues the `i`th of `actions` as `refused(i, action)` and as `taken(i, action)` in turn,
/// back to back without waiting, so that they share batches; every `refused` append fails
/// (`why`) and every `taken` one commits.
async fn refused_beside_taken<'a>(
    store: &Store,
    actions: &'a [String],
    refused: impl Fn(u64, &'a str) -> Append<'a>,
    taken: impl Fn(u64, &'a str) -> Append<'a>,
    why: &str,
) {
    let mut refusals = Vec::new();
    let mut commits = Vec::new();
    for (i, action) in (0u64..).zip(actions) {
        refusals.push(store.queue_append(refused(i, action)).await.unwrap());
        commits.push(store.queue_append(taken(i, action)).await.unwrap());
    }
    for committing in refusals {
        assert!(committing.wait().await.is_err(), "{why}");
    }
    for committing in commits {
        committing
            .wait()
            .await
            .expect("the other match's appends commit");
    }
}

/// A batch holds many rooms' appends. One room's bad write (here a duplicate index) fails
/// that room's appends only; every other room's appends in the same batches commit.
async fn one_matchs_bad_write_does_not_fail_the_others_in_its_batch(db: &TestDb) {
    let store = Store::connect(&db.url).await.unwrap();
    for id in ["bad", "good"] {
        store.start_match(&new_match(id, "demos", 1)).await.unwrap();
    }
    let first = json!({"n": 0}).to_string();
    store
        .append(append("bad", 0, 0, &first, ActionSource::Player))
        .await
        .unwrap();
    let actions: Vec<_> = (0..40u64).map(|i| json!({"n": i}).to_string()).collect();
    refused_beside_taken(
        &store,
        &actions,
        |_, action| append("bad", 0, 0, action, ActionSource::Player),
        |i, action| append("good", i, 1, action, ActionSource::Bot),
        "a duplicate index fails",
    )
    .await;
    let good = store.get_match("good").await.unwrap().unwrap();
    assert_eq!(good.log.len(), 40);
    assert_eq!(store.get_match("bad").await.unwrap().unwrap().log.len(), 1);
    store.close().await;
}
on_both_stores!(one_matchs_bad_write_does_not_fail_the_others_in_its_batch);

/// An action for a match that has no row is refused (on SQLite by the writer, once per match,
/// since `running_actions` has no foreign key there), and only that match's appends fail: another
/// match's, queued in the same batches, commit.
async fn an_action_of_a_match_without_a_row_is_refused_alone(db: &TestDb) {
    let store = Store::connect(&db.url).await.unwrap();
    store
        .start_match(&new_match("real", "demos", 1))
        .await
        .unwrap();
    let actions: Vec<_> = (0..10u64).map(|i| json!({"n": i}).to_string()).collect();
    refused_beside_taken(
        &store,
        &actions,
        |i, action| append("ghost", i, 0, action, ActionSource::Player),
        |i, action| append("real", i, 1, action, ActionSource::Player),
        "an action of a match without a row is refused",
    )
    .await;
    assert_eq!(
        store.get_match("real").await.unwrap().unwrap().log.len(),
        10
    );
    assert!(store.get_match("ghost").await.unwrap().is_none());
    // Once the match has its row and its log is reopened (as its room does after a refused
    // append), its actions are taken.
    store
        .start_match(&new_match("ghost", "demos", 2))
        .await
        .unwrap();
    store.reopen_log("ghost").await.unwrap();
    store
        .append(append("ghost", 0, 0, &actions[0], ActionSource::Player))
        .await
        .expect("the match's first action, now that it has a row");
    assert_eq!(
        store.get_match("ghost").await.unwrap().unwrap().log.len(),
        1
    );
    store.close().await;
}
on_both_stores!(an_action_of_a_match_without_a_row_is_refused_alone);

/// Every write goes through the one writer, in the order it was issued: a guest, a match's
/// start and the match's first action, issued back to back without waiting, all commit, the
/// action never ahead of its match's row. (A second writer beside it, the pool, raced the
/// writer here, and on SQLite the two made each other wait out the lock in sleeps of up to
/// 100 ms, which every room's actions queued behind.)
async fn writes_issued_back_to_back_commit_in_that_order(db: &TestDb) {
    let store = Store::connect(&db.url).await.unwrap();
    let action = json!({"n": 0}).to_string();
    for round in 0..20 {
        let id = format!("m{round}");
        let player = format!("p{round}");
        let hash = format!("hash-{round}");
        let start = new_match(&id, "demos", 1);
        let (guest, started, appended) = tokio::join!(
            store.insert_player(&player, "Alice", &hash),
            store.start_match(&start),
            async {
                store
                    .queue_append(append(&id, 0, 0, &action, ActionSource::Player))
                    .await?
                    .wait()
                    .await
            },
        );
        guest.expect("the guest is written");
        started.expect("the match is written");
        appended.expect("its first action is written after it");
        assert_eq!(store.get_match(&id).await.unwrap().unwrap().log.len(), 1);
        assert_eq!(
            store.player_by_token_hash(&hash).await.unwrap(),
            Some((player, "Alice".into()))
        );
    }
    store.close().await;
}
on_both_stores!(writes_issued_back_to_back_commit_in_that_order);

/// The action that ends a match and the match's result are one write: there is no moment at
/// which the store holds the last action of a match still marked running.
async fn the_last_action_and_the_result_are_written_together(db: &TestDb) {
    let store = Store::connect(&db.url).await.unwrap();
    store
        .start_match(&new_match("m", "demos", 1))
        .await
        .unwrap();
    let action = json!({"n": 0}).to_string();
    let result = outcome();
    store
        .append(Append {
            finish: Some(&result),
            seq: Some(7),
            ..append("m", 0, 0, &action, ActionSource::Player)
        })
        .await
        .unwrap();
    let m = store.get_match("m").await.unwrap().unwrap();
    assert_eq!(m.status, MatchStatus::Finished);
    assert_eq!(m.outcome, Some(result));
    assert_eq!(m.log.len(), 1);
    assert_eq!(
        m.log[0].seq,
        Some(7),
        "a player's seq is kept with the action"
    );
    store.close().await;
}
on_both_stores!(the_last_action_and_the_result_are_written_together);
