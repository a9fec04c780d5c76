//! Patch frames (`hello {patches: true}`): a client that asks for them rebuilds, version by
//! version, exactly the states a client that did not ask is sent whole; a rejoin gets whole
//! states and patches resume after them; nobody who did not ask ever gets one; a state
//! smaller than `--patch-min-bytes` goes whole.

use serde_json::json;
use std::collections::BTreeMap;

use pandemonium_protocol::{GameState, JoinRole, RoomCode, ServerMsg};

use crate::on_both_stores;
use crate::play::{open_room, sit, start};
use crate::support::{Client, TestApp, TestDb};

/// A server that patches every state, however small, so that the tests' tables (a few hundred
/// bytes a state) exercise the patches.
async fn patching_every_state(db: &TestDb) -> TestApp {
    let mut config = pandemonium_server::Config::for_tests(&db.url);
    config.patch_min_bytes = 0;
    TestApp::spawn_with(config).await
}

/// A race between Alice and Bob, who takes patches, three steps in: Alice's steps are
/// versions 1 to 3.
async fn a_race_with_a_patch_taker(app: &TestApp) -> (Client, Client, RoomCode) {
    let mut alice = app.guest("Alice").await;
    let mut bob = Client::guest_taking_patches(app.port, "Bob").await;
    let code: RoomCode = open_room(app, &mut alice, "race", 2, vec![], json!({"goal": 500})).await;
    sit(&mut bob, &code, 1).await;
    start(&mut alice).await;
    for version in 1..=3 {
        assert_eq!(alice.act(json!({"type": "step"})).await, Ok(version));
    }
    (alice, bob, code)
}

/// Reads every state a spectator is sent until the match ends, by version.
async fn watch_to_the_end(mut client: Client) -> (BTreeMap<u64, GameState>, Client) {
    let mut states = BTreeMap::new();
    loop {
        if let ServerMsg::State(state) = client.next().await {
            let over = state.outcome.is_some();
            states.insert(state.version, state);
            if over {
                return (states, client);
            }
        }
    }
}

/// Plays the first legal action whenever `player` may act, until the match ends.
async fn play_first_legal_to_the_end(player: &mut Client) -> GameState {
    loop {
        let state = player.state.clone().expect("a state");
        if state.outcome.is_some() {
            return state;
        }
        match state.legal.first() {
            Some(action) => {
                // A bot or the clock may have moved first: a refusal just means look again.
                let _ = player.act(action.clone()).await;
            }
            None => {
                player.state_at_least(state.version + 1).await;
            }
        }
    }
}

async fn a_client_taking_patches_rebuilds_every_state_sent_whole_to_others(db: &TestDb) {
    let app = patching_every_state(db).await;
    let mut alice = Client::guest_taking_patches(app.port, "Alice").await;
    let code = open_room(
        &app,
        &mut alice,
        "demos",
        4,
        vec![1, 2, 3],
        json!({"mode": "simplified"}),
    )
    .await;
    let mut carol = Client::guest_taking_patches(app.port, "Carol").await;
    let mut dave = app.guest("Dave").await;
    let mut erin = Client::guest_taking_json_patches(app.port, "Erin").await;
    carol.join(&code, JoinRole::Spectator).await;
    dave.join(&code, JoinRole::Spectator).await;
    erin.join(&code, JoinRole::Spectator).await;
    let carol = tokio::spawn(watch_to_the_end(carol));
    let dave = tokio::spawn(watch_to_the_end(dave));
    let erin = tokio::spawn(watch_to_the_end(erin));
    start(&mut alice).await;
    let alice_final = play_first_legal_to_the_end(&mut alice).await;

    let (patched, carol) = carol.await.unwrap();
    let (whole, dave) = dave.await.unwrap();
    // Erin reads JSON Patch's operations only (she would fail on anything else).
    let (json_patched, erin) = erin.await.unwrap();
    assert_eq!(
        json_patched, whole,
        "every version rebuilt from JSON Patch operations"
    );
    assert!(erin.patches_applied > 10);
    assert_eq!(
        patched.keys().last(),
        whole.keys().last(),
        "both spectators saw the match to its end"
    );
    assert_eq!(patched.len(), whole.len(), "both were sent every version");
    for (version, state) in &whole {
        assert_eq!(
            patched.get(version),
            Some(state),
            "version {version} rebuilt from patches"
        );
    }
    assert!(
        carol.patches_applied > 10,
        "{} patches",
        carol.patches_applied
    );
    assert_eq!(dave.patches_applied, 0);
    assert!(
        carol.state_bytes * 2 < dave.state_bytes,
        "patches carry less: {} bytes against {}",
        carol.state_bytes,
        dave.state_bytes
    );

    // The seat: what Alice rebuilt is what a fresh connection of hers is sent whole. Each
    // step's new list of legal actions came to her as its products.
    assert!(alice.patches_applied > 10);
    assert!(
        alice.products_applied > 5,
        "{} products",
        alice.products_applied
    );
    let mut fresh = Client::with_token(app.port, &alice.token).await;
    fresh.join(&code, JoinRole::Player).await;
    let sent_whole = fresh.state_at_least(alice_final.version).await;
    assert_eq!(sent_whole, alice_final);
    app.stop().await;
}
on_both_stores!(a_client_taking_patches_rebuilds_every_state_sent_whole_to_others);

async fn a_rejoin_gets_whole_states_and_patches_resume_after_them(db: &TestDb) {
    let app = patching_every_state(db).await;
    let (mut alice, mut bob, code) = a_race_with_a_patch_taker(&app).await;
    bob.state_at_least(3).await;
    assert!(bob.patches_applied >= 3);
    let token = bob.token.clone();
    bob.close().await;
    for version in 4..=6 {
        assert_eq!(alice.act(json!({"type": "step"})).await, Ok(version));
    }

    let mut bob = Client::with_token_taking_patches(app.port, &token).await;
    bob.rejoin(&code, 3).await;
    assert_eq!(bob.state_at_least(6).await.version, 6);
    assert_eq!(bob.patches_applied, 0, "missed states come whole");
    for version in 7..=9 {
        assert_eq!(alice.act(json!({"type": "step"})).await, Ok(version));
    }
    let rebuilt = bob.state_at_least(9).await;
    assert_eq!(bob.patches_applied, 3, "patches resume after the rejoin");

    let mut fresh = Client::with_token(app.port, &token).await;
    fresh.join(&code, JoinRole::Player).await;
    assert_eq!(fresh.state_at_least(9).await, rebuilt);
    app.stop().await;
}
on_both_stores!(a_rejoin_gets_whole_states_and_patches_resume_after_them);

/// By default only states of 4 KiB or more are patched: the race's few hundred bytes go
/// whole, and the client that asked for patches holds exactly what it would from patches.
async fn a_state_smaller_than_the_patch_size_goes_whole(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let (_alice, mut bob, code) = a_race_with_a_patch_taker(&app).await;
    let state = bob.state_at_least(3).await;
    assert_eq!(bob.patches_applied, 0, "every state came whole");
    let mut fresh = Client::with_token(app.port, &bob.token).await;
    fresh.join(&code, JoinRole::Player).await;
    assert_eq!(fresh.state_at_least(3).await, state);
    app.stop().await;
}
on_both_stores!(a_state_smaller_than_the_patch_size_goes_whole);
