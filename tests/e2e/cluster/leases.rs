//! Two nodes, one room: leases are taken, renewed and taken over, and an append under a lease
//! that has moved on is refused unwritten while the other rooms' appends commit.

use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use serde_json::json;

use pandemonium_protocol::ActionSource;
use pandemonium_server::store::{Append, StoreError};

use super::{expire_every_lease, lease_row, node_store, postgres, sql};
use crate::support::stored_match;

fn action(match_id: &str, index: u64, n: u64) -> (String, u64, String) {
    (match_id.to_owned(), index, json!({"n": n}).to_string())
}

fn append<'a>(row: &'a (String, u64, String)) -> Append<'a> {
    Append {
        match_id: &row.0,
        index: row.1,
        seat: 0,
        action: &row.2,
        source: ActionSource::Player,
        seq: None,
        finish: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_lost_its_lease_writes_nothing_more_and_the_log_keeps_one_history() {
    let Some(db) = postgres().await else { return };
    let a = node_store(&db, "node-a").await;
    let b = node_store(&db, "node-b").await;
    let (node_a, node_b) = (a.node().unwrap(), b.node().unwrap());

    // A opens room X: a new room, epoch 1; its first action is written under that lease.
    let lease_a = node_a
        .take("ROOMX")
        .await
        .unwrap()
        .expect("a new room is free");
    assert_eq!(lease_a.epoch(), 1);
    a.start_match(&stored_match(
        "m-x",
        "ROOMX",
        "twenty_one",
        &[("Alice", false)],
    ))
    .await
    .unwrap();
    let first = action("m-x", 0, 0);
    a.queue_leased_append(append(&first), &lease_a)
        .await
        .unwrap()
        .wait()
        .await
        .expect("A holds the lease");

    // B cannot take the room while A's heartbeat renews the lease.
    assert!(node_b.take("ROOMX").await.unwrap().is_none());
    assert_eq!(
        lease_row(&db, "ROOMX").await,
        Some((Some("node-a".into()), 1))
    );

    // A stops renewing (paused, cut off); once the lease has expired, B takes the room over.
    node_a.stop_heartbeat().await;
    expire_every_lease(&db).await;
    let lease_b = node_b
        .take("ROOMX")
        .await
        .unwrap()
        .expect("expired: B's now");
    assert_eq!(lease_b.epoch(), 2, "every takeover raises the epoch");
    assert_eq!(node_b.counters().leases_taken_over.load(Relaxed), 1);

    // A's next append, under epoch 1, is refused and not written; B's goes on from the log.
    let stale = action("m-x", 1, 99);
    let refused = a
        .queue_leased_append(append(&stale), &lease_a)
        .await
        .unwrap()
        .wait()
        .await;
    assert!(matches!(refused, Err(StoreError::LeaseLost)), "{refused:?}");
    assert_eq!(node_a.counters().fenced_appends.load(Relaxed), 1);
    let second = action("m-x", 1, 1);
    b.queue_leased_append(append(&second), &lease_b)
        .await
        .unwrap()
        .wait()
        .await
        .expect("B holds the lease");

    // Nor can A end the match it no longer holds, nor start another in the room.
    let abandoned = a.abandon_leased("m-x", &lease_a).await;
    assert!(
        matches!(abandoned, Err(StoreError::LeaseLost)),
        "{abandoned:?}"
    );
    let restarted = a
        .start_leased_match(
            &stored_match("m-x2", "ROOMX", "twenty_one", &[("Alice", false)]),
            &lease_a,
        )
        .await;
    assert!(
        matches!(restarted, Err(StoreError::LeaseLost)),
        "{restarted:?}"
    );

    let running = b.running_matches().await.unwrap();
    assert_eq!(running.len(), 1);
    let log: Vec<_> = running[0].log.iter().map(|a| a.action.clone()).collect();
    assert_eq!(log, vec![json!({"n": 0}), json!({"n": 1})], "one history");

    a.close().await;
    b.close().await;
    db.drop_database().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fenced_room_is_refused_while_the_other_rooms_of_the_batch_commit() {
    let Some(db) = postgres().await else { return };
    let a = node_store(&db, "node-a").await;
    let node_a = a.node().unwrap();
    let mut rooms = Vec::new();
    for (room, id) in [("ROOMX", "m-x"), ("ROOMY", "m-y"), ("ROOMZ", "m-z")] {
        let lease = node_a.take(room).await.unwrap().unwrap();
        a.start_match(&stored_match(id, room, "twenty_one", &[("Alice", false)]))
            .await
            .unwrap();
        rooms.push((id, lease));
    }
    // Room Y is taken over behind A's back.
    sql(
        &db,
        "UPDATE room_leases SET node = 'node-b', epoch = epoch + 1 WHERE room_code = 'ROOMY'",
    )
    .await;
    let rows: Vec<_> = rooms.iter().map(|(id, _)| action(id, 0, 0)).collect();
    // Queued together, before any is awaited: they share a batch, or follow each other.
    let mut waiting = Vec::new();
    for (row, (_, lease)) in rows.iter().zip(&rooms) {
        waiting.push(a.queue_leased_append(append(row), lease).await.unwrap());
    }
    let mut answers = Vec::new();
    for committing in waiting {
        answers.push(committing.wait().await);
    }
    assert!(answers[0].is_ok(), "{answers:?}");
    assert!(
        matches!(answers[1], Err(StoreError::LeaseLost)),
        "{answers:?}"
    );
    assert!(answers[2].is_ok(), "{answers:?}");
    let mut logged: Vec<_> = a
        .running_matches()
        .await
        .unwrap()
        .into_iter()
        .map(|m| (m.id, m.log.len()))
        .collect();
    logged.sort();
    assert_eq!(
        logged,
        vec![("m-x".into(), 1), ("m-y".into(), 0), ("m-z".into(), 1)]
    );
    a.close().await;
    db.drop_database().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_heartbeat_tells_a_room_its_lease_is_gone_and_renews_the_others() {
    let Some(db) = postgres().await else { return };
    let a = node_store(&db, "node-a").await;
    let node_a = a.node().unwrap();
    let mut kept = node_a.take("ROOMX").await.unwrap().unwrap();
    let mut taken = node_a.take("ROOMY").await.unwrap().unwrap();
    sql(
        &db,
        "UPDATE room_leases SET node = 'node-b', epoch = epoch + 1 WHERE room_code = 'ROOMY'",
    )
    .await;
    tokio::time::timeout(Duration::from_secs(5), taken.lost())
        .await
        .expect("the next heartbeat finds the lease gone");
    assert_eq!(node_a.counters().rooms_owned.load(Relaxed), 1);
    // The lease it still holds is renewed, and not reported lost.
    expire_every_lease(&db).await;
    let renewed = async {
        loop {
            use sqlx::{Connection, Row};
            let mut conn = sqlx::PgConnection::connect(&db.url).await.unwrap();
            let live: bool =
                sqlx::query("SELECT expires_at > now() FROM room_leases WHERE room_code = 'ROOMX'")
                    .fetch_one(&mut conn)
                    .await
                    .unwrap()
                    .get(0);
            conn.close().await.unwrap();
            if live {
                return;
            }
            tokio::task::yield_now().await;
        }
    };
    tokio::time::timeout(Duration::from_secs(5), renewed)
        .await
        .expect("renewed by the heartbeat");
    assert!(
        tokio::time::timeout(Duration::from_millis(100), kept.lost())
            .await
            .is_err(),
        "still held"
    );
    a.close().await;
    db.drop_database().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_released_room_is_free_at_once_and_its_epochs_keep_growing() {
    let Some(db) = postgres().await else { return };
    let a = node_store(&db, "node-a").await;
    let b = node_store(&db, "node-b").await;
    let lease = a.node().unwrap().take("ROOMX").await.unwrap().unwrap();
    a.node().unwrap().release(&lease).await.unwrap();
    assert_eq!(lease_row(&db, "ROOMX").await, Some((None, 1)));
    let again = b.node().unwrap().take("ROOMX").await.unwrap().unwrap();
    assert_eq!(again.epoch(), 2);
    // A node that leaves (SIGTERM) gives back every lease it holds, and its row.
    b.close().await;
    assert_eq!(lease_row(&db, "ROOMX").await, Some((None, 2)));
    a.close().await;
    db.drop_database().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeover_waits_for_a_write_checked_against_the_old_epoch_to_commit() {
    use sqlx::{Connection, Row};
    let Some(db) = postgres().await else { return };
    let a = node_store(&db, "node-a").await;
    let b = node_store(&db, "node-b").await;
    let _lease_a = a.node().unwrap().take("ROOMX").await.unwrap().unwrap();
    a.node().unwrap().stop_heartbeat().await;
    expire_every_lease(&db).await;
    // A's writer has checked the lease in a transaction that is still open.
    let mut writer = sqlx::PgConnection::connect(&db.url).await.unwrap();
    let mut checking = writer.begin().await.unwrap();
    sqlx::query("SELECT epoch FROM room_leases WHERE room_code = 'ROOMX' FOR SHARE")
        .fetch_one(&mut *checking)
        .await
        .unwrap();
    let taking = tokio::spawn({
        let b = b.clone();
        async move { b.node().unwrap().take("ROOMX").await }
    });
    // B's takeover waits on the row's lock until that transaction ends.
    let mut watcher = sqlx::PgConnection::connect(&db.url).await.unwrap();
    let waiting = async {
        loop {
            let waiting: i64 = sqlx::query(
                "SELECT count(*) FROM pg_stat_activity \
                 WHERE datname = current_database() AND wait_event_type = 'Lock'",
            )
            .fetch_one(&mut watcher)
            .await
            .unwrap()
            .get(0);
            if waiting == 1 {
                return;
            }
            tokio::task::yield_now().await;
        }
    };
    tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .expect("the takeover waits on the lock");
    assert!(!taking.is_finished());
    checking.commit().await.unwrap();
    let lease_b = taking.await.unwrap().unwrap().expect("then it is B's");
    assert_eq!(lease_b.epoch(), 2);
    watcher.close().await.unwrap();
    writer.close().await.unwrap();
    a.close().await;
    b.close().await;
    db.drop_database().await;
}
