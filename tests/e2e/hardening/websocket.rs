//! The WebSocket layer: close codes, the rate limit on every frame, and the deadline on every
//! write.

use futures_util::SinkExt;
use serde_json::json;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};

use pandemonium_protocol::{ClientMsg, ErrorCode, ServerMsg};
use pandemonium_server::Config;

use super::sqlite;
use crate::on_both_stores_passing_time;
use crate::play::two_at_a_table;
use crate::support::net::{
    close_code, connections_fall_to, hear, hello, loopback, open_connections, say, websocket,
};
use crate::support::{TestApp, TestDb, pass_time};

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
