//! What the server logs, read from the JSON logs of a real server process.

use serde_json::json;
use std::time::{Duration, Instant};
use tokio::io::AsyncBufReadExt;

use pandemonium_protocol::{ClientMsg, ErrorCode, JoinRole};

use super::sqlite;
use crate::play::open_room;
use crate::support::{TestApp, TestDb};

/// The lines a test server process logs.
pub(super) type LogLines = tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStdout>>;

/// A test server process writing JSON logs (debug and up) to a pipe, on `db`.
pub(super) async fn logging_server(
    db: &TestDb,
    extra: &[&str],
) -> (tokio::process::Child, LogLines, u16) {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_pandemonium-test-server"))
        .args(["--bind", "127.0.0.1:0", "--database-url", &db.url])
        .args(["--static-dir", "/nonexistent", "--log-format", "json"])
        .args(extra)
        .env("RUST_LOG", "pandemonium_server=debug")
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the test server starts");
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let port: u16 = loop {
        let line = lines.next_line().await.unwrap().expect("a port line");
        if let Some(port) = line.strip_prefix("listening on port ") {
            break port.trim().parse().unwrap();
        }
    };
    (child, lines, port)
}

/// Every log line of a connection names it (its id, address and, once greeted, the guest), and
/// a room's lines name the room; both name the node (the server) they come from.
#[tokio::test]
async fn log_lines_carry_the_span_of_their_connection_and_of_their_room() {
    let db = sqlite().await;
    let (mut child, mut lines, port) = logging_server(
        &db,
        &["--max-spectators-per-room", "1", "--node-name", "node-7"],
    )
    .await;
    let app = TestApp::attach(port);
    let mut alice = app.guest("Alice").await;
    let code = open_room(&app, &mut alice, "twenty_one", 2, vec![], json!({})).await;
    let mut bob = app.guest("Bob").await;
    bob.join(&code, JoinRole::Spectator).await;
    let mut carol = app.guest("Carol").await;
    carol
        .send(&ClientMsg::Join {
            room: code.clone(),
            role: JoinRole::Spectator,
            version: None,
        })
        .await;
    assert_eq!(carol.error_code().await, ErrorCode::RoomFull);
    let carol_id = carol.player_id.clone();
    carol.close().await;

    let (mut refusal_in_room, mut close_of_carol) = (false, false);
    let deadline = Instant::now() + Duration::from_secs(20);
    while !(refusal_in_room && close_of_carol) && Instant::now() < deadline {
        let Ok(Ok(Some(line))) =
            tokio::time::timeout(Duration::from_secs(5), lines.next_line()).await
        else {
            break;
        };
        let Ok(entry) = serde_json::from_str::<serde_json::Value>(&line) else {
            continue;
        };
        let message = entry["fields"]["message"].as_str().unwrap_or_default();
        let spans = entry["spans"].as_array().cloned().unwrap_or_default();
        let span = |name: &str| spans.iter().find(|s| s["name"] == name).cloned();
        if message.starts_with("join refused") {
            let room = span("room").expect("a room's line is in the room's span");
            assert_eq!(room["room"], code.as_str());
            assert_eq!(span("node").expect("and the node's")["node"], "node-7");
            refusal_in_room = true;
        }
        if message == "connection closed"
            && let Some(conn) = span("conn")
            && conn["guest"] == carol_id.as_str()
        {
            assert_eq!(conn["peer"], "127.0.0.1");
            assert!(conn["conn"].is_u64(), "{conn}");
            assert_eq!(span("node").expect("and the node's")["node"], "node-7");
            close_of_carol = true;
        }
    }
    assert!(refusal_in_room, "the room logged the refusal in its span");
    assert!(
        close_of_carol,
        "Carol's connection logged its close in its span"
    );
    let _ = child.kill().await;
    db.drop_database().await;
}
