//! A server process killed mid-match (SIGKILL, no chance to clean up) is restarted, and the
//! match is finished with no accepted action lost.

use futures_util::StreamExt;
use serde_json::json;
use std::process::Stdio;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio_tungstenite::tungstenite::Message;

use pandemonium_protocol::{MatchRecord, Presence};

use crate::on_both_stores;
use crate::play::{open_room, sit, start};
use crate::support::{Client, Http, TestDb};

pub struct Process {
    pub child: Child,
    pub port: u16,
}

pub async fn launch(db: &TestDb) -> Process {
    launch_with(db, &[]).await
}

/// The test server on `db`, with `extra` command-line flags.
pub async fn launch_with(db: &TestDb, extra: &[&str]) -> Process {
    launch_at(&db.url, "127.0.0.1:0", extra).await
}

fn node_log() -> Option<String> {
    std::env::var("PANDEMONIUM_TEST_NODE_LOG").ok()
}

/// The test server on the database at `url`, listening on `bind`, with `extra` flags.
pub async fn launch_at(url: &str, bind: &str, extra: &[&str]) -> Process {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pandemonium-test-server"))
        .args(["--bind", bind, "--database-url", url])
        .args([
            "--static-dir",
            "/nonexistent",
            "--bot-delay-ms",
            "5",
            "--rate-burst",
            "1000",
            "--rate-per-second",
            "1000",
        ])
        .args(extra)
        // `PANDEMONIUM_TEST_NODE_LOG=debug` (a filter) shows what the servers log, each line
        // after its port: for a test that fails in a way its own messages do not explain.
        .env("RUST_LOG", node_log().unwrap_or("warn".into()))
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the test server binary starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut lines = BufReader::new(stdout).lines();
    let port = loop {
        let line = tokio::time::timeout(std::time::Duration::from_secs(30), lines.next_line())
            .await
            .expect("the server starts in time")
            .expect("readable stdout")
            .expect("the server prints its port");
        if let Some(port) = line.strip_prefix("listening on port ") {
            break port.trim().parse().expect("a port");
        }
    };
    // Keep reading what the server logs, so it never writes into a closed pipe.
    let show = node_log().is_some();
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            if show {
                eprintln!("[{port}] {line}");
            }
        }
    });
    Process { child, port }
}

async fn a_killed_server_resumes_its_matches_with_no_accepted_action_lost(db: &TestDb) {
    let first = launch(db).await;
    let app_port = first.port;
    let mut alice = Client::guest(app_port, "Alice").await;
    let mut bob = Client::guest(app_port, "Bob").await;
    // Reuse the room helpers through a thin wrapper around the port.
    let app = crate::support::TestApp::attach(app_port);
    let code = open_room(&app, &mut alice, "twenty_one", 2, vec![], json!({})).await;
    sit(&mut bob, &code, 1).await;
    start(&mut alice).await;
    let acked = alice.act(json!({"type": "draw"})).await.expect("accepted");
    assert_eq!(acked, 1);
    let match_id = alice.room.clone().unwrap().match_id.unwrap();

    // SIGKILL: no graceful shutdown, no flush.
    let mut first = first;
    first.child.kill().await.expect("kill -9");

    let second = launch(db).await;
    let mut alice = Client::with_token(second.port, &alice.token).await;
    let mut bob = Client::with_token(second.port, &bob.token).await;
    alice.rejoin(&code, acked).await;
    let room = alice.room_where(|r| r.you == Some(0)).await;
    assert_eq!(
        room.match_id.as_deref(),
        Some(match_id.as_str()),
        "the same match resumes"
    );
    let state = alice.state_at_least(acked).await;
    assert_eq!(state.version, acked, "every acknowledged action survived");
    bob.rejoin(&code, acked).await;
    bob.room_where(|r| r.you == Some(1) && r.seats[1].presence == Presence::Online)
        .await;
    bob.state_at_least(acked).await;

    // Finish the match on the new process.
    assert_eq!(state.to_act, vec![1], "after Alice's draw it is Bob's turn");
    assert_eq!(bob.act(json!({"type": "stand"})).await, Ok(2));
    alice.state_at_least(2).await;
    assert_eq!(alice.act(json!({"type": "stand"})).await, Ok(3));
    let over = alice.state_at_least(3).await;
    assert!(over.outcome.is_some());

    let record: MatchRecord = Http::new(second.port)
        .get(&format!("/api/matches/{match_id}"))
        .await
        .json();
    assert!(record.finished);
    let kinds: Vec<String> = record
        .log
        .iter()
        .map(|l| l.action["type"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds, ["draw", "stand", "stand"]);
    drop(second);
}
on_both_stores!(a_killed_server_resumes_its_matches_with_no_accepted_action_lost);

async fn sigterm_closes_every_socket_with_a_reason_and_the_process_exits_cleanly(db: &TestDb) {
    let mut server = launch(db).await;
    let mut alice = Client::guest(server.port, "Alice").await;
    let app = crate::support::TestApp::attach(server.port);
    open_room(&app, &mut alice, "twenty_one", 2, vec![], json!({})).await;
    // Sockets that have not said hello yet are told too: every one of them, however many
    // (the process must not exit before each has sent its close).
    let mut silent = Vec::new();
    for _ in 0..40 {
        silent.push(Client::connect_raw(server.port).await);
    }
    let pid = server.child.id().expect("running").to_string();
    let status = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    assert!(status.success());
    let closed = alice.closed().await;
    assert_eq!(
        closed.code, 1012,
        "the client is told the server is restarting"
    );
    for (n, silent) in silent.iter_mut().enumerate() {
        let said = loop {
            let frame = tokio::time::timeout(std::time::Duration::from_secs(10), silent.next())
                .await
                .expect("a close in time");
            match frame {
                Some(Ok(Message::Close(frame))) => break frame.map(|f| u16::from(f.code)),
                Some(Ok(_)) => continue,
                other => panic!("silent socket {n}: no close frame: {other:?}"),
            }
        };
        assert_eq!(said, Some(1012), "silent socket {n} is told as well");
    }
    let exit = tokio::time::timeout(std::time::Duration::from_secs(10), server.child.wait())
        .await
        .expect("the process stops in time")
        .expect("an exit status");
    assert!(exit.success(), "a graceful stop exits 0: {exit:?}");
}
on_both_stores!(sigterm_closes_every_socket_with_a_reason_and_the_process_exits_cleanly);

/// A match that was running but cannot be rebuilt from its log (here its log holds an action
/// the game refuses) is marked abandoned as the server starts, its log kept whole: it no longer
/// counts as running, where on SQLite it would have held back the deletion of every row
/// appended after it, and its log can still be read.
async fn a_running_match_that_cannot_be_rebuilt_is_abandoned_with_its_log_kept(db: &TestDb) {
    use pandemonium_protocol::ActionSource;
    use pandemonium_server::store::{Append, MatchStatus, Store};
    let store = Store::connect(&db.url).await.unwrap();
    let alice = [("Alice", false)];
    store
        .start_match(&crate::support::stored_match(
            "m-broken",
            "ACDEFGHJKM",
            "twenty_one",
            &alice,
        ))
        .await
        .unwrap();
    let refused = json!({"type": "no_such_move"}).to_string();
    store
        .append(Append {
            match_id: "m-broken",
            index: 0,
            seat: 0,
            action: &refused,
            source: ActionSource::Player,
            seq: Some(1),
            finish: None,
        })
        .await
        .unwrap();
    store.close().await;

    let app = crate::support::TestApp::spawn(db).await;
    let store = Store::connect(&db.url).await.unwrap();
    let kept = store.get_match("m-broken").await.unwrap().unwrap();
    assert_eq!(kept.status, MatchStatus::Abandoned);
    assert_eq!(kept.log.len(), 1, "its log is kept");
    assert!(store.running_matches().await.unwrap().is_empty());
    store.close().await;
    app.stop().await;
}
on_both_stores!(a_running_match_that_cannot_be_rebuilt_is_abandoned_with_its_log_kept);
