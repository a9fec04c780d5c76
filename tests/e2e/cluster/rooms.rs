//! Rooms on a cluster node, over real sockets: a room holds its lease while it plays, gives it
//! back when the node stops, and sends its people to reconnect once another node has it.

use serde_json::json;

use pandemonium_server::Config;
use pandemonium_server::store::Store;

use super::{lease_row, postgres, sql};
use crate::play::two_at_a_table;
use crate::support::{TestApp, TestDb};

async fn node(db: &TestDb, name: &str) -> TestApp {
    let mut config = Config::for_tests(&db.url);
    config.cluster.enabled = true;
    config.node_name = Some(name.into());
    // Heartbeats ten times a second: a lease found gone is told within 100 ms.
    config.cluster.lease_renew_ms = 100;
    TestApp::spawn_with(config).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_whose_lease_another_node_took_sends_everyone_to_reconnect_and_writes_nothing_more()
{
    let Some(db) = postgres().await else { return };
    let app = node(&db, "node-a").await;
    let (mut alice, mut bob, code) = two_at_a_table(&app, "Alice", "Bob").await;
    assert_eq!(alice.act(json!({"type": "draw"})).await, Ok(1));
    assert_eq!(
        lease_row(&db, &code.0).await,
        Some((Some("node-a".into()), 1)),
        "the room's lease is its node's"
    );

    // Another node takes the room over (as it would once A's lease had expired).
    sql(
        &db,
        &format!(
            "UPDATE room_leases SET node = 'node-b', epoch = epoch + 1 \
             WHERE room_code = '{}'",
            code.0
        ),
    )
    .await;
    // Alice's next act is refused by the epoch, or the heartbeat finds the lease gone first:
    // either way nothing is acked, and both are told to reconnect.
    alice.seq_act_without_answer(json!({"type": "stand"})).await;
    for client in [&mut alice, &mut bob] {
        let closed = client.closed().await;
        assert_eq!(closed.code, 1012);
        assert_eq!(closed.reason, "the room moved to another server; reconnect");
    }

    let store = Store::connect(&db.url).await.unwrap();
    let running = store.running_matches().await.unwrap();
    assert_eq!(
        running.len(),
        1,
        "still running: the new owner's, not abandoned"
    );
    assert_eq!(running[0].log.len(), 1, "only the acked draw");
    store.close().await;
    let metrics = app.http.get("/metrics").await.body;
    assert!(
        metrics.contains("\npandemonium_rooms_owned 0\n"),
        "{metrics}"
    );
    app.stop().await;
    db.drop_database().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopping_node_gives_its_rooms_leases_back() {
    let Some(db) = postgres().await else { return };
    let app = node(&db, "node-a").await;
    let (_alice, _bob, code) = two_at_a_table(&app, "Alice", "Bob").await;
    let metrics = app.http.get("/metrics").await.body;
    assert!(
        metrics.contains("\npandemonium_rooms_owned 1\n"),
        "{metrics}"
    );
    app.stop().await;
    assert_eq!(
        lease_row(&db, &code.0).await,
        Some((None, 1)),
        "free for any node at once"
    );
    db.drop_database().await;
}

/// A new room takes its lease before its code is handed out: the creator is never given a
/// code whose room could not hold its lease (and so closed at once, or would write nothing).
/// When the lease cannot be taken the creator is told the server is unavailable.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_room_holds_its_lease_before_its_code_is_handed_out() {
    let Some(db) = postgres().await else { return };
    let app = node(&db, "node-a").await;
    let request = json!({"game": "twenty_one", "seats": 2, "bots": [1]});
    let created = app.http.post("/api/rooms", &request, None).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let code = created.json::<serde_json::Value>()["code"]
        .as_str()
        .expect("a code")
        .to_owned();
    assert_eq!(
        lease_row(&db, &code).await,
        Some((Some("node-a".into()), 1)),
        "the lease is the node's as the code is handed out"
    );

    // The leases cannot be taken (as when the database refuses): no room, no code.
    sql(&db, "ALTER TABLE room_leases RENAME TO room_leases_away").await;
    let refused = app.http.post("/api/rooms", &request, None).await;
    sql(&db, "ALTER TABLE room_leases_away RENAME TO room_leases").await;
    assert_eq!(refused.status, 503, "{}", refused.body);
    assert!(refused.body.contains("unavailable"), "{}", refused.body);
    app.stop().await;
    db.drop_database().await;
}
