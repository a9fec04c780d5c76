//! Chat: lines are cleaned of control and bidirectional override characters, and a flood of
//! spectator chat is bounded per room.

use serde_json::json;

use pandemonium_protocol::{ClientMsg, ErrorCode, JoinRole, ServerMsg};

use crate::on_both_stores;
use crate::play::open_room;
use crate::support::{TestApp, TestDb};

async fn chat_lines_lose_control_and_bidirectional_override_characters(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut alice = app.guest("Alice").await;
    let code = open_room(&app, &mut alice, "twenty_one", 2, vec![], json!({})).await;
    let mut watcher = app.guest("Watcher").await;
    watcher.join(&code, JoinRole::Spectator).await;
    // A line of nothing that shows by itself (a joiner and an accent on nothing) is refused.
    alice
        .send(&ClientMsg::Chat {
            channel: pandemonium_protocol::ChatChannel::Players,
            text: "\u{200D}\u{0301}\u{FE0F}".into(),
        })
        .await;
    loop {
        match alice.next().await {
            ServerMsg::Error { code, .. } => {
                assert_eq!(code, ErrorCode::BadChat);
                break;
            }
            ServerMsg::Chat(line) => panic!("an empty line was carried: {line:?}"),
            _ => {}
        }
    }
    alice
        .send(&ClientMsg::Chat {
            channel: pandemonium_protocol::ChatChannel::Players,
            text: "\u{202E}sniw boB\u{202C} \u{0007}ok".into(),
        })
        .await;
    assert_eq!(watcher.next_chat().await.text, "sniw boB ok");
    app.stop().await;
}
on_both_stores!(chat_lines_lose_control_and_bidirectional_override_characters);

async fn a_flood_of_spectator_chat_is_bounded_per_room(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut alice = app.guest("Alice").await;
    let code = open_room(&app, &mut alice, "twenty_one", 2, vec![], json!({})).await;
    let mut loud = app.guest("Loud").await;
    loud.join(&code, JoinRole::Spectator).await;
    for i in 0..30 {
        loud.send(&ClientMsg::Chat {
            channel: pandemonium_protocol::ChatChannel::Spectators,
            text: format!("line {i}"),
        })
        .await;
    }
    loud.send(&ClientMsg::Hint).await;
    let (mut lines, mut limited) = (0, 0);
    loop {
        match loud.next().await {
            ServerMsg::Chat(_) => lines += 1,
            ServerMsg::Error {
                code: ErrorCode::RateLimited,
                ..
            } => limited += 1,
            ServerMsg::Error {
                code: ErrorCode::NoHint,
                ..
            } => break,
            _ => {}
        }
    }
    assert!((8..30).contains(&lines), "{lines} lines carried");
    assert_eq!(
        lines + limited,
        30,
        "every line was carried or refused, none dropped"
    );
    app.stop().await;
}
on_both_stores!(a_flood_of_spectator_chat_is_bounded_per_room);
