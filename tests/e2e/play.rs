//! Playing matches over WebSockets: to the end, watched, dropped and resumed, replayed.

use serde_json::json;

use pandemonium_game_contract::fixture::TwentyOne;
use pandemonium_game_contract::{Game, SeededChance, Viewer};
use pandemonium_protocol::{
    ClientMsg, CreateRoom, JoinRole, MatchRecord, Presence, Replay, RoomCode, RoomStatus,
    RoomSummary, ServerMsg,
};

use crate::on_both_stores;
use crate::support::{Client, TestApp, TestDb};

/// A room request with the lobby's defaults: public, no decision clock, the default grace.
pub fn request(game: &str, seats: u8, bots: Vec<u8>, options: serde_json::Value) -> CreateRoom {
    CreateRoom {
        game: game.into(),
        options,
        seats,
        bots,
        public: true,
        turn_seconds: None,
        grace_seconds: None,
    }
}

/// `host` creates the room `request` describes and sits in `seat`; returns its code.
pub async fn host_room(
    app: &TestApp,
    host: &mut Client,
    request: &CreateRoom,
    seat: u8,
) -> RoomCode {
    let response = app
        .http
        .post("/api/rooms", request, Some(&host.token))
        .await;
    assert_eq!(response.status, 201, "{}", response.body);
    let summary: RoomSummary = response.json();
    host.join(&summary.code, JoinRole::Player).await;
    host.send(&ClientMsg::TakeSeat { seat }).await;
    host.room_where(|r| r.you == Some(seat)).await;
    summary.code
}

/// Creates a room of `game` as `host` (who takes seat 0) and returns its code.
pub async fn open_room(
    app: &TestApp,
    host: &mut Client,
    game: &str,
    seats: u8,
    bots: Vec<u8>,
    options: serde_json::Value,
) -> RoomCode {
    host_room(app, host, &request(game, seats, bots, options), 0).await
}

/// `player` joins `code` and sits in `seat`, then says ready.
pub async fn sit(player: &mut Client, code: &RoomCode, seat: u8) {
    player.join(code, JoinRole::Player).await;
    player.send(&ClientMsg::TakeSeat { seat }).await;
    player.room_where(|r| r.you == Some(seat)).await;
    player.send(&ClientMsg::Ready { ready: true }).await;
    player.room_where(|r| r.seats[seat as usize].ready).await;
}

pub async fn start(host: &mut Client) {
    host.send(&ClientMsg::Start).await;
    host.room_where(|r| r.status == RoomStatus::Playing).await;
    host.state_at_least(0).await;
}

/// Two guests named `host` and `guest` at a two-seat Twenty-One table, the host in seat 0 and
/// the guest in seat 1, with the match started (the host has its first state).
pub async fn two_at_a_table(app: &TestApp, host: &str, guest: &str) -> (Client, Client, RoomCode) {
    let mut first = app.guest(host).await;
    let mut second = app.guest(guest).await;
    let code = open_room(app, &mut first, "twenty_one", 2, vec![], json!({})).await;
    sit(&mut second, &code, 1).await;
    start(&mut first).await;
    (first, second, code)
}

/// Plays Twenty-One by standing whenever it is your turn, until the match is over.
pub async fn stand_until_over(players: &mut [&mut Client]) {
    loop {
        let mut acted = false;
        for player in players.iter_mut() {
            let state = player.state.clone().expect("a state");
            if state.outcome.is_some() {
                return;
            }
            let seat = player.room.as_ref().and_then(|r| r.you).expect("seated");
            if state.to_act.contains(&seat) {
                let version = player
                    .act(json!({"type": "stand"}))
                    .await
                    .expect("accepted");
                for other in players.iter_mut() {
                    other.state_at_least(version).await;
                }
                acted = true;
                break;
            }
        }
        assert!(acted, "nobody could act, yet the match is not over");
    }
}

async fn a_multiplayer_match_is_played_to_the_end_and_replays_exactly(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let (mut alice, mut bob, _code) = two_at_a_table(&app, "Alice", "Bob").await;
    bob.state_at_least(0).await;

    // Alice draws once, then both stand.
    let version = alice
        .act(json!({"type": "draw"}))
        .await
        .expect("a legal draw");
    assert_eq!(version, 1);
    bob.state_at_least(1).await;
    stand_until_over(&mut [&mut alice, &mut bob]).await;
    let final_state = alice.state.clone().unwrap();
    let outcome = final_state.outcome.clone().expect("an outcome");
    let match_id = alice
        .room
        .as_ref()
        .unwrap()
        .match_id
        .clone()
        .expect("a match id");

    let record: MatchRecord = app
        .http
        .get(&format!("/api/matches/{match_id}"))
        .await
        .json();
    assert!(record.finished);
    assert_eq!(record.outcome.as_ref(), Some(&outcome));
    assert_eq!(record.players, vec!["Alice".to_string(), "Bob".to_string()]);
    assert_eq!(record.log.len() as u64, final_state.version);

    // Replaying (config, seed, log) with the engine reaches the same final position.
    let game: TwentyOne = replay_record(&record, 2);
    assert_eq!(game.outcome(), Some(outcome.clone()));
    assert_eq!(
        serde_json::to_value(game.view(Viewer::Seat(0))).unwrap(),
        final_state.view
    );

    // The server's replay steps to the same final position.
    let replay: Replay = app
        .http
        .get(&format!("/api/matches/{match_id}/replay?viewer=seat:0"))
        .await
        .json();
    assert_eq!(replay.frames.len(), record.log.len() + 1);
    assert_eq!(replay.frames.last().unwrap().view, final_state.view);

    // And the match is listed in the history.
    let page: pandemonium_protocol::MatchPage =
        app.http.get("/api/matches?game=twenty_one").await.json();
    assert!(page.matches.iter().any(|m| m.id == match_id));
    app.stop().await;
}
on_both_stores!(a_multiplayer_match_is_played_to_the_end_and_replays_exactly);

async fn a_spectator_receives_only_spectator_views(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut alice = app.guest("Alice").await;
    let mut bob = app.guest("Bob").await;
    let mut eve = app.guest("Eve").await;
    let code = open_room(&app, &mut alice, "twenty_one", 2, vec![], json!({})).await;
    sit(&mut bob, &code, 1).await;
    let room = eve.join(&code, JoinRole::Spectator).await;
    assert_eq!(room.you, None);
    start(&mut alice).await;
    alice.act(json!({"type": "draw"})).await.unwrap();
    let seen = eve.state_at_least(1).await;
    let hands = seen.view["hands"].as_array().unwrap();
    assert!(
        hands.iter().all(|h| h.is_null()),
        "a spectator sees no hand: {hands:?}"
    );
    assert!(seen.legal.is_empty(), "a spectator has no legal actions");
    let alice_view = alice.state_at_least(1).await.view;
    assert!(alice_view["hands"][0].is_array() && alice_view["hands"][1].is_null());
    // A spectator cannot act, and is told so rather than ignored.
    assert_eq!(
        eve.act(json!({"type": "stand"})).await,
        Err("not_seated".into())
    );
    // Spectators chat among themselves; players do not see it.
    eve.send(&ClientMsg::Chat {
        channel: pandemonium_protocol::ChatChannel::Spectators,
        text: "go Bob".into(),
    })
    .await;
    eve.wait_for(|m| matches!(m, ServerMsg::Chat(line) if line.text == "go Bob").then_some(()))
        .await;
    alice
        .send(&ClientMsg::Chat {
            channel: pandemonium_protocol::ChatChannel::Players,
            text: "gl".into(),
        })
        .await;
    let line = alice.next_chat().await;
    assert_eq!(
        line.text, "gl",
        "Alice sees her own line, not the spectators' one"
    );
    app.stop().await;
}
on_both_stores!(a_spectator_receives_only_spectator_views);

/// A player who also watches their own table from another connection is still a player
/// there: the spectators' chat stays closed to them, live, in the history and for writing,
/// so spectators cannot be overheard or coach the players that way.
async fn a_seated_player_watching_from_another_connection_is_kept_out_of_the_spectators_chat(
    db: &TestDb,
) {
    use pandemonium_protocol::{ChatChannel, ErrorCode};
    let app = TestApp::spawn(db).await;
    let (mut alice, _bob, code) = two_at_a_table(&app, "Alice", "Bob").await;
    let mut eve = app.guest("Eve").await;
    eve.join(&code, JoinRole::Spectator).await;
    let say = |channel, text: &str| ClientMsg::Chat {
        channel,
        text: text.into(),
    };
    eve.send(&say(ChatChannel::Spectators, "psst")).await;
    eve.next_chat().await;
    alice.send(&say(ChatChannel::Players, "hi")).await;
    alice.next_chat().await;

    let mut watching = Client::with_token(app.port, &alice.token).await;
    watching.join(&code, JoinRole::Spectator).await;
    let history = watching
        .wait_for(|m| match m {
            ServerMsg::ChatHistory { lines } => Some(lines.clone()),
            _ => None,
        })
        .await;
    let texts: Vec<&str> = history.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, ["hi"], "the players' line only");
    watching.send(&say(ChatChannel::Spectators, "go me")).await;
    assert_eq!(watching.error_code().await, ErrorCode::NotSpectator);
    eve.send(&say(ChatChannel::Spectators, "again")).await;
    eve.next_chat().await;
    alice.send(&say(ChatChannel::Players, "gl")).await;
    assert_eq!(
        watching.next_chat().await.text,
        "gl",
        "not the spectators' line"
    );
    app.stop().await;
}
on_both_stores!(
    a_seated_player_watching_from_another_connection_is_kept_out_of_the_spectators_chat
);

async fn a_player_who_drops_reconnects_with_their_token_at_the_right_version(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let (mut alice, bob, code) = two_at_a_table(&app, "Alice", "Bob").await;
    alice.act(json!({"type": "draw"})).await.unwrap();
    let bob_token = bob.token.clone();
    bob.close().await;
    alice
        .room_where(|r| r.seats[1].presence == Presence::Reconnecting)
        .await;

    let mut bob = Client::with_token(app.port, &bob_token).await;
    assert_eq!(bob.name, "Bob");
    bob.rejoin(&code, 0).await;
    let room = bob.room_where(|r| r.you == Some(1)).await;
    assert_eq!(room.seats[1].presence, Presence::Online);
    let state = bob.state_at_least(1).await;
    assert_eq!(state.version, 1, "Bob resumes at the room's version");
    assert_eq!(state.to_act, vec![1], "and it is his turn");
    assert_eq!(bob.act(json!({"type": "stand"})).await, Ok(2));
    alice
        .room_where(|r| r.seats[1].presence == Presence::Online)
        .await;
    app.stop().await;
}
on_both_stores!(a_player_who_drops_reconnects_with_their_token_at_the_right_version);

async fn bots_fill_seats_and_take_over_a_player_gone_past_the_grace_period(db: &TestDb) {
    let mut config = pandemonium_server::Config::for_tests(&db.url);
    config.bot_delay_ms = 1;
    let app = TestApp::spawn_with(config).await;
    let mut alice = app.guest("Alice").await;
    let no_grace = CreateRoom {
        grace_seconds: Some(0),
        ..request("twenty_one", 3, vec![2], json!({}))
    };
    let code = host_room(&app, &mut alice, &no_grace, 0).await;
    let mut bob = app.guest("Bob").await;
    sit(&mut bob, &code, 1).await;
    alice
        .room_where(|r| r.seats[2].presence == Presence::Bot)
        .await;
    start(&mut alice).await;
    // Bob leaves for good: with no grace, a bot plays his seat from now on.
    bob.close().await;
    alice
        .room_where(|r| r.seats[1].presence == Presence::Bot)
        .await;
    alice.act(json!({"type": "stand"})).await.unwrap();
    let over = alice
        .wait_for(|m| match m {
            ServerMsg::State(s) if s.outcome.is_some() => Some(s.clone()),
            _ => None,
        })
        .await;
    assert!(
        over.version >= 3,
        "the bots played seats 1 and 2 to the end"
    );
    app.stop().await;
}
on_both_stores!(bots_fill_seats_and_take_over_a_player_gone_past_the_grace_period);

/// Replays a finished match's `(config, seed, log)` with the engine itself, outside the server.
pub fn replay_record<G: Game>(record: &MatchRecord, seats: u8) -> G {
    let seed = hex_decode(record.seed.as_deref().expect("the seed is published"));
    let mut chance = SeededChance::from_seed(seed);
    let config = serde_json::from_value(record.config.clone()).expect("the stored config");
    let mut game = G::new(&config, seats, &mut chance).expect("the stored config is valid");
    for logged in &record.log {
        let action = serde_json::from_value(logged.action.clone()).expect("a stored action");
        game.apply(logged.seat, &action, &mut chance)
            .unwrap_or_else(|e| panic!("a stored action replays: {e}"));
    }
    game
}

pub fn hex_decode(text: &str) -> [u8; 32] {
    let bytes: Vec<u8> = (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex"))
        .collect();
    bytes.try_into().expect("32 bytes")
}

async fn a_panic_in_one_room_leaves_every_other_room_running(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut alice = app.guest("Alice").await;
    let mut bob = app.guest("Bob").await;
    let doomed = open_room(
        &app,
        &mut alice,
        "twenty_one",
        1,
        vec![],
        json!({"explode": true}),
    )
    .await;
    let healthy = open_room(&app, &mut bob, "twenty_one", 1, vec![], json!({})).await;
    start(&mut alice).await;
    start(&mut bob).await;
    alice.seq_act_without_answer(json!({"type": "stand"})).await;
    let closed = alice.closed().await;
    assert_eq!(closed.code, 1013, "the client is told to reconnect");
    assert_eq!(
        app.http.get(&format!("/api/rooms/{doomed}")).await.status,
        404
    );
    // The other room plays on.
    assert_eq!(bob.act(json!({"type": "draw"})).await, Ok(1));
    assert_eq!(
        app.http.get(&format!("/api/rooms/{healthy}")).await.status,
        200
    );
    app.stop().await;
}
on_both_stores!(a_panic_in_one_room_leaves_every_other_room_running);

/// A host who leaves before the match hands the table on to the seated player, who can then
/// fill the freed seat and start it: otherwise nobody could.
async fn a_host_who_leaves_before_the_match_hands_the_table_on(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut alice = app.guest("Alice").await;
    let mut bob = app.guest("Bob").await;
    let code = open_room(&app, &mut alice, "twenty_one", 2, vec![], json!({})).await;
    sit(&mut bob, &code, 1).await;
    alice.send(&ClientMsg::Leave).await;
    let bob_id = bob.player_id.clone();
    let room = bob
        .room_where(|r| r.host.as_deref() == Some(bob_id.as_str()))
        .await;
    assert!(room.seats[0].player.is_none(), "Alice's seat is free");
    let summary: RoomSummary = app.http.get(&format!("/api/rooms/{code}")).await.json();
    assert_eq!(summary.host.as_deref(), Some("Bob"));
    bob.send(&ClientMsg::SetBot {
        seat: 0,
        bot: true,
        pace: None,
    })
    .await;
    bob.room_where(|r| r.seats[0].presence == Presence::Bot)
        .await;
    start(&mut bob).await;
    app.stop().await;
}
on_both_stores!(a_host_who_leaves_before_the_match_hands_the_table_on);
