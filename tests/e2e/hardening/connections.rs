//! Open connections: the HTTP timeouts on slow or silent sockets, and the caps on how many
//! are open.

use serde_json::json;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use pandemonium_protocol::ServerMsg;
use pandemonium_server::Config;

use super::sqlite;
use crate::play::two_at_a_table;
use crate::support::net::{get, hear, hello, loopback, say, tcp_from, websocket};
use crate::support::{TestApp, passing_time};

#[tokio::test]
async fn silent_sockets_half_sent_requests_slow_bodies_and_half_upgrades_are_closed() {
    let db = sqlite().await;
    let mut config = Config::for_tests(&db.url);
    config.network.header_read_seconds = 1;
    config.network.request_seconds = 2;
    let app = TestApp::spawn_with(config).await;
    let me = loopback(1);
    let partials = [
        "",
        "GET /api/games HTTP/1.1\r\nHost: loc",
        "POST /api/guests HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\n\r\n{\"name\":",
        "GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n",
    ];
    let mut sockets = Vec::new();
    for partial in partials {
        let mut stream = tcp_from(app.port, me, None).await;
        stream.write_all(partial.as_bytes()).await.unwrap();
        sockets.push((partial, stream));
    }
    // Each socket's deadline starts when the server takes it, which the test does not see:
    // time passes in steps until every socket is closed, and never so far that one could be
    // closed by anything but its deadline.
    for (partial, mut stream) in sockets {
        let mut rest = Vec::new();
        let read = passing_time(
            Duration::from_millis(250),
            12,
            stream.read_to_end(&mut rest),
        );
        assert!(read.await.is_some(), "still open: {partial:?}");
    }
    // A keep-alive connection that goes quiet after its request is closed too.
    let mut stream = tcp_from(app.port, me, None).await;
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .await
        .unwrap();
    let mut rest = Vec::new();
    let read = passing_time(
        Duration::from_millis(250),
        12,
        stream.read_to_end(&mut rest),
    );
    assert!(
        read.await.is_some(),
        "an idle keep-alive connection is still open"
    );
    assert!(String::from_utf8_lossy(&rest).starts_with("HTTP/1.1 200"));
    app.stop().await;
    db.drop_database().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_silent_sockets_stops_neither_healthz_nor_a_match_in_progress() {
    let db = sqlite().await;
    let mut config = Config::for_tests(&db.url);
    config.network.max_connections = 60;
    config.network.max_connections_per_ip = 30;
    config.network.header_read_seconds = 30;
    let app = TestApp::spawn_with(config).await;
    let (mut alice, mut bob, _code) = two_at_a_table(&app, "Alice", "Bob").await;

    // Three attackers, each with more silent sockets than one address may hold; together more
    // than the whole server may.
    let mut silent = Vec::new();
    for attacker in 2..=4 {
        for _ in 0..40 {
            silent.push(tcp_from(app.port, loopback(attacker), None).await);
        }
    }
    // The server let go of every silent socket beyond its caps (two places hold players), as
    // fast as it takes them in.
    let mut closed = vec![false; silent.len()];
    for _ in 0..500 {
        for (socket, closed) in silent.iter_mut().zip(closed.iter_mut()) {
            let mut byte = [0u8; 1];
            if !*closed
                && let Ok(Ok(0) | Err(_)) =
                    tokio::time::timeout(Duration::from_millis(1), socket.read(&mut byte)).await
            {
                *closed = true;
            }
        }
        if closed.iter().filter(|c| **c).count() >= 120 - 58 {
            break;
        }
    }
    let closed = closed.iter().filter(|c| **c).count();
    assert!(
        closed >= 120 - 58,
        "only {closed} of 120 silent sockets were let go"
    );
    for _ in 0..5 {
        let health = get(app.port, loopback(1), "/healthz", "").await;
        assert_eq!(health.status, 200);
    }
    // The match in progress is untouched, and a new player can still come in.
    assert_eq!(alice.act(json!({"type": "stand"})).await, Ok(1));
    assert_eq!(bob.act(json!({"type": "stand"})).await, Ok(2));
    let mut carol = websocket(app.port, loopback(5), &[], None).await.unwrap();
    say(&mut carol, &hello("Carol")).await;
    assert!(matches!(
        hear(&mut carol).await,
        Ok(ServerMsg::Welcome { .. })
    ));
    drop(silent);
    app.stop().await;
    db.drop_database().await;
}
