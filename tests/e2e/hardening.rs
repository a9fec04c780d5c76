//! Facing the open internet: what a hostile or careless client can cost the server, and what
//! the server promises every client (deadlines, limits, close codes, headers, quotas).
//!
//! Each test names the abuse it pins. Clients that need their own address connect from
//! another loopback address (127.0.0.2, …): per-IP limits count them apart from the rest.

use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::{WebSocketStream, client_async};

use pandemonium_protocol::ErrorCode;
use pandemonium_protocol::{
    ApiError, ChatChannel, ClientMsg, CreateRoom, JoinRole, RoomCode, RoomList, RoomSummary,
    ServerMsg,
};
use pandemonium_server::Config;

use crate::play::{open_room, sit, start, two_at_a_table};
use crate::support::{Backend, Client, TestApp, TestDb, pass_time, passing_time};
use crate::{on_both_stores, on_both_stores_passing_time};

/// An address on the loopback network other than 127.0.0.1.
fn loopback(last: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
}

/// A TCP connection to the app from `from`, optionally with a small receive buffer.
async fn tcp_from(port: u16, from: IpAddr, receive_buffer: Option<u32>) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("a socket");
    if let Some(size) = receive_buffer {
        socket.set_recv_buffer_size(size).expect("set the buffer");
    }
    socket
        .bind((from, 0).into())
        .expect("bind a loopback address");
    socket
        .connect(([127, 0, 0, 1], port).into())
        .await
        .expect("connect")
}

type Socket = WebSocketStream<TcpStream>;

/// A WebSocket from `from`, with extra request headers.
async fn websocket(
    port: u16,
    from: IpAddr,
    headers: &[(&str, &str)],
    receive_buffer: Option<u32>,
) -> Result<Socket, u16> {
    let stream = tcp_from(port, from, receive_buffer).await;
    let mut request = format!("ws://127.0.0.1:{port}/ws")
        .into_client_request()
        .unwrap();
    for (name, value) in headers {
        request.headers_mut().insert(
            axum_header_name(name),
            value.parse().expect("a header value"),
        );
    }
    match client_async(request, stream).await {
        Ok((socket, _)) => Ok(socket),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            Err(response.status().as_u16())
        }
        Err(other) => panic!("the upgrade failed: {other}"),
    }
}

fn axum_header_name(name: &str) -> tokio_tungstenite::tungstenite::http::HeaderName {
    name.parse().expect("a header name")
}

async fn say(socket: &mut Socket, msg: &ClientMsg) {
    socket
        .send(Message::Text(serde_json::to_string(msg).unwrap().into()))
        .await
        .expect("send");
}

/// The next message from the server, or how the connection ended (its close code; 1006 when
/// it ended without one).
async fn hear(socket: &mut Socket) -> Result<ServerMsg, u16> {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("the server answers in time");
        match frame {
            Some(Ok(Message::Text(text))) => return Ok(serde_json::from_str(&text).unwrap()),
            Some(Ok(Message::Close(frame))) => return Err(frame.map_or(1005, |f| f.code.into())),
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return Err(1006),
        }
    }
}

/// Reads until the server closes; returns the close code.
async fn close_code(socket: &mut Socket) -> u16 {
    loop {
        if let Err(code) = hear(socket).await {
            return code;
        }
    }
}

fn hello(name: &str) -> ClientMsg {
    ClientMsg::Hello {
        token: None,
        name: Some(name.into()),
        patches: None,
        products: None,
    }
}

/// A raw HTTP/1.1 exchange from `from`: status, lower-cased headers and the body's bytes.
struct Raw {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Raw {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

async fn http(port: u16, from: IpAddr, request: &str) -> Raw {
    let mut stream = tcp_from(port, from, None).await;
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut raw))
        .await
        .expect("the server answers in time")
        .expect("read");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP response");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Raw {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
    }
}

async fn get(port: u16, from: IpAddr, path: &str, extra: &str) -> Raw {
    http(
        port,
        from,
        &format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{extra}\r\n"),
    )
    .await
}

async fn post(port: u16, from: IpAddr, path: &str, body: &str, token: Option<&str>) -> Raw {
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    http(
        port,
        from,
        &format!(
            "POST {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{auth}\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    )
    .await
}

fn api_code(raw: &Raw) -> ErrorCode {
    serde_json::from_slice::<ApiError>(&raw.body)
        .unwrap_or_else(|e| panic!("{} is not an ApiError: {e}", raw.status))
        .code
}

/// Open connections as the server counts them.
async fn open_connections(app: &TestApp) -> u64 {
    let metrics = app.http.get("/metrics").await.body;
    metrics
        .lines()
        .find_map(|l| l.strip_prefix("pandemonium_connections "))
        .and_then(|v| v.trim().parse().ok())
        .expect("the connections gauge")
}

/// Waits until the server counts at most `count` connections, time passing by `step` while
/// it waits (at most `steps` steps); false if it never does.
async fn connections_fall_to(app: &TestApp, count: u64, step: Duration, steps: u32) -> bool {
    for _ in 0..steps {
        if open_connections(app).await <= count {
            return true;
        }
        pass_time(step).await;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    open_connections(app).await <= count
}

/// A test of the connection layer alone: one store is enough.
async fn sqlite() -> TestDb {
    TestDb::new(Backend::Sqlite).await.expect("sqlite")
}

// ---------------------------------------------------------------------------------------------
// Configuration

#[tokio::test]
async fn a_configuration_that_cannot_work_is_refused_at_start_naming_the_flag() {
    let db = sqlite().await;
    type Breaker = fn(&mut Config);
    let cases: [(&str, Breaker); 7] = [
        ("--idle-seconds", |c| c.limits.idle_seconds = 0),
        ("--outbox", |c| c.limits.outbox = 0),
        ("--rate-per-second", |c| c.limits.rate_per_second = 0),
        ("--handshake-seconds", |c| c.limits.handshake_seconds = 0),
        ("--write-timeout-seconds", |c| {
            c.limits.write_timeout_seconds = 0
        }),
        ("--max-connections", |c| c.network.max_connections = 0),
        ("--commit-linger-micros", |c| c.commit_linger_micros = 5_000),
    ];
    for (flag, break_it) in cases {
        let mut config = Config::for_tests(&db.url);
        break_it(&mut config);
        let error = pandemonium_server::Application::build(config)
            .await
            .err()
            .unwrap_or_else(|| panic!("the server started with a broken {flag}"));
        assert!(error.to_string().contains(flag), "{flag}: {error}");
    }
    db.drop_database().await;
}

#[tokio::test]
async fn an_in_memory_database_is_refused_at_start_as_it_would_lose_every_match() {
    for url in ["sqlite::memory:", "sqlite://:memory:"] {
        let error = pandemonium_server::Application::build(Config::for_tests(url))
            .await
            .err()
            .unwrap_or_else(|| panic!("the server started on {url}"));
        assert!(error.to_string().contains("in-memory"), "{url}: {error}");
    }
}

// ---------------------------------------------------------------------------------------------
// WebSocket close codes and the rate limit

#[tokio::test]
async fn an_oversized_message_closes_with_1009_even_when_it_comes_in_fragments() {
    let db = sqlite().await;
    let app = TestApp::spawn(&db).await;
    let me = loopback(1);

    // One frame over twice the message limit (128 KiB by default).
    let mut socket = websocket(app.port, me, &[], None).await.unwrap();
    say(&mut socket, &hello("Big")).await;
    assert!(matches!(
        hear(&mut socket).await,
        Ok(ServerMsg::Welcome { .. })
    ));
    let huge = "x".repeat(200 * 1024);
    let _ = socket.send(Message::Text(huge.into())).await;
    assert_eq!(close_code(&mut socket).await, 1009);

    // Three fragments of 50 KiB: each frame is small, the message is not.
    let mut socket = websocket(app.port, me, &[], None).await.unwrap();
    let part = vec![b'x'; 50 * 1024];
    let frames = [
        Frame::message(part.clone(), OpCode::Data(Data::Text), false),
        Frame::message(part.clone(), OpCode::Data(Data::Continue), false),
        Frame::message(part, OpCode::Data(Data::Continue), true),
    ];
    for frame in frames {
        let _ = socket.send(Message::Frame(frame)).await;
    }
    assert_eq!(close_code(&mut socket).await, 1009);
    app.stop().await;
    db.drop_database().await;
}

/// RFC 6455 §5.5.1: an endpoint that receives a Close answers with a Close. Without the
/// answer a browser reports the socket it closed itself as closed abnormally (1006,
/// `wasClean` false).
#[tokio::test]
async fn a_client_s_close_is_answered_with_a_close_before_and_after_hello() {
    let db = sqlite().await;
    let app = TestApp::spawn(&db).await;
    let bye = |code: u16| {
        Message::Close(Some(tokio_tungstenite::tungstenite::protocol::CloseFrame {
            code: code.into(),
            reason: "bye".into(),
        }))
    };

    let mut greeted = websocket(app.port, loopback(1), &[], None).await.unwrap();
    say(&mut greeted, &hello("Leaving")).await;
    assert!(matches!(
        hear(&mut greeted).await,
        Ok(ServerMsg::Welcome { .. })
    ));
    greeted.send(bye(1000)).await.expect("send a Close");
    assert_eq!(close_code(&mut greeted).await, 1000);

    // Before `hello`, and with another code: the answer echoes it.
    let mut silent = websocket(app.port, loopback(1), &[], None).await.unwrap();
    silent.send(bye(1001)).await.expect("send a Close");
    assert_eq!(close_code(&mut silent).await, 1001);
    app.stop().await;
    db.drop_database().await;
}

#[tokio::test]
async fn invalid_utf8_in_a_text_frame_closes_with_1007() {
    let db = sqlite().await;
    let app = TestApp::spawn(&db).await;
    let mut socket = websocket(app.port, loopback(1), &[], None).await.unwrap();
    let frame = Frame::message(vec![b'{', 0xff, 0xfe, b'}'], OpCode::Data(Data::Text), true);
    let _ = socket.send(Message::Frame(frame)).await;
    assert_eq!(close_code(&mut socket).await, 1007);
    app.stop().await;
    db.drop_database().await;
}

#[tokio::test]
async fn binary_frames_and_pings_are_counted_by_the_rate_limit() {
    let db = sqlite().await;
    let mut config = Config::for_tests(&db.url);
    config.limits.rate_burst = 10;
    config.limits.rate_per_second = 2;
    let app = TestApp::spawn_with(config).await;

    let mut pinger = websocket(app.port, loopback(1), &[], None).await.unwrap();
    for _ in 0..200 {
        if pinger.send(Message::Ping(vec![1].into())).await.is_err() {
            break;
        }
    }
    assert_eq!(
        close_code(&mut pinger).await,
        1008,
        "a ping flood is a flood"
    );

    let mut binary = websocket(app.port, loopback(1), &[], None).await.unwrap();
    for _ in 0..200 {
        if binary.send(Message::Binary(vec![1].into())).await.is_err() {
            break;
        }
    }
    let mut told = false;
    let code = loop {
        match hear(&mut binary).await {
            Ok(ServerMsg::Error {
                code: ErrorCode::RateLimited,
                ..
            }) => told = true,
            Ok(_) => continue,
            Err(code) => break code,
        }
    };
    assert!(told, "the client is told why");
    assert_eq!(code, 1008, "a binary flood is a flood");
    app.stop().await;
    db.drop_database().await;
}

async fn an_act_over_the_rate_is_rejected_with_its_seq_and_a_fast_player_carries_on(db: &TestDb) {
    let mut config = Config::for_tests(&db.url);
    config.limits.rate_burst = 6;
    config.limits.rate_per_second = 4;
    let app = TestApp::spawn_with(config).await;
    let (mut alice, mut bob, _code) = two_at_a_table(&app, "Alice", "Bob").await;
    pass_time(Duration::from_secs(2)).await; // a full bucket again

    // Bob is impatient: ten actions at once, all out of turn. Each gets exactly one answer
    // with its own seq; the ones over the rate say so, and he is not cut off.
    for seq in 1..=10 {
        bob.send(&ClientMsg::Act {
            seq,
            action: json!({"type": "stand"}),
        })
        .await;
    }
    let mut answers = std::collections::BTreeMap::new();
    while answers.len() < 10 {
        if let ServerMsg::Reject { seq, code, .. } = bob.next().await {
            assert!(
                answers.insert(seq, code).is_none(),
                "seq {seq} answered twice"
            );
        }
    }
    assert_eq!(
        answers.keys().copied().collect::<Vec<_>>(),
        (1..=10).collect::<Vec<_>>()
    );
    let limited = answers
        .values()
        .filter(|c| **c == ErrorCode::RateLimited)
        .count();
    assert!(limited >= 1, "{answers:?}");
    assert!(
        answers
            .values()
            .all(|c| matches!(c, ErrorCode::RateLimited | ErrorCode::NotYourTurn))
    );

    // Slowed, not closed: a moment later the match goes on with both players.
    bob.sent_up_to(10);
    pass_time(Duration::from_millis(1_500)).await;
    assert_eq!(alice.act(json!({"type": "stand"})).await, Ok(1));
    bob.state_at_least(1).await;
    assert!(bob.act(json!({"type": "stand"})).await.is_ok());
    app.stop().await;
}
on_both_stores_passing_time!(
    an_act_over_the_rate_is_rejected_with_its_seq_and_a_fast_player_carries_on
);

// ---------------------------------------------------------------------------------------------
// Write deadlines

#[tokio::test]
async fn a_client_that_stops_reading_is_dropped_by_the_write_deadline() {
    let db = sqlite().await;
    let mut config = Config::for_tests(&db.url);
    config.limits.rate_burst = 1_000_000_000;
    config.limits.rate_per_second = 1_000_000_000;
    config.limits.write_timeout_seconds = 1;
    let app = TestApp::spawn_with(config).await;
    let baseline = open_connections(&app).await;

    // Each client asks for far more replies than it reads, with a tiny receive buffer, so the
    // server's writes block. Only a deadline on the write can free the server of it.
    let mut writers = Vec::new();
    for _ in 0..4 {
        let mut socket = websocket(app.port, loopback(1), &[], Some(4096))
            .await
            .unwrap();
        say(&mut socket, &hello("Deaf")).await;
        assert!(matches!(
            hear(&mut socket).await,
            Ok(ServerMsg::Welcome { .. })
        ));
        writers.push(tokio::spawn(async move {
            for _ in 0..300_000 {
                if socket.feed(Message::Text("x".into())).await.is_err() {
                    return;
                }
            }
            let _ = socket.flush().await;
            // Hold the socket open, never reading.
            std::future::pending::<()>().await;
        }));
    }
    // Fewer than the idle time's worth of steps: only the write deadline can close them.
    assert!(
        connections_fall_to(&app, baseline, Duration::from_millis(250), 200).await,
        "clients that never read are still held open ({} open)",
        open_connections(&app).await
    );

    for writer in writers {
        writer.abort();
    }
    app.stop().await;
    db.drop_database().await;
}

// ---------------------------------------------------------------------------------------------
// HTTP timeouts and connection caps

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

// ---------------------------------------------------------------------------------------------
// Quotas per address, caps on rooms, the room list

fn room_request(public: bool) -> String {
    serde_json::to_string(&CreateRoom {
        game: "twenty_one".into(),
        options: json!({}),
        seats: 2,
        bots: vec![],
        public,
        turn_seconds: None,
        grace_seconds: None,
    })
    .unwrap()
}

async fn guests_rooms_and_code_lookups_are_limited_per_address(db: &TestDb) {
    let mut config = Config::for_tests(&db.url);
    config.quotas.guests_per_minute = 3;
    config.quotas.rooms_per_minute = 2;
    config.quotas.lookups_per_minute = 4;
    let app = TestApp::spawn_with(config).await;
    let (attacker, neighbour) = (loopback(2), loopback(3));

    // Guests: three per minute from one address, by HTTP and by a hello without a token alike.
    for _ in 0..2 {
        let made = post(
            app.port,
            attacker,
            "/api/guests",
            r#"{"name":"Mallory"}"#,
            None,
        )
        .await;
        assert_eq!(made.status, 201);
    }
    let mut socket = websocket(app.port, attacker, &[], None).await.unwrap();
    say(&mut socket, &hello("Mallory")).await;
    let ServerMsg::Welcome { token, .. } = hear(&mut socket).await.unwrap() else {
        panic!("the third guest is welcome");
    };
    let refused = post(
        app.port,
        attacker,
        "/api/guests",
        r#"{"name":"Mallory"}"#,
        None,
    )
    .await;
    assert_eq!(refused.status, 429);
    assert_eq!(api_code(&refused), ErrorCode::RateLimited);
    let mut socket = websocket(app.port, attacker, &[], None).await.unwrap();
    say(&mut socket, &hello("Mallory")).await;
    assert!(
        matches!(hear(&mut socket).await, Ok(ServerMsg::Error { code, .. }) if code == ErrorCode::RateLimited)
    );
    // A known guest is not a new one: a hello with a token still works.
    say(
        &mut socket,
        &ClientMsg::Hello {
            token: token.clone(),
            name: None,
            patches: None,
            products: None,
        },
    )
    .await;
    assert!(matches!(
        hear(&mut socket).await,
        Ok(ServerMsg::Welcome { .. })
    ));
    // Another address is not affected.
    let made = post(
        app.port,
        neighbour,
        "/api/guests",
        r#"{"name":"Nina"}"#,
        None,
    )
    .await;
    assert_eq!(made.status, 201);

    // Rooms: two per minute from one address.
    let mut codes = Vec::new();
    for _ in 0..2 {
        let made = post(app.port, attacker, "/api/rooms", &room_request(false), None).await;
        assert_eq!(made.status, 201);
        codes.push(
            serde_json::from_slice::<RoomSummary>(&made.body)
                .unwrap()
                .code,
        );
    }
    let refused = post(app.port, attacker, "/api/rooms", &room_request(false), None).await;
    assert_eq!(refused.status, 429);
    assert_eq!(api_code(&refused), ErrorCode::RateLimited);

    // Code lookups: four per minute from one address, hits and misses alike, over HTTP and
    // by joining, so guessing private codes is as slow as the quota.
    let path = format!("/api/rooms/{}", codes[0]);
    assert_eq!(get(app.port, attacker, &path, "").await.status, 200);
    assert_eq!(
        get(app.port, attacker, "/api/rooms/ACDEFGHJKM", "")
            .await
            .status,
        404
    );
    assert_eq!(
        get(app.port, attacker, "/api/rooms/ACDEFGHJKN", "")
            .await
            .status,
        404
    );
    let join = |room: &RoomCode| ClientMsg::Join {
        room: room.clone(),
        role: JoinRole::Player,
        version: None,
    };
    say(&mut socket, &join(&codes[1])).await;
    assert!(matches!(hear(&mut socket).await, Ok(ServerMsg::Room(_))));
    let refused = get(app.port, attacker, &path, "").await;
    assert_eq!(refused.status, 429);
    assert_eq!(api_code(&refused), ErrorCode::RateLimited);
    // Mallory sits down at the table she joined; with the quota spent, joining another room
    // is refused...
    say(&mut socket, &ClientMsg::TakeSeat { seat: 0 }).await;
    while !matches!(hear(&mut socket).await, Ok(ServerMsg::Room(room)) if room.you == Some(0)) {}
    say(&mut socket, &join(&codes[0])).await;
    let refused = loop {
        match hear(&mut socket).await.unwrap() {
            ServerMsg::Error { code, .. } => break code,
            _ => continue,
        }
    };
    assert_eq!(refused, ErrorCode::RateLimited);
    assert_eq!(get(app.port, neighbour, &path, "").await.status, 200);
    // ...but coming back to a seat she holds is no lookup: a neighbour guessing codes on the
    // same address cannot keep her from her own table.
    say(&mut socket, &join(&codes[1])).await;
    match hear(&mut socket).await.unwrap() {
        ServerMsg::Room(room) => assert_eq!(room.you, Some(0), "back in her seat"),
        other => panic!("her own table refused her: {other:?}"),
    }
    app.stop().await;
}
on_both_stores!(guests_rooms_and_code_lookups_are_limited_per_address);

async fn open_rooms_are_capped_for_the_server_and_for_each_guest(db: &TestDb) {
    let mut config = Config::for_tests(&db.url);
    config.quotas.max_rooms = 4;
    config.quotas.max_rooms_per_guest = 2;
    let app = TestApp::spawn_with(config).await;
    let alice = app.guest("Alice").await;
    let bob = app.guest("Bob").await;
    let me = loopback(1);
    for _ in 0..2 {
        let made = post(
            app.port,
            me,
            "/api/rooms",
            &room_request(true),
            Some(&alice.token),
        )
        .await;
        assert_eq!(made.status, 201);
    }
    let refused = post(
        app.port,
        me,
        "/api/rooms",
        &room_request(true),
        Some(&alice.token),
    )
    .await;
    assert_eq!(refused.status, 429);
    assert_eq!(api_code(&refused), ErrorCode::TooManyRooms);
    for _ in 0..2 {
        let made = post(
            app.port,
            me,
            "/api/rooms",
            &room_request(true),
            Some(&bob.token),
        )
        .await;
        assert_eq!(made.status, 201);
    }
    let full = post(app.port, me, "/api/rooms", &room_request(true), None).await;
    assert_eq!(full.status, 503);
    assert_eq!(api_code(&full), ErrorCode::ServerFull);
    app.stop().await;
}
on_both_stores!(open_rooms_are_capped_for_the_server_and_for_each_guest);

/// A guest hosts the tables they opened and those they became host of by joining an
/// unclaimed room first: both count against the cap, and the summary names its host from the
/// moment the room is opened with the host's token.
async fn every_table_a_guest_hosts_counts_against_the_cap_and_is_listed_with_its_host(db: &TestDb) {
    let mut config = Config::for_tests(&db.url);
    config.quotas.max_rooms_per_guest = 2;
    let app = TestApp::spawn_with(config).await;
    let mut alice = app.guest("Alice").await;
    let me = loopback(1);
    let made = post(
        app.port,
        me,
        "/api/rooms",
        &room_request(true),
        Some(&alice.token),
    )
    .await;
    assert_eq!(made.status, 201);
    let summary: RoomSummary = serde_json::from_slice(&made.body).unwrap();
    assert_eq!(summary.host.as_deref(), Some("Alice"), "named at once");
    let listed: RoomList = app.http.get("/api/rooms").await.json();
    assert_eq!(listed.rooms[0].host.as_deref(), Some("Alice"));
    // A room opened without a token, claimed by joining it first.
    let unclaimed = post(app.port, me, "/api/rooms", &room_request(true), None).await;
    let unclaimed: RoomSummary = serde_json::from_slice(&unclaimed.body).unwrap();
    alice.join(&unclaimed.code, JoinRole::Player).await;
    let claimed = alice.room_where(|r| r.host.is_some()).await;
    assert_eq!(claimed.code, unclaimed.code);
    let refused = post(
        app.port,
        me,
        "/api/rooms",
        &room_request(true),
        Some(&alice.token),
    )
    .await;
    assert_eq!(api_code(&refused), ErrorCode::TooManyRooms);
    app.stop().await;
}
on_both_stores!(every_table_a_guest_hosts_counts_against_the_cap_and_is_listed_with_its_host);

/// A finished match is not an open table: its host may open the next one (a table that plays
/// match after match in fresh rooms is not stopped by the per-guest cap).
async fn a_finished_match_does_not_count_against_its_hosts_open_tables(db: &TestDb) {
    let mut config = Config::for_tests(&db.url);
    config.quotas.max_rooms_per_guest = 1;
    let app = TestApp::spawn_with(config).await;
    let mut alice = app.guest("Alice").await;
    open_room(&app, &mut alice, "race", 1, vec![], json!({"goal": 1})).await;
    start(&mut alice).await;
    assert_eq!(alice.act(json!({"type": "step"})).await, Ok(1));
    alice
        .room_where(|r| r.status == pandemonium_protocol::RoomStatus::Finished)
        .await;
    let next = post(
        app.port,
        loopback(1),
        "/api/rooms",
        &room_request(true),
        Some(&alice.token),
    )
    .await;
    assert_eq!(next.status, 201, "{}", String::from_utf8_lossy(&next.body));
    let refused = post(
        app.port,
        loopback(1),
        "/api/rooms",
        &room_request(true),
        Some(&alice.token),
    )
    .await;
    assert_eq!(
        api_code(&refused),
        ErrorCode::TooManyRooms,
        "the cap still holds"
    );
    app.stop().await;
}
on_both_stores!(a_finished_match_does_not_count_against_its_hosts_open_tables);

/// Nor against the server's cap: rooms whose match is over wait a little before closing, and a
/// steady stream of tables playing match after match must not fill the server with them.
async fn a_finished_match_does_not_count_against_the_servers_open_rooms(db: &TestDb) {
    let mut config = Config::for_tests(&db.url);
    config.quotas.max_rooms = 1;
    let app = TestApp::spawn_with(config).await;
    let mut alice = app.guest("Alice").await;
    open_room(&app, &mut alice, "race", 1, vec![], json!({"goal": 1})).await;
    start(&mut alice).await;
    assert_eq!(alice.act(json!({"type": "step"})).await, Ok(1));
    alice
        .room_where(|r| r.status == pandemonium_protocol::RoomStatus::Finished)
        .await;
    let bob = app.guest("Bob").await;
    let next = post(
        app.port,
        loopback(1),
        "/api/rooms",
        &room_request(true),
        Some(&bob.token),
    )
    .await;
    assert_eq!(next.status, 201, "{}", String::from_utf8_lossy(&next.body));
    let full = post(
        app.port,
        loopback(1),
        "/api/rooms",
        &room_request(true),
        None,
    )
    .await;
    assert_eq!(
        api_code(&full),
        ErrorCode::ServerFull,
        "the cap still holds"
    );
    app.stop().await;
}
on_both_stores!(a_finished_match_does_not_count_against_the_servers_open_rooms);

/// By default the per-address limits leave this machine's loopback addresses alone (a local
/// load test, or a reverse proxy that must name its clients with `--client-ip-header`); with
/// a client-IP header they apply to the addresses the proxy reports.
#[tokio::test]
async fn loopback_is_not_limited_per_address_unless_asked() {
    let db = sqlite().await;
    let mut config = Config::for_tests(&db.url);
    config.network.limit_loopback = false;
    config.quotas.guests_per_minute = 2;
    config.network.max_connections_per_ip = 2;
    let app = TestApp::spawn_with(config.clone()).await;
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
        "connections over the per-address cap are let in"
    );
    app.stop().await;

    config.network.client_ip_header = Some("X-Real-IP".into());
    let app = TestApp::spawn_with(config).await;
    let body = r#"{"name":"Px"}"#;
    let proxied = format!(
        "POST /api/guests HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         X-Real-IP: 203.0.113.7\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut statuses = Vec::new();
    for _ in 0..3 {
        statuses.push(http(app.port, loopback(1), &proxied).await.status);
    }
    assert_eq!(
        statuses,
        [201, 201, 429],
        "a proxied client is limited by its own address"
    );
    app.stop().await;
    db.drop_database().await;
}

async fn the_room_list_comes_in_pages(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let me = loopback(1);
    for _ in 0..5 {
        let made = post(app.port, me, "/api/rooms", &room_request(true), None).await;
        assert_eq!(made.status, 201);
    }
    let private = post(app.port, me, "/api/rooms", &room_request(false), None).await;
    assert_eq!(private.status, 201);
    let page = |n: u32| async move {
        let raw = get(app.port, me, &format!("/api/rooms?page={n}&per_page=2"), "").await;
        assert_eq!(raw.status, 200);
        serde_json::from_slice::<RoomList>(&raw.body).unwrap().rooms
    };
    let (first, second, third, fourth) =
        (page(0).await, page(1).await, page(2).await, page(3).await);
    assert_eq!(
        (first.len(), second.len(), third.len(), fourth.len()),
        (2, 2, 1, 0)
    );
    let mut codes: Vec<_> = [first, second, third]
        .concat()
        .into_iter()
        .map(|r| r.code)
        .collect();
    let listed = codes.clone();
    codes.sort();
    codes.dedup();
    assert_eq!(codes, listed, "pages are in code order and do not overlap");
    assert_eq!(codes.len(), 5, "private rooms are not listed");
    // Without a page size, a page is bounded anyway.
    let all: RoomList = app.http.get("/api/rooms").await.json();
    assert_eq!(all.rooms.len(), 5);
    let huge = get(app.port, me, "/api/rooms?per_page=100000", "").await;
    assert_eq!(huge.status, 400);
    app.stop().await;
}
on_both_stores!(the_room_list_comes_in_pages);

// ---------------------------------------------------------------------------------------------
// HTTP: headers, caching, compression, source maps, impossible paths, origins

/// A built web client in miniature: an index, a hashed script with its source map.
fn static_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pdm-static-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><script type=module src=/assets/index-B1x2y3z4.js></script>",
    )
    .unwrap();
    let script = "export const lobby = 'the lobby';\n".repeat(400);
    std::fs::write(dir.join("assets/index-B1x2y3z4.js"), script).unwrap();
    std::fs::write(dir.join("assets/index-B1x2y3z4.js.map"), "{\"sources\":[]}").unwrap();
    dir
}

#[tokio::test]
async fn pages_carry_security_and_cache_headers_and_are_compressed() {
    let db = sqlite().await;
    let dir = static_dir();
    let mut config = Config::for_tests(&db.url);
    config.static_dir = dir.clone();
    let app = TestApp::spawn_with(config).await;
    let me = loopback(1);

    for path in ["/", "/r/K7QX2M", "/api/games", "/assets/index-B1x2y3z4.js"] {
        let page = get(app.port, me, path, "").await;
        assert_eq!(page.status, 200, "{path}");
        assert_eq!(
            page.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(page.header("x-frame-options"), Some("DENY"), "{path}");
        assert!(page.header("referrer-policy").is_some(), "{path}");
        let csp = page.header("content-security-policy").unwrap_or_default();
        for directive in [
            "default-src 'self'",
            "script-src 'self'",
            "frame-ancestors 'none'",
        ] {
            assert!(csp.contains(directive), "{path}: {csp}");
        }
    }
    let index = get(app.port, me, "/", "").await;
    assert_eq!(index.header("cache-control"), Some("no-cache"));
    let route = get(app.port, me, "/r/K7QX2M", "").await;
    assert_eq!(route.header("cache-control"), Some("no-cache"));
    let script = get(app.port, me, "/assets/index-B1x2y3z4.js", "").await;
    assert_eq!(
        script.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );

    for encoding in ["gzip", "br"] {
        let packed = get(
            app.port,
            me,
            "/assets/index-B1x2y3z4.js",
            &format!("Accept-Encoding: {encoding}\r\n"),
        )
        .await;
        assert_eq!(packed.header("content-encoding"), Some(encoding));
        assert!(packed.body.len() < script.body.len() / 4, "{encoding}");
    }
    // A short answer goes as it is, whatever the client accepts: for a few hundred bytes,
    // setting up an encoder here and a decoder there costs more than the bytes saved.
    let guest = http(
        app.port,
        me,
        "POST /api/guests HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         Accept-Encoding: gzip, deflate, br\r\nContent-Type: application/json\r\n\
         Content-Length: 14\r\n\r\n{\"name\":\"Ada\"}",
    )
    .await;
    assert_eq!(guest.status, 201);
    assert!(guest.body.len() < 1024, "{}", guest.body.len());
    assert_eq!(guest.header("content-encoding"), None);

    let map = get(app.port, me, "/assets/index-B1x2y3z4.js.map", "").await;
    assert_eq!(map.status, 404, "source maps are not served");
    for path in [
        format!("/{}", "a".repeat(300)),
        format!("/assets/{}.js", "b".repeat(300)),
        format!("/api/rooms/{}", "C".repeat(300)),
        format!("/api/matches/{}", "d".repeat(300)),
    ] {
        let answer = get(app.port, me, &path, "").await;
        assert_eq!(answer.status, 404, "{}", &path[..20]);
    }
    app.stop().await;
    let _ = std::fs::remove_dir_all(dir);
    db.drop_database().await;
}

#[tokio::test]
async fn websockets_are_accepted_only_from_allowed_origins() {
    let db = sqlite().await;
    let app = TestApp::spawn(&db).await;
    let me = loopback(1);
    let host = format!("127.0.0.1:{}", app.port);
    let same = format!("http://{host}");
    // The page's own origin, and clients that are not browsers (no Origin), are welcome.
    assert!(
        websocket(app.port, me, &[("origin", &same)], None)
            .await
            .is_ok()
    );
    assert!(websocket(app.port, me, &[], None).await.is_ok());
    // Another site's page may not open a socket in its visitor's name.
    for origin in ["https://evil.example", "null", "http://127.0.0.1:1"] {
        assert_eq!(
            websocket(app.port, me, &[("origin", origin)], None)
                .await
                .err(),
            Some(403),
            "{origin}"
        );
    }
    app.stop().await;

    let mut config = Config::for_tests(&db.url);
    config.network.allowed_origins = vec!["https://games.example.org".into()];
    let app = TestApp::spawn_with(config).await;
    let listed = [("origin", "https://games.example.org")];
    assert!(websocket(app.port, me, &listed, None).await.is_ok());
    let unlisted = [("origin", "https://evil.example")];
    assert_eq!(
        websocket(app.port, me, &unlisted, None).await.err(),
        Some(403)
    );
    app.stop().await;
    db.drop_database().await;
}

// ---------------------------------------------------------------------------------------------
// Stale guests

async fn guests_that_never_sat_in_a_match_are_pruned_and_players_are_kept(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut alice = app.guest("Alice").await;
    let mut bob = app.guest("Bob").await;
    let idle = app.guest("Idle").await;
    let code = open_room(&app, &mut alice, "twenty_one", 2, vec![], json!({})).await;
    sit(&mut bob, &code, 1).await;
    start(&mut alice).await;

    let store = pandemonium_server::store::Store::connect(&db.url)
        .await
        .expect("store");
    assert_eq!(
        store
            .prune_guests(Duration::from_secs(3_600))
            .await
            .unwrap(),
        0,
        "young guests are kept"
    );
    assert_eq!(store.prune_guests(Duration::ZERO).await.unwrap(), 1);
    store.close().await;

    let hello_with = |token: String| ClientMsg::Hello {
        token: Some(token),
        name: None,
        patches: None,
        products: None,
    };
    let mut socket = websocket(app.port, loopback(1), &[], None).await.unwrap();
    say(&mut socket, &hello_with(idle.token.clone())).await;
    assert!(
        matches!(hear(&mut socket).await, Ok(ServerMsg::Error { code, .. }) if code == ErrorCode::UnknownToken),
        "the unused guest is gone"
    );
    for player in [&alice, &bob] {
        say(&mut socket, &hello_with(player.token.clone())).await;
        assert!(matches!(
            hear(&mut socket).await,
            Ok(ServerMsg::Welcome { .. })
        ));
        socket = websocket(app.port, loopback(1), &[], None).await.unwrap();
    }
    app.stop().await;
}
on_both_stores!(guests_that_never_sat_in_a_match_are_pruned_and_players_are_kept);

// ---------------------------------------------------------------------------------------------
// Audiences and room codes

async fn a_room_refuses_a_spectator_over_its_cap_with_room_full_and_keeps_seats_open(db: &TestDb) {
    let mut config = Config::for_tests(&db.url);
    config.quotas.max_spectators_per_room = 2;
    let app = TestApp::spawn_with(config).await;
    let mut alice = app.guest("Alice").await;
    let code = open_room(&app, &mut alice, "twenty_one", 2, vec![], json!({})).await;

    let mut first = app.guest("First").await;
    first.join(&code, JoinRole::Spectator).await;
    // Someone in as a player but without a seat watches too, and counts.
    let mut second = app.guest("Second").await;
    second.join(&code, JoinRole::Player).await;
    let mut third = app.guest("Third").await;
    third
        .send(&ClientMsg::Join {
            room: code.clone(),
            role: JoinRole::Spectator,
            version: None,
        })
        .await;
    assert_eq!(third.error_code().await, ErrorCode::RoomFull);
    // Refused, not disconnected: the connection is open and in no room.
    third.send(&ClientMsg::Ready { ready: true }).await;
    assert_eq!(third.error_code().await, ErrorCode::NotInRoom);

    // A full audience never locks out whoever holds a seat.
    let mut alice_again = Client::with_token(app.port, &alice.token).await;
    let snapshot = alice_again.join(&code, JoinRole::Player).await;
    assert_eq!(snapshot.you, Some(0));
    assert_eq!(snapshot.spectators, 2);

    // When a watcher leaves, there is room for one more.
    first.send(&ClientMsg::Leave).await;
    second.room_where(|r| r.spectators == 1).await;
    let snapshot = third.join(&code, JoinRole::Spectator).await;
    assert_eq!(snapshot.spectators, 2);
    app.stop().await;
}
on_both_stores!(a_room_refuses_a_spectator_over_its_cap_with_room_full_and_keeps_seats_open);

#[tokio::test]
async fn new_room_codes_are_ten_characters_from_the_look_alike_free_alphabet() {
    let db = sqlite().await;
    let app = TestApp::spawn(&db).await;
    for _ in 0..20 {
        let response = app
            .http
            .post(
                "/api/rooms",
                &json!({"game": "twenty_one", "options": {}, "seats": 2, "bots": [], "public": false}),
                None,
            )
            .await;
        assert_eq!(response.status, 201);
        let summary: RoomSummary = response.json();
        let code = summary.code.as_str();
        assert_eq!(code.len(), RoomCode::LEN, "{code}");
        assert!(
            code.bytes().all(|b| RoomCode::ALPHABET.contains(&b)),
            "{code}"
        );
        // Typed in lower case, it still finds the room.
        let found = app
            .http
            .get(&format!("/api/rooms/{}", code.to_lowercase()))
            .await;
        assert_eq!(found.status, 200, "{code}");
    }
    app.stop().await;
    db.drop_database().await;
}

/// Rooms stored before codes grew to ten characters keep their six-letter code: the server
/// resumes them after a restart and they can still be joined by it.
async fn a_room_with_a_six_letter_code_from_before_resumes_and_can_be_joined(db: &TestDb) {
    use pandemonium_server::store::{NewMatch, RoomSettings, Store, StoredSeat};
    let store = Store::connect(&db.url).await.unwrap();
    let seat = |name: &str| StoredSeat {
        player_id: None,
        name: name.into(),
        bot: true,
    };
    store
        .start_match(&NewMatch {
            id: "old-match".into(),
            room_code: "ACDEFG".into(),
            game: "twenty_one".into(),
            config: json!({}),
            seats: vec![seat("Bot 1"), seat("Bot 2")],
            room: RoomSettings {
                public: false,
                turn_seconds: None,
                grace_seconds: 60,
                host: None,
            },
            seed: "00".repeat(32),
            seed_hash: "ab".repeat(32),
            started_at: 1,
            rematch_of: None,
        })
        .await
        .unwrap();
    store.close().await;

    let app = TestApp::spawn(db).await;
    let mut watcher = app.guest("Watcher").await;
    let snapshot = watcher
        .join(&RoomCode("acdefg".into()), JoinRole::Spectator)
        .await;
    assert_eq!(snapshot.code.as_str(), "ACDEFG");
    assert_eq!(snapshot.match_id.as_deref(), Some("old-match"));
    app.stop().await;
}
on_both_stores!(a_room_with_a_six_letter_code_from_before_resumes_and_can_be_joined);

// ---------------------------------------------------------------------------------------------
// Logs

/// Every log line of a connection names it (its id, address and, once greeted, the guest), and
/// a room's lines name the room: read from the JSON logs of a real server process.
type LogLines = tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStdout>>;

/// A test server process writing JSON logs (debug and up) to a pipe, on `db`.
async fn logging_server(db: &TestDb, extra: &[&str]) -> (tokio::process::Child, LogLines, u16) {
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

#[tokio::test]
async fn log_lines_carry_the_span_of_their_connection_and_of_their_room() {
    let db = sqlite().await;
    let (mut child, mut lines, port) =
        logging_server(&db, &["--max-spectators-per-room", "1"]).await;
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
            refusal_in_room = true;
        }
        if message == "connection closed"
            && let Some(conn) = span("conn")
            && conn["guest"] == carol_id.as_str()
        {
            assert_eq!(conn["peer"], "127.0.0.1");
            assert!(conn["conn"].is_u64(), "{conn}");
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

/// Makes the SQLite database behind `db` refuse every action appended from now on (until the
/// trigger is dropped); returns the connection that installed it. A running match's actions
/// are appended to `actions_by_arrival` (docs/performance.md, "The action log").
async fn refuse_actions(db: &TestDb) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    let breaker = sqlx::AnyPool::connect(&db.url).await.unwrap();
    sqlx::query(
        "CREATE TRIGGER refuse_actions BEFORE INSERT ON actions_by_arrival \
         BEGIN SELECT RAISE(ABORT, 'refused for the test'); END",
    )
    .execute(&breaker)
    .await
    .unwrap();
    breaker
}

/// A store error a player is told of (`storage_unavailable`) is logged, in the room's span:
/// the database is made to refuse the next append.
#[tokio::test]
async fn a_store_error_told_to_a_player_is_logged_in_the_rooms_span() {
    let db = sqlite().await;
    let (mut child, mut lines, port) = logging_server(&db, &[]).await;
    let app = TestApp::attach(port);
    let (mut alice, _bob, code) = two_at_a_table(&app, "Alice", "Bob").await;

    let _breaker = refuse_actions(&db).await;
    assert_eq!(
        alice.act(json!({"type": "draw"})).await,
        Err(ErrorCode::StorageUnavailable.as_str().to_string())
    );

    let mut logged_in_room = false;
    let deadline = Instant::now() + Duration::from_secs(20);
    while !logged_in_room && Instant::now() < deadline {
        let Ok(Ok(Some(line))) =
            tokio::time::timeout(Duration::from_secs(5), lines.next_line()).await
        else {
            break;
        };
        let Ok(entry) = serde_json::from_str::<serde_json::Value>(&line) else {
            continue;
        };
        let message = entry["fields"]["message"].as_str().unwrap_or_default();
        if entry["level"] == "ERROR" && message.contains("could not be saved") {
            let spans = entry["spans"].as_array().cloned().unwrap_or_default();
            let room = spans
                .iter()
                .find(|s| s["name"] == "room")
                .expect("the store error is logged in the room's span");
            assert_eq!(room["room"], code.as_str());
            assert!(
                entry["fields"]["error"]
                    .as_str()
                    .is_some_and(|e| e.contains("refused for the test")),
                "{entry}"
            );
            logged_in_room = true;
        }
    }
    assert!(logged_in_room, "the store error was logged");
    let _ = child.kill().await;
    db.drop_database().await;
}

/// An action the store refuses is undone: the room rebuilds the match from the actions it
/// kept (as their JSON text) and play goes on from the last durable one, with nothing lost.
#[tokio::test]
async fn an_action_the_store_refuses_is_undone_and_play_goes_on_from_the_durable_log() {
    let db = sqlite().await;
    let app = TestApp::spawn(&db).await;
    let (mut alice, mut bob, _code) = two_at_a_table(&app, "Alice", "Bob").await;
    async fn act_in_turn(players: [&mut Client; 2]) -> Result<u64, String> {
        for player in players {
            let state = player.state.clone().expect("a state");
            let seat = player.room.as_ref().and_then(|r| r.you).expect("seated");
            if state.to_act.contains(&seat) {
                return player.act(json!({"type": "draw"})).await;
            }
        }
        panic!("nobody is to act");
    }
    assert_eq!(act_in_turn([&mut alice, &mut bob]).await, Ok(1));
    alice.state_at_least(1).await;
    bob.state_at_least(1).await;

    let breaker = refuse_actions(&db).await;
    assert_eq!(
        act_in_turn([&mut alice, &mut bob]).await,
        Err(ErrorCode::StorageUnavailable.as_str().to_string())
    );
    sqlx::query("DROP TRIGGER refuse_actions")
        .execute(&breaker)
        .await
        .unwrap();

    // The refused action never happened: the same decision is open again, at version 2.
    assert_eq!(act_in_turn([&mut alice, &mut bob]).await, Ok(2));
    alice.state_at_least(2).await;
    bob.state_at_least(2).await;
    let (a, b) = (alice.state.clone().unwrap(), bob.state.clone().unwrap());
    assert_eq!((a.version, b.version), (2, 2));
    assert_eq!(a.to_act, b.to_act);
    let logged: Vec<(i64, String)> =
        sqlx::query_as("SELECT idx, action FROM actions_by_arrival ORDER BY idx")
            .fetch_all(&breaker)
            .await
            .unwrap();
    assert_eq!(logged.len(), 2, "{logged:?}");
    assert!(logged.iter().all(|(_, action)| action.contains("draw")));
    breaker.close().await;
    db.drop_database().await;
}

/// A rejoin that missed every version the room keeps is sent them all, with the room and its
/// chat, and stays connected: what the room releases at once on its own is not a client
/// falling behind (it used to overflow the outbox by one and drop the client with 1013).
async fn a_rejoin_missing_every_kept_version_is_sent_them_all_and_stays(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut alice = app.guest("Alice").await;
    let mut bob = app.guest("Bob").await;
    let code = open_room(&app, &mut alice, "race", 2, vec![], json!({"goal": 10_000})).await;
    sit(&mut bob, &code, 1).await;
    start(&mut alice).await;
    bob.send(&ClientMsg::Chat {
        channel: ChatChannel::Players,
        text: "back in a minute".into(),
    })
    .await;
    alice.next_chat().await;
    let token = bob.token.clone();
    bob.close().await;
    for version in 1..=64 {
        assert_eq!(alice.act(json!({"type": "step"})).await, Ok(version));
    }

    let mut bob = Client::with_token(app.port, &token).await;
    bob.rejoin(&code, 0).await;
    let (mut versions, mut chat) = (Vec::new(), None);
    while versions.last() != Some(&64) || chat.is_none() {
        match bob.try_next().await {
            Ok(ServerMsg::State(state)) => versions.push(state.version),
            Ok(ServerMsg::ChatHistory { lines }) => chat = Some(lines),
            Ok(_) => {}
            Err(closed) => panic!("closed after {} states: {closed:?}", versions.len()),
        }
    }
    assert_eq!(versions, (1..=64).collect::<Vec<u64>>());
    let lines = chat.expect("the chat history");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0].text, "back in a minute");
    assert_eq!(alice.act(json!({"type": "step"})).await, Ok(65));
    assert_eq!(bob.state_at_least(65).await.version, 65);
    app.stop().await;
}
on_both_stores!(a_rejoin_missing_every_kept_version_is_sent_them_all_and_stays);

/// A client that sends its whole burst of acts at once (and more, which the rate limit
/// refuses) gets every answer and stays connected: a group commit releases the acks and
/// states of many acts together, and that is the room's burst, not a client falling behind.
async fn a_burst_of_acts_at_the_rate_limit_is_answered_whole(db: &TestDb) {
    let mut config = Config::for_tests(&db.url);
    // The production limits: a burst of 40, then 20 a second.
    config.limits.rate_burst = 40;
    config.limits.rate_per_second = 20;
    // The smallest outbox, so that the test does not hang on how the commits happen to
    // batch: what the server hands out at once of its own accord must fit beyond it.
    config.limits.outbox = 1;
    let app = TestApp::spawn_with(config).await;
    let mut alice = app.guest("Alice").await;
    open_room(&app, &mut alice, "race", 1, vec![], json!({"goal": 10_000})).await;
    start(&mut alice).await;
    for _ in 0..70 {
        alice.seq_act_without_answer(json!({"type": "step"})).await;
    }
    let (mut acked, mut limited, mut last_state) = (0, 0, 0);
    while acked + limited < 70 || last_state < acked {
        match alice.try_next().await {
            Ok(ServerMsg::Ack { version, .. }) => {
                acked += 1;
                assert_eq!(version, acked, "acks in order, one version each");
            }
            Ok(ServerMsg::Reject { code, .. }) => {
                assert_eq!(code, ErrorCode::RateLimited);
                limited += 1;
            }
            Ok(ServerMsg::State(state)) => last_state = state.version,
            Ok(_) => {}
            Err(closed) => panic!("closed after {acked} acks and {limited} refusals: {closed:?}"),
        }
    }
    // Joining and starting took a few of the burst's tokens.
    assert!(acked >= 30, "the burst is applied: {acked}");
    app.stop().await;
}
on_both_stores!(a_burst_of_acts_at_the_rate_limit_is_answered_whole);
