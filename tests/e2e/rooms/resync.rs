//! Resync: a client that joins again with the version it has gets exactly the states it
//! missed, made again from the match's log, or the state whole.

use serde_json::json;

use pandemonium_protocol::{ClientMsg, GameState, JoinRole, RoomCode, ServerMsg};

use super::team_table;
use crate::on_both_stores;
use crate::play::{open_room, sit, start};
use crate::support::{Client, TestApp, TestDb};

/// Alice and Bob in a race to 500 (room for hundreds of versions), the match started.
async fn long_race(app: &TestApp) -> (Client, Client, RoomCode) {
    let mut alice = app.guest("Alice").await;
    let mut bob = app.guest("Bob").await;
    let code = open_room(app, &mut alice, "race", 2, vec![], json!({"goal": 500})).await;
    sit(&mut bob, &code, 1).await;
    start(&mut alice).await;
    (alice, bob, code)
}

async fn join_with_a_version_gets_exactly_the_missed_states(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let (mut alice, mut bob, code) = long_race(&app).await;
    bob.state_at_least(0).await;
    let token = bob.token.clone();
    bob.close().await;
    for version in 1..=3 {
        assert_eq!(alice.act(json!({"type": "step"})).await, Ok(version));
    }
    let mut bob = Client::with_token(app.port, &token).await;
    bob.rejoin(&code, 0).await;
    assert_eq!(states_before_hint(&mut bob).await, [1, 2, 3]);

    // Missed more than the room keeps: one fresh state instead.
    bob.close().await;
    for version in 4..=80 {
        assert_eq!(alice.act(json!({"type": "step"})).await, Ok(version));
    }
    let mut bob = Client::with_token(app.port, &token).await;
    bob.rejoin(&code, 3).await;
    assert_eq!(states_before_hint(&mut bob).await, [80]);
    app.stop().await;
}
on_both_stores!(join_with_a_version_gets_exactly_the_missed_states);

/// Spectators' frames are kept for resync only while someone watches. A spectator who stays
/// gets every version; one coming back after versions nobody watched gets the current state
/// whole, never a partial list.
async fn a_spectator_back_after_unwatched_versions_gets_the_state_whole(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut alice = app.guest("Alice").await;
    let mut bob = app.guest("Bob").await;
    let mut carol = app.guest("Carol").await;
    let code = open_room(&app, &mut alice, "race", 2, vec![], json!({"goal": 500})).await;
    sit(&mut bob, &code, 1).await;
    start(&mut alice).await;
    carol.join(&code, JoinRole::Spectator).await;
    carol.state_at_least(0).await;
    for version in 1..=2 {
        assert_eq!(alice.act(json!({"type": "step"})).await, Ok(version));
    }
    let mut watched = Vec::new();
    while watched.last() != Some(&2) {
        if let ServerMsg::State(state) = carol.next().await {
            watched.push(state.version);
        }
    }
    assert_eq!(watched, [1, 2], "a spectator who stays sees every version");
    let token = carol.token.clone();
    carol.close().await;
    for version in 3..=5 {
        assert_eq!(alice.act(json!({"type": "step"})).await, Ok(version));
    }
    let mut carol = Client::with_token(app.port, &token).await;
    carol
        .send(&ClientMsg::Join {
            room: code.clone(),
            role: JoinRole::Spectator,
            version: Some(2),
        })
        .await;
    carol.room_where(|r| r.you.is_none()).await;
    // A line of her own marks the end of what the join sent her.
    carol
        .send(&ClientMsg::Chat {
            channel: pandemonium_protocol::ChatChannel::Spectators,
            text: "back".into(),
        })
        .await;
    let mut versions = Vec::new();
    loop {
        match carol.next().await {
            ServerMsg::State(state) => versions.push(state.version),
            ServerMsg::Chat(line) if line.text == "back" => break,
            _ => {}
        }
    }
    assert_eq!(versions, [5]);
    app.stop().await;
}
on_both_stores!(a_spectator_back_after_unwatched_versions_gets_the_state_whole);

/// The versions of every state a client receives before the answer to a hint it asks for
/// (which comes after everything the room queued for it before).
async fn states_before_hint(client: &mut Client) -> Vec<u64> {
    let states = whole_states_before_hint(client).await;
    states.into_iter().map(|state| state.version).collect()
}

/// Every state a client receives before the answer to a hint it asks for.
async fn whole_states_before_hint(client: &mut Client) -> Vec<GameState> {
    client.room_where(|r| r.you.is_some()).await;
    client.send(&ClientMsg::Hint).await;
    let mut states = Vec::new();
    loop {
        match client.next().await {
            ServerMsg::State(state) => states.push(state),
            ServerMsg::Hint { .. } => return states,
            _ => {}
        }
    }
}

/// The room keeps no frames for resync: a rejoin's missed states are made again from the
/// match's log. They are the states that went out, version for version: the seat's own view
/// (its hand, its team's figures and nobody else's), its legal actions, and the clock each
/// state showed when it was sent.
async fn a_rejoin_is_sent_again_exactly_the_states_that_went_out(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let (mut players, code) = team_table(&app).await;
    for player in players.iter_mut() {
        player.state_at_least(0).await;
    }
    // Dan (seat 3) keeps every state as it reaches him.
    let mut went_out = Vec::new();
    for _ in 0..10 {
        let (actor, action) = (0..4)
            .find_map(|seat| {
                let state = players[seat].state.as_ref().expect("a state");
                let first = state
                    .legal
                    .first()
                    .filter(|_| state.to_act.contains(&(seat as u8)));
                first.map(|action| (seat, action.clone()))
            })
            .expect("someone may act");
        let version = players[actor].act(action).await.expect("a legal action");
        for player in players.iter_mut() {
            player.state_at_least(version).await;
        }
        let seen = players[3].state.clone().expect("a state");
        assert_eq!(seen.version, version);
        went_out.push(seen);
    }
    assert!(
        went_out.iter().any(|state| state.deadline_ms.is_some()),
        "a consultation's clock ran in some of them"
    );
    let dan = players.pop().expect("Dan");
    let token = dan.token.clone();
    dan.close().await;
    let mut dan = Client::with_token(app.port, &token).await;
    dan.rejoin(&code, 0).await;
    assert_eq!(whole_states_before_hint(&mut dan).await, went_out);
    app.stop().await;
}
on_both_stores!(a_rejoin_is_sent_again_exactly_the_states_that_went_out);

/// A rejoin after a long match replays it from a checkpoint the last rejoin left, not from the
/// start; the states come out the same either way.
async fn rejoins_late_in_a_long_match_are_sent_the_states_that_went_out(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let (mut alice, mut bob, code) = long_race(&app).await;
    let mut went_out = vec![bob.state_at_least(0).await];
    let token = bob.token.clone();
    for (rejoin_at, played_to) in [(60, 100), (70, 110), (105, 130)] {
        while went_out.len() <= played_to {
            let version = alice.act(json!({"type": "step"})).await.expect("a step");
            went_out.push(bob.state_at_least(version).await);
        }
        bob.close().await;
        bob = Client::with_token(app.port, &token).await;
        bob.rejoin(&code, rejoin_at as u64).await;
        assert_eq!(
            whole_states_before_hint(&mut bob).await,
            went_out[rejoin_at + 1..],
            "rejoined at version {rejoin_at}"
        );
    }
    app.stop().await;
}
on_both_stores!(rejoins_late_in_a_long_match_are_sent_the_states_that_went_out);
