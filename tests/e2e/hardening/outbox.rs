//! What the room releases at once of its own accord is not a client falling behind: a rejoin
//! that missed everything, a burst of acts at the rate limit.

use serde_json::json;

use pandemonium_protocol::{ChatChannel, ClientMsg, ErrorCode, ServerMsg};
use pandemonium_server::Config;

use crate::on_both_stores;
use crate::play::{open_room, sit, start};
use crate::support::{Client, TestApp, TestDb};

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
