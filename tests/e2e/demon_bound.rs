//! Demon Bound! over real WebSockets: a four-player match of bots played to the end, watched,
//! read back and replayed with the engine.

use serde_json::json;

use pandemonium_demon_bound::DemonBound;
use pandemonium_game_contract::{Game, Viewer};
use pandemonium_protocol::{ActionSource, JoinRole, MatchRecord, RoomSummary, ServerMsg};

use crate::on_both_stores;
use crate::play::{request, start};
use crate::support::{TestApp, TestDb};

async fn a_four_player_demon_bound_match_of_bots_is_played_to_the_end_and_read_back(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut host = app.guest("Host").await;
    // The round cap is only a safety net: bots end their matches long before it.
    let bots = request(
        "demon_bound",
        4,
        vec![0, 1, 2, 3],
        json!({"round_cap": 200}),
    );
    let response = app.http.post("/api/rooms", &bots, Some(&host.token)).await;
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
    assert!(!outcome.winners.is_empty(), "someone wins: {outcome:?}");
    assert_eq!(outcome.placements.len(), 4);

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
        kinds
            .iter()
            .filter(|k| **k == "setup_sacrifice" || **k == "setup_discard")
            .count(),
        4,
        "everyone made the secret setup choice"
    );
    assert!(kinds.contains(&"discard"));

    // The engine replays the stored (config, seed, log) to the same end.
    let game: DemonBound = crate::play::replay_record(&record, 4);
    assert_eq!(game.outcome(), Some(outcome));
    assert_eq!(
        serde_json::to_value(game.view(Viewer::Spectator)).unwrap(),
        over.view,
        "the watcher's last view is the replayed spectator view"
    );
    app.stop().await;
}
on_both_stores!(a_four_player_demon_bound_match_of_bots_is_played_to_the_end_and_read_back);
