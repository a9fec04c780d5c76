//! Daemon Dice played by bots over WebSockets, watched, read back and replayed.

use serde_json::json;

use pandemonium_daemon_dice::DaemonDice;
use pandemonium_game_contract::{Game, Viewer};
use pandemonium_protocol::{ActionSource, JoinRole, MatchRecord, RoomSummary, ServerMsg};

use crate::on_both_stores;
use crate::play::{replay_record, request, start};
use crate::support::{TestApp, TestDb};

async fn a_three_player_battle_of_bots_is_played_to_the_end_and_replays_exactly(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut host = app.guest("Host").await;
    let battle = request("daemon_dice", 3, vec![0, 1, 2], json!({"size": 5}));
    let response = app
        .http
        .post("/api/rooms", &battle, Some(&host.token))
        .await;
    assert_eq!(response.status, 201, "{}", response.body);
    let room: RoomSummary = response.json();
    host.join(&room.code, JoinRole::Player).await;
    start(&mut host).await;
    let over = host
        .wait_for(|m| match m {
            ServerMsg::State(s) if s.outcome.is_some() => Some(s.clone()),
            _ => None,
        })
        .await;
    let outcome = over.outcome.clone().unwrap();
    assert_eq!(outcome.placements.len(), 3);
    assert_eq!(outcome.winners.len(), 1, "one daemon is left standing");
    assert_eq!(over.view["defeated"].as_array().unwrap().len(), 2);

    let match_id = host.room.clone().unwrap().match_id.unwrap();
    let record: MatchRecord = app
        .http
        .get(&format!("/api/matches/{match_id}"))
        .await
        .json();
    assert!(record.finished);
    assert_eq!(record.outcome, Some(outcome.clone()));
    assert_eq!(record.log.len() as u64, over.version);
    assert!(record.log.iter().all(|l| l.by == ActionSource::Bot));
    let kinds: Vec<&str> = record
        .log
        .iter()
        .map(|l| l.action["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "pick").count(),
        15,
        "three daemons of five dice were built"
    );
    assert!(
        kinds.contains(&"target"),
        "the bots chose targets: {kinds:?}"
    );
    assert!(
        kinds.contains(&"name_next"),
        "a defeated daemon named the next"
    );

    // The stored seed and log replay the battle to the same end, seen from any seat.
    let game: DaemonDice = replay_record(&record, 3);
    assert_eq!(game.outcome(), Some(outcome));
    let mut replayed = serde_json::to_value(game.view(Viewer::Spectator)).unwrap();
    let mut seen = over.view.clone();
    replayed["you"] = json!(null);
    seen["you"] = json!(null);
    assert_eq!(replayed, seen);
    app.stop().await;
}
on_both_stores!(a_three_player_battle_of_bots_is_played_to_the_end_and_replays_exactly);
