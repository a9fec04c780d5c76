//! Which node resumes which running match as it starts: only those whose room lease it can
//! take (expired, released, or its own); the others belong to live nodes.

use pandemonium_protocol::RoomCode;
use pandemonium_server::{Application, Config};

use super::{expire_every_lease, lease_row, node_store, postgres};
use crate::support::{TestDb, stored_match};

const ROOM: &str = "ACDEFGHJKM";

async fn node_app(db: &TestDb, name: &str) -> Application {
    let mut config = Config::for_tests(&db.url);
    config.cluster.enabled = true;
    config.node_name = Some(name.into());
    Application::build_with_games(config, pandemonium_e2e::games())
        .await
        .expect("the node starts")
}

fn has_room(app: &Application) -> bool {
    app.state().lobby.room(&RoomCode(ROOM.into())).is_some()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_starting_node_resumes_only_the_matches_whose_lease_it_can_take() {
    let Some(db) = postgres().await else { return };
    // Node A plays a match in the room, and is alive (its heartbeat renews the lease).
    let a = node_store(&db, "node-a").await;
    let _lease = a.node().unwrap().take(ROOM).await.unwrap().unwrap();
    a.start_match(&stored_match(
        "m-1",
        ROOM,
        "twenty_one",
        &[("Alice", false)],
    ))
    .await
    .unwrap();

    let b = node_app(&db, "node-b").await;
    assert!(!has_room(&b), "the match is A's: B leaves it alone");
    assert_eq!(lease_row(&db, ROOM).await, Some((Some("node-a".into()), 1)));

    // A stops (its lease runs out): the next node to start resumes the match.
    a.node().unwrap().stop_heartbeat().await;
    expire_every_lease(&db).await;
    let c = node_app(&db, "node-c").await;
    assert!(has_room(&c), "C resumed the match");
    assert_eq!(lease_row(&db, ROOM).await, Some((Some("node-c".into()), 2)));
    assert_eq!(
        c.state()
            .metrics
            .cluster
            .leases_taken_over
            .load(std::sync::atomic::Ordering::Relaxed),
        1
    );

    b.state().store.close().await;
    c.state().store.close().await;
    a.close().await;
    db.drop_database().await;
}
