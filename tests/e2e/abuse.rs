//! Bad input gets a typed error to that client only; the room, other players and stored data
//! are untouched.

use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

use pandemonium_protocol::ErrorCode;
use pandemonium_protocol::{ClientMsg, MatchRecord, ServerMsg};

use crate::play::{open_room, two_at_a_table};
use crate::support::{Client, TestApp, TestDb, pass_time, passing_time};
use crate::{on_both_stores, on_both_stores_passing_time};

async fn out_of_turn_malformed_oversized_and_illegal_input_is_refused_and_changes_nothing(
    db: &TestDb,
) {
    let app = TestApp::spawn(db).await;
    let (mut alice, mut bob, _code) = two_at_a_table(&app, "Alice", "Bob").await;
    let before = bob.state_at_least(0).await;

    // Out of turn: it is seat 0's move.
    assert_eq!(
        bob.act(json!({"type": "stand"})).await,
        Err("not_your_turn".into())
    );
    // Not an action of this game.
    assert_eq!(
        alice.act(json!({"type": "fly"})).await,
        Err("malformed_action".into())
    );
    // Not JSON at all.
    alice.send_text("{this is not json").await;
    assert_eq!(alice.error_code().await, ErrorCode::Malformed);
    // Larger than a frame may be.
    let huge = format!(
        r#"{{"type":"chat","channel":"players","text":"{}"}}"#,
        "x".repeat(70_000)
    );
    alice.send_text(&huge).await;
    assert_eq!(alice.error_code().await, ErrorCode::FrameTooLarge);
    // Only the host starts, and only once.
    bob.send(&ClientMsg::Start).await;
    assert_eq!(bob.error_code().await, ErrorCode::NotHost);

    // Nothing changed: the next legal action gets version 1, and Bob saw no state meanwhile.
    assert_eq!(alice.act(json!({"type": "stand"})).await, Ok(1));
    let after = bob.state_at_least(1).await;
    assert_eq!(after.version, before.version + 1);
    let match_id = alice.room.clone().unwrap().match_id.unwrap();
    // The running match's log is not served (it would reveal hidden cards), but the store
    // holds exactly the one accepted action: finish and look.
    bob.act(json!({"type": "stand"})).await.unwrap();
    alice.state_at_least(2).await;
    let record: MatchRecord = app
        .http
        .get(&format!("/api/matches/{match_id}"))
        .await
        .json();
    assert_eq!(record.log.len(), 2, "only accepted actions are stored");
    app.stop().await;
}
on_both_stores!(out_of_turn_malformed_oversized_and_illegal_input_is_refused_and_changes_nothing);

async fn a_flooding_client_is_told_then_closed_while_the_room_plays_on(db: &TestDb) {
    // The production limits: a burst of 40, then 20 a second.
    let mut config = pandemonium_server::Config::for_tests(&db.url);
    config.limits.rate_burst = 40;
    config.limits.rate_per_second = 20;
    let app = TestApp::spawn_with(config).await;
    let (mut alice, mut bob, _code) = two_at_a_table(&app, "Alice", "Bob").await;
    bob.state_at_least(0).await;

    // Bob floods: far more messages than the burst allows, all at once.
    for _ in 0..200 {
        bob.send_text(r#"{"type":"chat","channel":"players","text":"spam"}"#)
            .await;
    }
    let mut told = false;
    let closed = loop {
        match bob.try_next().await {
            Ok(ServerMsg::Error {
                code: ErrorCode::RateLimited,
                ..
            }) => told = true,
            Ok(_) => continue,
            Err(closed) => break closed,
        }
    };
    assert!(told, "the client is told why before it is closed");
    assert_eq!(closed.code, 1008);

    // The room plays on for Alice at the same version.
    assert_eq!(alice.act(json!({"type": "draw"})).await, Ok(1));
    app.stop().await;
}
on_both_stores!(a_flooding_client_is_told_then_closed_while_the_room_plays_on);

async fn a_connection_must_say_hello_first(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut raw = Client::connect_raw(app.port).await;
    raw.send(Message::Text(r#"{"type":"start"}"#.into()))
        .await
        .unwrap();
    let reply = raw.next().await.unwrap().unwrap();
    let msg: ServerMsg = serde_json::from_str(reply.to_text().unwrap()).unwrap();
    assert!(
        matches!(
            msg,
            ServerMsg::Error {
                code: ErrorCode::HelloFirst,
                ..
            }
        ),
        "{msg:?}"
    );
    raw.send(Message::Text(
        r#"{"type":"hello","token":"not-a-token"}"#.into(),
    ))
    .await
    .unwrap();
    let reply = raw.next().await.unwrap().unwrap();
    let msg: ServerMsg = serde_json::from_str(reply.to_text().unwrap()).unwrap();
    assert!(
        matches!(
            msg,
            ServerMsg::Error {
                code: ErrorCode::UnknownToken,
                ..
            }
        ),
        "{msg:?}"
    );
    app.stop().await;
}
on_both_stores!(a_connection_must_say_hello_first);

async fn a_connection_that_never_says_hello_is_closed(db: &TestDb) {
    let mut config = pandemonium_server::Config::for_tests(&db.url);
    config.limits.handshake_seconds = 1;
    let app = TestApp::spawn_with(config).await;
    let mut raw = Client::connect_raw(app.port).await;
    // The handshake's clock starts when the server takes the socket, a moment the test does
    // not see: time passes in steps until the server acts, well before a second handshake.
    let frame = passing_time(Duration::from_millis(250), 6, raw.next())
        .await
        .expect("the server acts within the handshake time");
    match frame {
        Some(Ok(Message::Close(Some(close)))) => assert_eq!(u16::from(close.code), 1008),
        other => panic!("expected a close frame, got {other:?}"),
    }
    app.stop().await;
}
on_both_stores_passing_time!(a_connection_that_never_says_hello_is_closed);

async fn a_connection_that_goes_silent_is_closed_as_idle(db: &TestDb) {
    let mut config = pandemonium_server::Config::for_tests(&db.url);
    config.limits.idle_seconds = 1;
    let app = TestApp::spawn_with(config).await;
    let mut client = app.guest("Sleepy").await;
    // Not reading means not answering the server's pings either.
    pass_time(Duration::from_millis(2_500)).await;
    let closed = client.closed().await;
    assert_eq!(closed.reason, "idle");
    app.stop().await;
}
on_both_stores_passing_time!(a_connection_that_goes_silent_is_closed_as_idle);

async fn a_spectator_cannot_take_a_seat_or_start(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut alice = app.guest("Alice").await;
    let mut eve = app.guest("Eve").await;
    let code = open_room(&app, &mut alice, "twenty_one", 2, vec![], json!({})).await;
    eve.join(&code, pandemonium_protocol::JoinRole::Spectator)
        .await;
    eve.send(&ClientMsg::TakeSeat { seat: 1 }).await;
    assert_eq!(eve.error_code().await, ErrorCode::Spectator);
    eve.send(&ClientMsg::Start).await;
    assert_eq!(eve.error_code().await, ErrorCode::NotHost);
    let room = alice.room_where(|r| r.spectators == 1).await;
    assert!(room.seats[1].player.is_none(), "the seat is still free");
    app.stop().await;
}
on_both_stores!(a_spectator_cannot_take_a_seat_or_start);
