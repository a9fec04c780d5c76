//! Real games played to the end over WebSockets, then read back and replayed.

use serde_json::{Value, json};

use pandemonium_protocol::ErrorCode;
use pandemonium_protocol::{ClientMsg, JoinRole, MatchRecord, Replay, RoomSummary};

use crate::on_both_stores;
use crate::play::{host_room, request, start};
use crate::support::{TestApp, TestDb};

/// The Independent's policy: veto at the first chance, keep the four 7s (discard anything
/// else, taking from the pack), aim the Media at the first face-down figure it may, and
/// otherwise take the first legal action.
fn independent_choice(legal: &[Value]) -> Value {
    let kind = |a: &Value| a["type"].as_str().unwrap_or_default().to_string();
    if let Some(veto) = legal.iter().find(|a| kind(a) == "veto") {
        return veto.clone();
    }
    if let Some(media) = legal.iter().find(|a| kind(a) == "media") {
        return media.clone();
    }
    let keeps_sevens = |a: &Value| {
        let card = a["card"].as_str().unwrap_or("");
        !card.starts_with('7') && (a.get("take").is_none() || a["take"] == json!("pack"))
    };
    let discards = ["public_discard", "secret_discard", "unanimous_discard"];
    if let Some(discard) = legal
        .iter()
        .find(|a| discards.contains(&kind(a).as_str()) && keeps_sevens(a))
    {
        return discard.clone();
    }
    legal
        .first()
        .cloned()
        .expect("a seat to act has a legal action")
}

async fn a_2v2_plus_1_match_with_a_veto_a_square_and_a_media_is_played_and_replayed(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut independent = app.guest("Independent").await;
    let rigged = request(
        "demos_rigged",
        5,
        vec![0, 1, 2, 3],
        json!({"mode": "team_2v2_plus_1"}),
    );
    host_room(&app, &mut independent, &rigged, 4).await;
    start(&mut independent).await;

    let mut saw_square = false;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let final_state = loop {
        assert!(
            std::time::Instant::now() < deadline,
            "the match ends within a minute"
        );
        let state = independent.state.clone().expect("a state");
        let last = &state.view["last_round"];
        if last["round"] == json!(1)
            && last["combinations"][4]["kind"] == json!("harmonious_square")
        {
            saw_square = true;
        }
        if state.outcome.is_some() {
            break state;
        }
        if state.to_act.contains(&4) && !state.legal.is_empty() {
            let action = independent_choice(&state.legal);
            let version = independent.act(action.clone()).await;
            assert!(version.is_ok(), "{action} was refused: {version:?}");
        } else {
            independent.state_at_least(state.version + 1).await;
        }
    };
    assert!(
        saw_square,
        "the Independent won round 1 with the Harmonious Square"
    );

    let match_id = independent.room.clone().unwrap().match_id.unwrap();
    let record: MatchRecord = app
        .http
        .get(&format!("/api/matches/{match_id}"))
        .await
        .json();
    assert!(record.finished);
    let kinds: Vec<&str> = record
        .log
        .iter()
        .map(|l| l.action["type"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"veto"), "a veto was played: {kinds:?}");
    assert!(
        kinds.contains(&"media"),
        "a Media action was played: {kinds:?}"
    );
    assert_eq!(record.log.len() as u64, final_state.version);

    // The server's replay, fully revealed, steps to the same final position.
    let replay: Replay = app
        .http
        .get(&format!("/api/matches/{match_id}/replay?viewer=seat:4"))
        .await
        .json();
    assert_eq!(replay.frames.len(), record.log.len() + 1);
    assert_eq!(replay.frames.last().unwrap().view, final_state.view);
    assert_eq!(replay.outcome, final_state.outcome);
    app.stop().await;
}
on_both_stores!(a_2v2_plus_1_match_with_a_veto_a_square_and_a_media_is_played_and_replayed);

async fn team_chat_is_open_to_the_team_only_and_only_during_a_consultation_window(db: &TestDb) {
    use pandemonium_protocol::{ChatChannel, ServerMsg};
    let app = TestApp::spawn(db).await;
    let mut ana = app.guest("Ana").await;
    let mut ben = app.guest("Ben").await;
    let mut eve = app.guest("Eve").await;
    let teams = request("demos", 4, vec![1, 3], json!({"mode": "team_2v2"}));
    let code = host_room(&app, &mut ana, &teams, 0).await;
    crate::play::sit(&mut ben, &code, 2).await;
    eve.join(&code, JoinRole::Spectator).await;
    start(&mut ana).await;

    // The round opens with a consultation: seats 0 and 2 (team 0) may talk.
    let snapshot = ana.room_where(|r| r.team_chat_open).await;
    assert_eq!(snapshot.seats[2].team, Some(0));
    ana.send(&ClientMsg::Chat {
        channel: ChatChannel::Team,
        text: "keep the hearts".into(),
    })
    .await;
    let line = ben
        .wait_for(|m| match m {
            ServerMsg::Chat(line) if line.channel == ChatChannel::Team => Some(line.clone()),
            _ => None,
        })
        .await;
    assert_eq!(
        (line.from.as_str(), line.text.as_str()),
        ("Ana", "keep the hearts")
    );

    // Both end the consultation; the window closes and team talk is refused.
    for player in [&mut ana, &mut ben] {
        let legal = player.state_at_least(0).await.legal;
        assert!(legal.contains(&json!({"type": "proceed"})), "{legal:?}");
        player
            .act(json!({"type": "proceed"}))
            .await
            .expect("proceed is legal");
    }
    ana.room_where(|r| !r.team_chat_open).await;
    ana.send(&ClientMsg::Chat {
        channel: ChatChannel::Team,
        text: "psst".into(),
    })
    .await;
    assert_eq!(ana.error_code().await, ErrorCode::TeamChatClosed);

    // The spectator never saw the team's line.
    eve.send(&ClientMsg::Chat {
        channel: ChatChannel::Spectators,
        text: "marker".into(),
    })
    .await;
    let first_chat = eve.next_chat().await;
    assert_eq!(
        first_chat.text, "marker",
        "team talk never reaches spectators"
    );
    app.stop().await;
}
on_both_stores!(team_chat_is_open_to_the_team_only_and_only_during_a_consultation_window);

async fn a_soulitaire_match_is_played_to_the_end_by_a_player_and_replays_exactly(db: &TestDb) {
    use pandemonium_game_contract::{Game, Viewer};
    use pandemonium_soulitaire::{Soulitaire, View, hint};
    let app = TestApp::spawn(db).await;
    let mut player = app.guest("Solo").await;
    crate::play::open_room(&app, &mut player, "soulitaire", 1, vec![], json!({})).await;
    start(&mut player).await;
    let final_state = loop {
        let state = player.state.clone().expect("a state");
        if state.outcome.is_some() {
            break state;
        }
        // The player follows the solver's advice, which it computes from the view it was sent.
        let view: View = serde_json::from_value(state.view.clone()).expect("a Soulitaire view");
        let action = hint(&view).expect("a running match always has a move");
        let action = serde_json::to_value(&action).unwrap();
        assert!(
            state.legal.contains(&action),
            "the hint {action} is among the legal actions"
        );
        player
            .act(action)
            .await
            .expect("the solver's move is accepted");
    };
    let outcome = final_state.outcome.clone().unwrap();
    assert!(
        outcome.summary.len() > 3,
        "the outcome says how it ended: {outcome:?}"
    );

    let match_id = player.room.clone().unwrap().match_id.unwrap();
    let record: MatchRecord = app
        .http
        .get(&format!("/api/matches/{match_id}"))
        .await
        .json();
    assert!(record.finished);
    assert_eq!(record.outcome, Some(outcome.clone()));
    assert_eq!(record.log.len() as u64, final_state.version);
    let game: Soulitaire = crate::play::replay_record(&record, 1);
    assert_eq!(game.outcome(), Some(outcome));
    assert_eq!(
        serde_json::to_value(game.view(Viewer::Seat(0))).unwrap(),
        final_state.view
    );
    app.stop().await;
}
on_both_stores!(a_soulitaire_match_is_played_to_the_end_by_a_player_and_replays_exactly);

async fn a_soulitaire_match_played_by_the_bot_is_watched_and_read_back(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let host = app.guest("Host").await;
    let watched = request("soulitaire", 1, vec![0], json!({}));
    let response = app
        .http
        .post("/api/rooms", &watched, Some(&host.token))
        .await;
    let room: RoomSummary = response.json();
    let mut host = host;
    host.join(&room.code, JoinRole::Player).await;
    start(&mut host).await;
    let over = host
        .wait_for(|m| match m {
            pandemonium_protocol::ServerMsg::State(s) if s.outcome.is_some() => Some(s.clone()),
            _ => None,
        })
        .await;
    assert!(over.legal.is_empty(), "a watcher has no legal actions");
    let match_id = host.room.clone().unwrap().match_id.unwrap();
    let record: MatchRecord = app
        .http
        .get(&format!("/api/matches/{match_id}"))
        .await
        .json();
    assert!(record.finished && !record.log.is_empty());
    assert!(
        record
            .log
            .iter()
            .all(|l| l.by == pandemonium_protocol::ActionSource::Bot)
    );
    assert_eq!(record.players, vec!["Bot 1".to_string()]);
    app.stop().await;
}
on_both_stores!(a_soulitaire_match_played_by_the_bot_is_watched_and_read_back);

async fn a_player_can_ask_for_a_hint_computed_from_their_own_view(db: &TestDb) {
    use pandemonium_protocol::ServerMsg;
    let app = TestApp::spawn(db).await;
    let mut player = app.guest("Solo").await;
    crate::play::open_room(&app, &mut player, "soulitaire", 1, vec![], json!({})).await;
    start(&mut player).await;
    let state = player.state.clone().unwrap();
    player.send(&ClientMsg::Hint).await;
    let (version, action) = player
        .wait_for(|m| match m {
            ServerMsg::Hint { version, action } => Some((*version, action.clone())),
            _ => None,
        })
        .await;
    assert_eq!(version, state.version);
    let action = action.expect("a fresh deal always has something to do");
    assert!(
        state.legal.contains(&action),
        "the hint {action} is a legal action"
    );
    app.stop().await;
}
on_both_stores!(a_player_can_ask_for_a_hint_computed_from_their_own_view);
