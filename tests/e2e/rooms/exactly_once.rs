//! Exactly once: an act sent again (after a lost answer, or after a restart) is applied once
//! and answered as the first time.

use serde_json::json;

use pandemonium_protocol::JoinRole;

use super::{Answer, act_as};
use crate::on_both_stores;
use crate::play::{open_room, sit, start, two_at_a_table};
use crate::restart::launch;
use crate::support::{Client, TestApp, TestDb};

async fn a_resent_act_is_applied_once_and_answered_as_the_first_time(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let (mut alice, mut bob, code) = two_at_a_table(&app, "Alice", "Bob").await;

    let draw = json!({"type": "draw"});
    assert_eq!(act_as(&mut alice, 5, draw.clone()).await, Answer::Ack(1));
    assert_eq!(
        act_as(&mut alice, 5, draw.clone()).await,
        Answer::Ack(1),
        "the same seq again: the original ack, nothing applied"
    );
    // Out of turn: refused, and refused again when resent even once it would be legal.
    assert_eq!(
        act_as(&mut alice, 6, draw.clone()).await,
        Answer::Reject("not_your_turn".into())
    );
    assert_eq!(
        bob.act(json!({"type": "stand"})).await,
        Ok(2),
        "one action was applied, not two"
    );
    alice.state_at_least(2).await;
    assert_eq!(
        act_as(&mut alice, 6, draw.clone()).await,
        Answer::Reject("not_your_turn".into()),
        "a resent refused act gets its original refusal"
    );
    assert_eq!(act_as(&mut alice, 7, draw.clone()).await, Answer::Ack(3));

    // After a reconnect on a new connection: the room remembers per seat.
    let token = alice.token.clone();
    alice.close().await;
    let mut alice = Client::with_token(app.port, &token).await;
    let room = alice.join(&code, JoinRole::Player).await;
    assert_eq!(
        room.last_seq,
        Some(7),
        "the rejoining client learns its last seq"
    );
    assert_eq!(act_as(&mut alice, 7, draw.clone()).await, Answer::Ack(3));
    assert_eq!(
        alice.state_at_least(3).await.version,
        3,
        "the resend changed nothing"
    );
    app.stop().await;
}
on_both_stores!(a_resent_act_is_applied_once_and_answered_as_the_first_time);

async fn a_resent_act_after_a_server_restart_is_answered_from_the_log(db: &TestDb) {
    let first = launch(db).await;
    let app = TestApp::attach(first.port);
    let mut alice = Client::guest(first.port, "Alice").await;
    let mut bob = Client::guest(first.port, "Bob").await;
    let code = open_room(&app, &mut alice, "twenty_one", 2, vec![], json!({})).await;
    sit(&mut bob, &code, 1).await;
    start(&mut alice).await;
    let draw = json!({"type": "draw"});
    assert_eq!(act_as(&mut alice, 41, draw.clone()).await, Answer::Ack(1));

    let mut first = first;
    first.child.kill().await.expect("kill -9");
    let second = launch(db).await;
    let mut alice = Client::with_token(second.port, &alice.token).await;
    let room = alice.join(&code, JoinRole::Player).await;
    assert_eq!(
        room.last_seq,
        Some(41),
        "the seq was stored with the action"
    );
    assert_eq!(
        act_as(&mut alice, 41, draw).await,
        Answer::Ack(1),
        "the resent act after the restart gets its original ack"
    );
    let mut bob = Client::with_token(second.port, &bob.token).await;
    bob.join(&code, JoinRole::Player).await;
    assert_eq!(
        bob.act(json!({"type": "stand"})).await,
        Ok(2),
        "the resend applied nothing"
    );
    drop(second);
}
on_both_stores!(a_resent_act_after_a_server_restart_is_answered_from_the_log);
