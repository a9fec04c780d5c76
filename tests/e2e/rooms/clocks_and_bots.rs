//! Time and bots: a rule window keeps its deadline, every bot seat acts, and a real-time game
//! has no turn clock, the first arrival winning a race.

use serde_json::json;
use std::time::Duration;

use pandemonium_protocol::{ActionSource, ClientMsg, CreateRoom, JoinRole, RoomStatus};

use super::{Answer, act_answer, finished_record, team_table, wait_for_outcome};
use crate::on_both_stores;
use crate::play::{host_room, request, sit, start};
use crate::support::{TestApp, TestDb};

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
