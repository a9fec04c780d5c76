//! The store, against SQLite and PostgreSQL alike.

use serde_json::json;

use pandemonium_protocol::{ActionSource, Outcome};
use pandemonium_server::store::{MatchStatus, NewMatch, RoomSettings, Store, StoredSeat};

use crate::on_both_stores;
use crate::support::TestDb;

fn new_match(id: &str, game: &str, started_at: i64) -> NewMatch {
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
    }
}

fn outcome() -> Outcome {
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
            store
                .append(
                    "m1",
                    i,
                    (i % 2) as u8,
                    &json!({"n": i}),
                    ActionSource::Player,
                )
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

    // A duplicate index is refused, and nothing else is lost.
    assert!(
        store
            .append("m1", 3, 0, &json!({}), ActionSource::Bot)
            .await
            .is_err()
    );
    store
        .append("m1", 50, 1, &json!({"n": 50}), ActionSource::Timeout)
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
