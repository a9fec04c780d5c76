//! Whose address a connection counts as: a trusted proxy's forwarded header or PROXY protocol
//! header names its client, anyone else counts as itself, loopback included, and only
//! `--unlimited-address` lifts the per-address limits.
//!
//! The proxy is played by the test from 127.0.0.1 (`--trusted-proxy 127.0.0.1`); untrusted
//! peers connect from other loopback addresses.

use std::net::IpAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::client_async;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use pandemonium_protocol::{ErrorCode, ServerMsg};
use pandemonium_server::Config;

use super::logs::logging_server;
use super::sqlite;
use crate::support::net::{
    Socket, api_code, get, hear, hello, http, loopback, post, say, tcp_from, websocket,
};
use crate::support::{TestApp, passing_time};

const PROXY: u8 = 1; // 127.0.0.1

fn guest_request(extra: &str) -> String {
    let body = r#"{"name":"Px"}"#;
    format!(
        "POST /api/guests HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{extra}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// A PROXY protocol v1 line naming `client`.
fn v1(client: &str) -> Vec<u8> {
    format!("PROXY TCP4 {client} 127.0.0.1 40000 8080\r\n").into_bytes()
}

/// A PROXY protocol v2 header naming the IPv4 `client`.
fn v2(client: [u8; 4]) -> Vec<u8> {
    let mut bytes = b"\r\n\r\n\0\r\nQUIT\n".to_vec();
    bytes.extend_from_slice(&[0x21, 0x11, 0, 12]);
    bytes.extend_from_slice(&client);
    bytes.extend_from_slice(&[127, 0, 0, 1]);
    bytes.extend_from_slice(&40000u16.to_be_bytes());
    bytes.extend_from_slice(&8080u16.to_be_bytes());
    bytes
}

/// Sends `bytes` from `from` and reads to the end: the response's status, or `None` when the
/// server closed the connection without a response.
async fn exchange(port: u16, from: IpAddr, bytes: &[u8]) -> Option<u16> {
    let mut stream = tcp_from(port, from, None).await;
    stream.write_all(bytes).await.ok()?;
    let mut raw = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut raw))
        .await
        .expect("the server answers or closes in time");
    // A reset (the server closed with our bytes unread) is a refusal too.
    if read.is_err() || raw.is_empty() {
        return None;
    }
    let head = String::from_utf8_lossy(&raw);
    head.lines()
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
}

/// A WebSocket from the proxy's address, its connection opened by `header`; `None` when the
/// server closes it instead.
async fn proxied_websocket(port: u16, header: &[u8]) -> Option<Socket> {
    let mut stream = tcp_from(port, loopback(PROXY), None).await;
    stream.write_all(header).await.ok()?;
    let request = format!("ws://127.0.0.1:{port}/ws")
        .into_client_request()
        .unwrap();
    let upgrade = tokio::time::timeout(Duration::from_secs(10), client_async(request, stream))
        .await
        .expect("the upgrade answers in time");
    upgrade.ok().map(|(socket, _)| socket)
}

fn behind_a_proxy(config: &mut Config) {
    config.network.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
}

/// Two visitors behind one proxy each have their own quota, by the last address of the
/// header (what the proxy appended; what came before is the visitor's own claim).
#[tokio::test]
async fn a_forwarded_header_from_a_trusted_proxy_counts_each_client_apart() {
    let db = sqlite().await;
    let mut config = Config::for_tests(&db.url);
    behind_a_proxy(&mut config);
    config.network.client_ip_header = Some("X-Forwarded-For".into());
    config.quotas.guests_per_minute = 2;
    let app = TestApp::spawn_with(config).await;
    let from = |client: &str| guest_request(&format!("X-Forwarded-For: {client}\r\n"));
    let mut statuses = Vec::new();
    for _ in 0..3 {
        let request = from("198.51.100.1");
        statuses.push(http(app.port, loopback(PROXY), &request).await.status);
    }
    assert_eq!(statuses, [201, 201, 429], "the first visitor's quota");
    let second = from("198.51.100.1, 198.51.100.2");
    assert_eq!(
        http(app.port, loopback(PROXY), &second).await.status,
        201,
        "the second visitor has a quota of their own, by the proxy's address for them"
    );
    let bare = http(app.port, loopback(PROXY), &guest_request("")).await;
    assert_eq!(bare.status, 201, "the proxy itself, without a header");
    app.stop().await;
    db.drop_database().await;
}

/// A visitor who reaches the server directly cannot pick an address with the header: it
/// counts as its own connection's, and the log says once that a forwarded header was ignored
/// (with how many), not once per request.
#[tokio::test]
async fn a_forwarded_header_from_an_untrusted_peer_is_ignored_and_warned_once() {
    let db = sqlite().await;
    let flags = [
        "--trusted-proxy",
        "127.0.0.1",
        "--client-ip-header",
        "X-Forwarded-For",
        "--guests-per-minute",
        "2",
    ];
    let (mut child, mut lines, port) = logging_server(&db, &flags).await;
    let stranger = loopback(5);
    let mut statuses = Vec::new();
    for n in 1..=3 {
        let request = guest_request(&format!("X-Forwarded-For: 198.51.100.{n}\r\n"));
        statuses.push(http(port, stranger, &request).await.status);
    }
    assert_eq!(
        statuses,
        [201, 201, 429],
        "every request counts as the stranger's own address"
    );
    // A line the server logs after those: a WebSocket refused for its origin (debug).
    let refused = websocket(port, stranger, &[("Origin", "https://evil.example")], None).await;
    assert_eq!(refused.err(), Some(403));
    let mut warnings = Vec::new();
    loop {
        let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
            .await
            .expect("the server logs the refusal")
            .unwrap()
            .expect("the server is running");
        let Ok(entry) = serde_json::from_str::<serde_json::Value>(&line) else {
            continue;
        };
        let message = entry["fields"]["message"].as_str().unwrap_or_default();
        if message.contains("not a trusted proxy") {
            warnings.push(entry["fields"].clone());
        }
        if message.starts_with("WebSocket refused") {
            break;
        }
    }
    assert_eq!(
        warnings.len(),
        1,
        "one warning, not one per request: {warnings:?}"
    );
    assert_eq!(warnings[0]["header"], "x-forwarded-for");
    assert_eq!(warnings[0]["peer"], "127.0.0.5");
    let _ = child.kill().await;
    db.drop_database().await;
}

/// Under `--proxy-protocol`, the address a trusted proxy's header carries (v1 or v2) is the
/// client's for the per-address connection cap and for every quota, over HTTP and WebSocket
/// alike; the proxy's own address is not what is counted.
#[tokio::test]
async fn proxy_protocol_from_a_trusted_proxy_counts_the_carried_address() {
    let db = sqlite().await;
    let mut config = Config::for_tests(&db.url);
    behind_a_proxy(&mut config);
    config.network.proxy_protocol = true;
    config.network.max_connections_per_ip = 2;
    config.quotas.guests_per_minute = 2;
    let app = TestApp::spawn_with(config).await;
    let port = app.port;

    // The connection cap: two sockets for one client, by v1 and by v2; a third is closed.
    let held = [
        proxied_websocket(port, &v1("198.51.100.1")).await,
        proxied_websocket(port, &v2([198, 51, 100, 1])).await,
    ];
    assert!(
        held.iter().all(Option::is_some),
        "two connections are let in"
    );
    assert!(
        proxied_websocket(port, &v1("198.51.100.1")).await.is_none(),
        "the carried client is at its cap"
    );
    let healthz = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    let another = [v2([198, 51, 100, 2]), healthz.to_vec()].concat();
    assert_eq!(
        exchange(port, loopback(PROXY), &another).await,
        Some(200),
        "another client behind the same proxy is not"
    );

    // A quota: two guests per minute for the carried address, by HTTP then by a hello.
    let guest = guest_request("").into_bytes();
    for header in [v1("198.51.100.3"), v2([198, 51, 100, 3])] {
        let request = [header, guest.clone()].concat();
        assert_eq!(exchange(port, loopback(PROXY), &request).await, Some(201));
    }
    let mut socket = proxied_websocket(port, &v2([198, 51, 100, 3]))
        .await
        .expect("a socket");
    say(&mut socket, &hello("Px")).await;
    assert!(
        matches!(hear(&mut socket).await, Ok(ServerMsg::Error { code, .. }) if code == ErrorCode::RateLimited),
        "the third guest of that client is refused over the WebSocket too"
    );
    let mut socket = proxied_websocket(port, &v1("198.51.100.4"))
        .await
        .expect("a socket");
    say(&mut socket, &hello("Px")).await;
    assert!(
        matches!(hear(&mut socket).await, Ok(ServerMsg::Welcome { .. })),
        "a client of its own is welcome"
    );

    // A trusted proxy's connection without a header, or with a broken one, is closed.
    assert_eq!(exchange(port, loopback(PROXY), healthz).await, None);
    let broken = [b"PROXY TCP4 198.51.100.9\r\n".to_vec(), healthz.to_vec()].concat();
    assert_eq!(exchange(port, loopback(PROXY), &broken).await, None);
    drop(held);
    app.stop().await;
    db.drop_database().await;
}

/// A trusted proxy's connection holds no place until its header is in, and has the
/// header-read deadline to send it: silent, or stopping half-way, it is closed.
#[tokio::test]
async fn a_proxy_header_that_never_comes_whole_is_closed_at_the_header_deadline() {
    let db = sqlite().await;
    let mut config = Config::for_tests(&db.url);
    behind_a_proxy(&mut config);
    config.network.proxy_protocol = true;
    config.network.header_read_seconds = 1;
    let app = TestApp::spawn_with(config).await;
    let partials = [
        Vec::new(),
        b"PROXY TCP4 198.51.100.1".to_vec(),
        v2([198, 51, 100, 1])[..20].to_vec(),
    ];
    let mut sockets = Vec::new();
    for partial in partials {
        let mut stream = tcp_from(app.port, loopback(PROXY), None).await;
        stream.write_all(&partial).await.unwrap();
        sockets.push((partial, stream));
    }
    // The deadline starts when the server takes the socket, which the test does not see: time
    // passes in steps, never so far that anything but that deadline could close it.
    for (partial, mut stream) in sockets {
        let mut rest = Vec::new();
        let read = passing_time(
            Duration::from_millis(250),
            12,
            stream.read_to_end(&mut rest),
        );
        assert!(read.await.is_some(), "still open: {partial:?}");
        assert!(rest.is_empty(), "closed without an answer");
    }
    app.stop().await;
    db.drop_database().await;
}

/// A PROXY header from a peer that is not a trusted proxy is not believed: it is not HTTP, so
/// the request is refused as malformed and nothing it claimed is counted; without one, the
/// same peer is served as itself.
#[tokio::test]
async fn a_proxy_header_from_an_untrusted_peer_is_not_believed() {
    let db = sqlite().await;
    let mut config = Config::for_tests(&db.url);
    behind_a_proxy(&mut config);
    config.network.proxy_protocol = true;
    config.quotas.guests_per_minute = 1;
    let app = TestApp::spawn_with(config).await;
    let stranger = loopback(6);
    let guest = guest_request("").into_bytes();
    for header in [v1("198.51.100.1"), v2([198, 51, 100, 1])] {
        let request = [header, guest.clone()].concat();
        assert_eq!(
            exchange(app.port, stranger, &request).await,
            Some(400),
            "a PROXY header is no HTTP request"
        );
    }
    let served = post(app.port, stranger, "/api/guests", r#"{"name":"S"}"#, None).await;
    assert_eq!(served.status, 201, "served as itself");
    let again = post(app.port, stranger, "/api/guests", r#"{"name":"S"}"#, None).await;
    assert_eq!(
        api_code(&again),
        ErrorCode::RateLimited,
        "and counted as itself"
    );
    app.stop().await;
    db.drop_database().await;
}

/// Loopback is an address like any other: its connections and quotas are limited unless
/// `--unlimited-address` names it (a load test on this machine), and naming one address
/// leaves the rest of loopback limited.
#[tokio::test]
async fn loopback_is_limited_by_default_and_an_unlimited_address_is_not() {
    let db = sqlite().await;
    let mut config = Config::for_tests(&db.url);
    config.quotas.guests_per_minute = 2;
    config.network.max_connections_per_ip = 2;
    let app = TestApp::spawn_with(config.clone()).await;
    let mut statuses = Vec::new();
    for _ in 0..3 {
        let made = post(
            app.port,
            loopback(1),
            "/api/guests",
            r#"{"name":"Lo"}"#,
            None,
        )
        .await;
        statuses.push(made.status);
    }
    assert_eq!(
        statuses,
        [201, 201, 429],
        "guests from 127.0.0.1 are limited"
    );
    let open = [
        websocket(app.port, loopback(1), &[], None).await.unwrap(),
        websocket(app.port, loopback(1), &[], None).await.unwrap(),
    ];
    let healthz = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    assert_eq!(
        exchange(app.port, loopback(1), healthz).await,
        None,
        "a third connection from 127.0.0.1 is closed"
    );
    drop(open);
    app.stop().await;

    config.network.unlimited_addresses = vec!["127.0.0.1".parse().unwrap()];
    let app = TestApp::spawn_with(config).await;
    for _ in 0..5 {
        let made = post(
            app.port,
            loopback(1),
            "/api/guests",
            r#"{"name":"Lo"}"#,
            None,
        )
        .await;
        assert_eq!(made.status, 201);
    }
    let mut open = Vec::new();
    for _ in 0..4 {
        open.push(websocket(app.port, loopback(1), &[], None).await.unwrap());
    }
    let health = get(app.port, loopback(1), "/healthz", "").await;
    assert_eq!(
        health.status, 200,
        "an unlimited address has no connection cap"
    );
    let mut statuses = Vec::new();
    for _ in 0..3 {
        let made = post(
            app.port,
            loopback(2),
            "/api/guests",
            r#"{"name":"Lo"}"#,
            None,
        )
        .await;
        statuses.push(made.status);
    }
    assert_eq!(statuses, [201, 201, 429], "127.0.0.2 is still limited");
    drop(open);
    app.stop().await;
    db.drop_database().await;
}

/// Proxy settings that only work together are refused alone, naming what is missing; a list
/// of proxies is parsed from one comma-separated value, and the old `--limit-loopback` still
/// starts (it is what every address gets now).
#[tokio::test]
async fn proxy_settings_that_cannot_work_alone_are_refused_naming_the_missing_flag() {
    let db = sqlite().await;
    type Breaker = fn(&mut Config);
    let cases: [(&str, &str, Breaker); 3] = [
        ("--client-ip-header", "--trusted-proxy", |c| {
            c.network.client_ip_header = Some("X-Forwarded-For".into())
        }),
        ("--proxy-protocol", "--trusted-proxy", |c| {
            c.network.proxy_protocol = true
        }),
        (
            "--trusted-proxy",
            "--client-ip-header or --proxy-protocol",
            |c| c.network.trusted_proxies = vec!["10.0.0.0/8".parse().unwrap()],
        ),
    ];
    for (flag, missing, break_it) in cases {
        let mut config = Config::for_tests(&db.url);
        break_it(&mut config);
        let error = config.validate().expect_err(flag).to_string();
        assert!(
            error.starts_with(flag) && error.contains(missing),
            "{error}"
        );
    }
    use clap::Parser;
    let parsed = Config::try_parse_from([
        "pandemonium",
        "--trusted-proxy",
        "127.0.0.1,10.0.0.0/8",
        "--trusted-proxy",
        "fd00::/8",
        "--proxy-protocol",
        "--limit-loopback",
    ])
    .expect("valid settings");
    assert_eq!(parsed.network.trusted_proxies.len(), 3);
    assert!(parsed.validate().is_ok());
    let bad = Config::try_parse_from(["pandemonium", "--unlimited-address", "127.0.0.1/40"]);
    assert!(bad.unwrap_err().to_string().contains("127.0.0.1/40"));
    db.drop_database().await;
}
