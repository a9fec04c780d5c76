//! The room's promises about time, bots, commits and resync, over real sockets: an act is
//! applied exactly once however often it is sent, a rule window keeps its deadline, every bot
//! acts, a match's result is written with its last action, and a client that rejoins gets
//! exactly the states it missed.

use serde_json::json;
use std::time::Duration;

use pandemonium_protocol::ErrorCode;
use pandemonium_protocol::{
    ActionSource, ClientMsg, CreateRoom, GameState, JoinRole, MatchRecord, Presence, RoomSnapshot,
    RoomStatus, ServerMsg,
};
use pandemonium_server::store::{MatchStatus, Store};

use crate::on_both_stores;
use crate::play::{host_room, open_room, request, sit, start, two_at_a_table};
use crate::restart::{launch, launch_with};
use crate::support::ws::reason;
use crate::support::{Client, Http, TestApp, TestDb};

/// What the server answered an act.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Answer {
    Ack(u64),
    Reject(String),
}

/// Sends an act with an explicit `seq` and waits for the answer that carries that seq.
async fn act_as(client: &mut Client, seq: u64, action: serde_json::Value) -> Answer {
    client.send(&ClientMsg::Act { seq, action }).await;
    client
        .wait_for(|m| match m {
            ServerMsg::Ack { seq: s, version } if *s == seq => Some(Answer::Ack(*version)),
            ServerMsg::Reject {
                seq: s, code, rule, ..
            } if *s == seq => Some(Answer::Reject(reason(*code, rule))),
            _ => None,
        })
        .await
}

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

/// A room change goes to everyone in the room at once. Each seat's snapshot names that seat
/// and the last act the room answered for it; the watchers' snapshot names neither, and
/// everything else is the same for all.
async fn a_room_change_tells_each_seat_its_own_snapshot_and_the_watchers_theirs(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let (mut alice, mut bob, code) = two_at_a_table(&app, "Alice", "Bob").await;
    assert_eq!(
        act_as(&mut alice, 5, json!({"type": "draw"})).await,
        Answer::Ack(1)
    );
    assert_eq!(
        act_as(&mut bob, 9, json!({"type": "stand"})).await,
        Answer::Ack(2)
    );
    let mut carol = Client::guest(app.port, "Carol").await;
    carol.join(&code, JoinRole::Spectator).await;
    let mut dan = Client::guest(app.port, "Dan").await;
    dan.join(&code, JoinRole::Spectator).await;

    let two_watching = |r: &RoomSnapshot| r.spectators == 2;
    let to_alice = alice.room_where(two_watching).await;
    let to_bob = bob.room_where(two_watching).await;
    let to_carol = carol.room_where(two_watching).await;
    let to_dan = dan.room_where(two_watching).await;
    assert_eq!((to_alice.you, to_alice.last_seq), (Some(0), Some(5)));
    assert_eq!((to_bob.you, to_bob.last_seq), (Some(1), Some(9)));
    assert_eq!((to_carol.you, to_carol.last_seq), (None, None));
    assert_eq!(to_dan, to_carol, "every watcher sees the same snapshot");
    let public = |r: RoomSnapshot| RoomSnapshot {
        you: None,
        last_seq: None,
        ..r
    };
    assert_eq!(public(to_alice), to_carol);
    assert_eq!(public(to_bob), to_carol);
    app.stop().await;
}
on_both_stores!(a_room_change_tells_each_seat_its_own_snapshot_and_the_watchers_theirs);

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

/// Alice, Bob, Cleo and Dan at a DēmoS 2 vs 2 table, in seats 0 to 3, the match started.
async fn team_table(app: &TestApp) -> (Vec<Client>, pandemonium_protocol::RoomCode) {
    let mut players = Vec::new();
    for name in ["Alice", "Bob", "Cleo", "Dan"] {
        players.push(app.guest(name).await);
    }
    let options = json!({"mode": "team_2v2"});
    let code = open_room(app, &mut players[0], "demos", 4, vec![], options).await;
    for (seat, player) in players.iter_mut().enumerate().skip(1) {
        sit(player, &code, seat as u8).await;
    }
    start(&mut players[0]).await;
    (players, code)
}

async fn a_team_consultation_window_keeps_its_deadline_when_a_teammate_acts(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let (mut players, _code) = team_table(&app).await;
    let first = players[0].state_at_least(0).await;
    assert_eq!(first.to_act.len(), 4, "the round opens with a consultation");
    let deadline = first.deadline_ms.expect("the rules' 15 s window runs");
    assert!(deadline > 14_000, "{deadline}");
    // Time passes, then Alice's teammate (seat 2) ends their part of the consultation.
    // (Not a timer test: the window's clock is pinned by unit tests with explicit instants;
    // this shows the frames people receive agree.)
    crate::support::pass_time(Duration::from_millis(400)).await;
    let teammate = first.to_act[2];
    assert_eq!(teammate, 2);
    let proceed = json!({"type": "proceed"});
    players[2]
        .act(proceed)
        .await
        .expect("the teammate proceeds");
    let after = players[0].state_at_least(1).await;
    let left = after.deadline_ms.expect("the window is still open");
    assert!(
        left + 300 <= deadline,
        "the window was not restarted by the teammate's action: {deadline} ms then {left} ms"
    );
    app.stop().await;
}
crate::on_both_stores_passing_time!(
    a_team_consultation_window_keeps_its_deadline_when_a_teammate_acts
);

async fn every_bot_seat_acts_side_by_side_in_a_real_time_game(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut host = app.guest("Hostess").await;
    let request = request("race", 4, vec![0, 1, 2, 3], json!({"goal": 12}));
    let response = app
        .http
        .post("/api/rooms", &request, Some(&host.token))
        .await;
    assert_eq!(response.status, 201, "{}", response.body);
    let code: pandemonium_protocol::RoomSummary = response.json();
    host.join(&code.code, JoinRole::Player).await;
    host.send(&ClientMsg::Start).await;
    host.room_where(|r| r.status == RoomStatus::Playing).await;
    let over = wait_for_outcome(&mut host).await;
    let match_id = host.room.clone().unwrap().match_id.unwrap();
    let record = finished_record(&app.http, &match_id).await;
    assert_eq!(over.version as usize, record.log.len());
    assert!(record.log.iter().all(|l| l.by == ActionSource::Bot));
    let mut first_moves: Vec<u8> = record.log[..4].iter().map(|l| l.seat).collect();
    first_moves.sort();
    assert_eq!(
        first_moves,
        [0, 1, 2, 3],
        "every bot makes its first move before any bot makes its second"
    );
    for seat in 0..4u8 {
        assert!(
            record.log.iter().filter(|l| l.seat == seat).count() >= 3,
            "bot {seat} kept racing"
        );
    }
    app.stop().await;
}
on_both_stores!(every_bot_seat_acts_side_by_side_in_a_real_time_game);

async fn a_real_time_game_has_no_turn_clock_and_the_first_arrival_wins_a_race(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut alice = app.guest("Alice").await;
    let mut bob = app.guest("Bob").await;
    let request = CreateRoom {
        turn_seconds: Some(1),
        ..request("race", 2, vec![], json!({}))
    };
    let code = host_room(&app, &mut alice, &request, 0).await;
    sit(&mut bob, &code, 1).await;
    start(&mut alice).await;
    let state = alice.state_at_least(0).await;
    assert_eq!(
        state.deadline_ms, None,
        "no per-turn clock in a real-time game"
    );
    // Both grab token 0 at once: exactly one wins, the other loses the race.
    let grab = json!({"type": "grab", "token": 0});
    alice
        .send(&ClientMsg::Act {
            seq: 1,
            action: grab.clone(),
        })
        .await;
    bob.send(&ClientMsg::Act {
        seq: 1,
        action: grab,
    })
    .await;
    let answers = [
        act_answer(&mut alice, 1).await,
        act_answer(&mut bob, 1).await,
    ];
    let acks = answers
        .iter()
        .filter(|a| matches!(a, Answer::Ack(1)))
        .count();
    let lost = answers
        .iter()
        .filter(|a| **a == Answer::Reject("token_taken".into()))
        .count();
    assert_eq!((acks, lost), (1, 1), "{answers:?}");
    app.stop().await;
}
on_both_stores!(a_real_time_game_has_no_turn_clock_and_the_first_arrival_wins_a_race);

async fn act_answer(client: &mut Client, seq: u64) -> Answer {
    client
        .wait_for(|m| match m {
            ServerMsg::Ack { seq: s, version } if *s == seq => Some(Answer::Ack(*version)),
            ServerMsg::Reject {
                seq: s, code, rule, ..
            } if *s == seq => Some(Answer::Reject(reason(*code, rule))),
            _ => None,
        })
        .await
}

async fn wait_for_outcome(client: &mut Client) -> GameState {
    client
        .wait_for(|m| match m {
            ServerMsg::State(s) if s.outcome.is_some() => Some(s.clone()),
            _ => None,
        })
        .await
}

async fn finished_record(http: &Http, match_id: &str) -> MatchRecord {
    for _ in 0..100 {
        let record: MatchRecord = http.get(&format!("/api/matches/{match_id}")).await.json();
        if record.finished {
            return record;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("match {match_id} never read back as finished");
}

/// Alice and Bob in a race to 500 (room for hundreds of versions), the match started.
async fn long_race(app: &TestApp) -> (Client, Client, pandemonium_protocol::RoomCode) {
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

async fn a_seat_cannot_be_left_while_its_match_runs(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let (_alice, mut bob, _code) = two_at_a_table(&app, "Alice", "Bob").await;
    bob.send(&ClientMsg::LeaveSeat).await;
    assert_eq!(bob.error_code().await, ErrorCode::MatchStarted);
    bob.send(&ClientMsg::Chat {
        channel: pandemonium_protocol::ChatChannel::Players,
        text: "still here".into(),
    })
    .await;
    bob.next_chat().await;
    let room = bob.room.clone().unwrap();
    assert_eq!(room.you, Some(1));
    assert_eq!(
        room.seats[1].presence,
        Presence::Online,
        "no bot took the seat"
    );
    app.stop().await;
}
on_both_stores!(a_seat_cannot_be_left_while_its_match_runs);

async fn a_match_result_is_written_with_its_last_action_even_under_kill_9(db: &TestDb) {
    let server = launch_with(db, &["--test-abort-after-finish"]).await;
    let app = TestApp::attach(server.port);
    let mut alice = Client::guest(server.port, "Alice").await;
    open_room(&app, &mut alice, "twenty_one", 1, vec![], json!({})).await;
    start(&mut alice).await;
    let match_id = alice.room.clone().unwrap().match_id.unwrap();
    alice.seq_act_without_answer(json!({"type": "stand"})).await;
    // The process ends itself the moment the finishing write commits.
    let mut server = server;
    let exit = tokio::time::timeout(Duration::from_secs(20), server.child.wait())
        .await
        .expect("the test hook stops the process")
        .expect("an exit status");
    assert!(!exit.success());

    let store = Store::connect(&db.url).await.unwrap();
    let stored = store.get_match(&match_id).await.unwrap().unwrap();
    assert_eq!(stored.status, MatchStatus::Finished);
    assert!(stored.outcome.is_some());
    assert_eq!(stored.log.len(), 1);
    // A store written by a server that kept the result apart (the last action saved, the
    // status not): the match running, its log in its running rows. The restarted server
    // finishes it rather than abandoning it.
    store.close().await;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&db.url).await.unwrap();
    for sql in [
        "UPDATE matches SET status = 'running', outcome = NULL, finished_at = NULL, log = NULL \
         WHERE id = $1",
        "DELETE FROM running_actions WHERE match_id = $1",
    ] {
        sqlx::query(sql)
            .bind(&match_id)
            .execute(&pool)
            .await
            .unwrap();
    }
    for (index, logged) in stored.log.iter().enumerate() {
        sqlx::query(
            "INSERT INTO running_actions (match_id, idx, seat, action, source, seq, at) \
             VALUES ($1, $2, $3, $4, 'player', $5, 0)",
        )
        .bind(&match_id)
        .bind(index as i64)
        .bind(i64::from(logged.seat))
        .bind(logged.action.to_string())
        .bind(logged.seq.map(|seq| seq as i64))
        .execute(&pool)
        .await
        .unwrap();
    }
    pool.close().await;
    let second = launch(db).await;
    let record = finished_record(&Http::new(second.port), &match_id).await;
    assert!(record.outcome.is_some());
    assert_eq!(record.log.len(), 1);
    drop(second);
}
on_both_stores!(a_match_result_is_written_with_its_last_action_even_under_kill_9);

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
