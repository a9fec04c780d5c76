//! Split brain, with real processes: the owner of a room is paused (SIGSTOP) past its lease,
//! another node resumes the match and play goes on there; once the old owner runs again
//! (SIGCONT) it writes nothing more and sends its sockets off to reconnect, and the match has
//! one history.

use serde_json::json;

use pandemonium_protocol::{JoinRole, ServerMsg};
use pandemonium_server::store::Store;

use super::{expire_every_lease, lease_row, postgres};
use crate::play::{open_room, sit, start};
use crate::restart::{Process, launch_with};
use crate::support::{Client, TestApp};

async fn cluster_node(db: &crate::support::TestDb, name: &str) -> Process {
    launch_with(
        db,
        &["--cluster", "--node-name", name, "--lease-renew-ms", "100"],
    )
    .await
}

async fn signal(process: &Process, signal: &str) {
    let pid = process.child.id().expect("running").to_string();
    let status = tokio::process::Command::new("kill")
        .args([signal, &pid])
        .status()
        .await
        .expect("kill runs");
    assert!(status.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_owner_writes_nothing_after_another_node_took_its_room_over() {
    let Some(db) = postgres().await else { return };
    let mut a = cluster_node(&db, "node-a").await;
    let mut alice = Client::guest(a.port, "Alice").await;
    let mut bob = Client::guest(a.port, "Bob").await;
    let app_a = TestApp::attach(a.port);
    let code = open_room(&app_a, &mut alice, "twenty_one", 2, vec![], json!({})).await;
    sit(&mut bob, &code, 1).await;
    start(&mut alice).await;
    assert_eq!(alice.act(json!({"type": "draw"})).await, Ok(1));

    // A stops dead past its lease; B starts and resumes the match from the log.
    signal(&a, "-STOP").await;
    // A renewal A sent just before it stopped is still answered by the database: let it land
    // before the lease is expired.
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    expire_every_lease(&db).await;
    let mut b = cluster_node(&db, "node-b").await;
    assert_eq!(
        lease_row(&db, &code.0).await,
        Some((Some("node-b".into()), 2))
    );
    let mut players = Vec::new();
    for old in [&alice, &bob] {
        let mut again = Client::with_token(b.port, &old.token).await;
        again.join(&code, JoinRole::Player).await;
        again.state_at_least(1).await;
        players.push(again);
    }
    let to_act = players[0].state.clone().unwrap().to_act;
    let seat = to_act[0] as usize;
    assert_eq!(
        players[seat].act(json!({"type": "stand"})).await,
        Ok(2),
        "play goes on at B"
    );

    // A runs again. Whatever it still holds is refused by the epoch: Alice's act there is
    // never acked, and both of its sockets are told the room moved.
    signal(&a, "-CONT").await;
    alice.seq_act_without_answer(json!({"type": "stand"})).await;
    for old in [&mut alice, &mut bob] {
        let closed = loop {
            match old.try_next().await {
                Ok(ServerMsg::Ack { seq, .. }) => panic!("A acked act {seq} after losing the room"),
                Ok(_) => continue,
                Err(closed) => break closed,
            }
        };
        assert_eq!(closed.code, 1012);
        assert_eq!(closed.reason, "the room moved to another server; reconnect");
    }

    let store = Store::connect(&db.url).await.unwrap();
    let running = store.running_matches().await.unwrap();
    assert_eq!(running.len(), 1);
    let log: Vec<_> = running[0].log.iter().map(|a| a.action.clone()).collect();
    assert_eq!(
        log,
        vec![json!({"type": "draw"}), json!({"type": "stand"})],
        "one history: A's draw, then B's stand"
    );
    store.close().await;
    a.child.kill().await.unwrap();
    b.child.kill().await.unwrap();
    db.drop_database().await;
}
