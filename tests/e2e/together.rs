//! Playing together: a rematch in the same room once everyone seated accepts, the match history
//! linking the two matches, the room's chat told again on join to those who may read it, and
//! rooms that explain themselves (the lobby listing, the grace countdown).

use serde_json::json;

use pandemonium_protocol::{
    ChatChannel, ChatLine, ClientMsg, CreateRoom, ErrorCode, JoinRole, MatchPage, MatchRecord,
    Presence, RoomList, RoomSnapshot, RoomStatus, ServerMsg,
};

use crate::on_both_stores;
use crate::play::{host_room, open_room, request, sit, stand_until_over, start, two_at_a_table};
use crate::support::{Client, TestApp, TestDb};

/// Waits for the room to be in a match other than `old`, then for that match's first state.
async fn follow_rematch(client: &mut Client, old: &str) -> RoomSnapshot {
    let room = client
        .room_where(|r| r.match_id.as_deref().is_some_and(|id| id != old))
        .await;
    let state = client
        .wait_for(|m| match m {
            ServerMsg::State(s) => Some(s.clone()),
            _ => None,
        })
        .await;
    assert_eq!(state.version, 0, "the rematch counts its versions afresh");
    assert!(state.outcome.is_none(), "the rematch is a new match");
    room
}

async fn finished_record(app: &TestApp, id: &str) -> MatchRecord {
    let response = app.http.get(&format!("/api/matches/{id}")).await;
    assert_eq!(response.status, 200, "{}", response.body);
    response.json()
}

async fn a_rematch_starts_in_the_same_room_once_every_player_accepts(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut alice = app.guest("Alice").await;
    let mut bob = app.guest("Bob").await;
    let mut carol = app.guest("Carol").await;
    let code = open_room(&app, &mut alice, "twenty_one", 2, vec![], json!({})).await;
    sit(&mut bob, &code, 1).await;
    carol.join(&code, JoinRole::Spectator).await;
    start(&mut alice).await;
    bob.state_at_least(0).await;
    carol.state_at_least(0).await;

    alice.send(&ClientMsg::Rematch { accept: None }).await;
    assert_eq!(
        alice.error_code().await,
        ErrorCode::MatchNotOver,
        "no rematch while the match runs"
    );

    stand_until_over(&mut [&mut alice, &mut bob]).await;
    let finished = alice.room_where(|r| r.status == RoomStatus::Finished).await;
    let first = finished.match_id.clone().expect("a match id");
    assert!(finished.rematch.is_empty(), "nobody has accepted yet");

    // Someone watching cannot ask for one.
    carol.room_where(|r| r.status == RoomStatus::Finished).await;
    carol.send(&ClientMsg::Rematch { accept: None }).await;
    assert_eq!(carol.error_code().await, ErrorCode::NotSeated);

    // Alice accepts: the room says so and waits for Bob.
    alice.send(&ClientMsg::Rematch { accept: None }).await;
    let waiting = bob.room_where(|r| r.rematch == vec![0]).await;
    assert_eq!(waiting.status, RoomStatus::Finished);
    assert_eq!(waiting.match_id.as_deref(), Some(first.as_str()));

    // Bob accepts: the same room starts a new match with the same seats.
    bob.send(&ClientMsg::Rematch { accept: Some(true) }).await;
    for client in [&mut alice, &mut bob, &mut carol] {
        let room = follow_rematch(client, &first).await;
        assert_eq!(room.code, code, "no new room");
        assert_eq!(room.status, RoomStatus::Playing);
        assert_eq!(room.previous_match.as_deref(), Some(first.as_str()));
        assert!(room.rematch.is_empty(), "acceptances are for one rematch");
        let names: Vec<_> = room
            .seats
            .iter()
            .map(|s| s.player.as_ref().map(|p| p.name.clone()))
            .collect();
        assert_eq!(names, [Some("Alice".into()), Some("Bob".into())]);
    }
    assert_eq!(alice.room.as_ref().unwrap().you, Some(0));
    assert_eq!(bob.room.as_ref().unwrap().you, Some(1));
    assert_eq!(
        carol.room.as_ref().unwrap().you,
        None,
        "Carol still watches"
    );
    let second = alice.room.as_ref().unwrap().match_id.clone().unwrap();

    // The rematch is played like any match, and the history links both.
    stand_until_over(&mut [&mut alice, &mut bob]).await;
    alice.room_where(|r| r.status == RoomStatus::Finished).await;
    let record = finished_record(&app, &second).await;
    assert!(record.finished);
    assert_eq!(record.rematch_of.as_deref(), Some(first.as_str()));
    let before = finished_record(&app, &first).await;
    assert_eq!(before.rematch.as_deref(), Some(second.as_str()));
    assert_eq!(before.rematch_of, None);
    let page: MatchPage = app.http.get("/api/matches").await.json();
    let listed = |id: &str| page.matches.iter().find(|m| m.id == id).cloned().unwrap();
    assert_eq!(listed(&second).rematch_of.as_deref(), Some(first.as_str()));
    assert_eq!(listed(&first).rematch.as_deref(), Some(second.as_str()));
    app.stop().await;
}
on_both_stores!(a_rematch_starts_in_the_same_room_once_every_player_accepts);

async fn bots_accept_a_rematch_and_a_player_may_withdraw(db: &TestDb) {
    let mut config = pandemonium_server::Config::for_tests(&db.url);
    config.bot_delay_ms = 1;
    let app = TestApp::spawn_with(config).await;
    let mut alice = app.guest("Alice").await;
    let mut bob = app.guest("Bob").await;
    let code = open_room(&app, &mut alice, "twenty_one", 3, vec![2], json!({})).await;
    sit(&mut bob, &code, 1).await;
    start(&mut alice).await;
    // Both people stand whenever it is their turn; the bot plays its own.
    loop {
        let state = alice.state.clone().expect("a state");
        if state.outcome.is_some() {
            break;
        }
        if state.to_act.contains(&0) {
            let version = alice.act(json!({"type": "stand"})).await.expect("stand");
            bob.state_at_least(version).await;
        } else if state.to_act.contains(&1) {
            let version = bob.act(json!({"type": "stand"})).await.expect("stand");
            alice.state_at_least(version).await;
        } else {
            let version = alice.state_at_least(state.version + 1).await.version;
            bob.state_at_least(version).await;
        }
    }
    let first = alice
        .room_where(|r| r.status == RoomStatus::Finished)
        .await
        .match_id
        .unwrap();
    assert_eq!(
        alice.room.as_ref().unwrap().rematch,
        vec![2],
        "the bot seat has accepted from the start"
    );

    alice.send(&ClientMsg::Rematch { accept: None }).await;
    bob.room_where(|r| r.rematch == vec![0, 2]).await;
    alice
        .send(&ClientMsg::Rematch {
            accept: Some(false),
        })
        .await;
    bob.room_where(|r| r.rematch == vec![2]).await;
    assert_eq!(bob.room.as_ref().unwrap().status, RoomStatus::Finished);

    // Bob asks, Alice comes round: the bot agrees, so the rematch starts.
    bob.send(&ClientMsg::Rematch { accept: None }).await;
    alice.room_where(|r| r.rematch == vec![1, 2]).await;
    alice.send(&ClientMsg::Rematch { accept: None }).await;
    let room = follow_rematch(&mut alice, &first).await;
    assert_eq!(room.seats[2].presence, Presence::Bot);
    app.stop().await;
}
on_both_stores!(bots_accept_a_rematch_and_a_player_may_withdraw);

fn texts(lines: &[ChatLine]) -> Vec<&str> {
    lines.iter().map(|l| l.text.as_str()).collect()
}

/// The chat history a client gets on joining.
async fn history_on_join(client: &mut Client) -> Vec<ChatLine> {
    client
        .wait_for(|m| match m {
            ServerMsg::ChatHistory { lines } => Some(lines.clone()),
            _ => None,
        })
        .await
}

async fn the_rooms_chat_is_told_again_on_join_only_to_who_may_read_it(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut alice = app.guest("Alice").await;
    let mut bob = app.guest("Bob").await;
    let mut carol = app.guest("Carol").await;
    let code = open_room(&app, &mut alice, "twenty_one", 2, vec![], json!({})).await;
    sit(&mut bob, &code, 1).await;
    carol.join(&code, JoinRole::Spectator).await;

    alice
        .send(&ClientMsg::Chat {
            channel: ChatChannel::Players,
            text: "good luck".into(),
        })
        .await;
    let live = bob.next_chat().await;
    carol.next_chat().await;
    carol
        .send(&ClientMsg::Chat {
            channel: ChatChannel::Spectators,
            text: "Bob will bust".into(),
        })
        .await;
    let whisper = carol.next_chat().await;
    assert!(whisper.id > live.id, "lines are numbered in order");

    // Bob reloads: he gets the players' line again, never the spectators' one.
    let token = bob.token.clone();
    bob.close().await;
    let mut bob = Client::with_token(app.port, &token).await;
    bob.join(&code, JoinRole::Player).await;
    let lines = history_on_join(&mut bob).await;
    assert_eq!(texts(&lines), ["good luck"]);
    assert_eq!(
        lines[0].id, live.id,
        "the same line, so a client keeps it once"
    );
    assert_eq!(lines[0].from, "Alice");

    // A newcomer watching reads both.
    let mut dave = app.guest("Dave").await;
    dave.join(&code, JoinRole::Spectator).await;
    let lines = history_on_join(&mut dave).await;
    assert_eq!(texts(&lines), ["good luck", "Bob will bust"]);
    app.stop().await;
}
on_both_stores!(the_rooms_chat_is_told_again_on_join_only_to_who_may_read_it);

async fn the_room_keeps_the_last_hundred_chat_lines(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut alice = app.guest("Alice").await;
    let code = open_room(&app, &mut alice, "twenty_one", 2, vec![], json!({})).await;
    for i in 0..105 {
        alice
            .send(&ClientMsg::Chat {
                channel: ChatChannel::Players,
                text: format!("line {i}"),
            })
            .await;
        alice.next_chat().await;
    }
    let mut bob = app.guest("Bob").await;
    bob.join(&code, JoinRole::Player).await;
    let lines = history_on_join(&mut bob).await;
    assert_eq!(lines.len(), 100);
    assert_eq!(lines[0].text, "line 5");
    assert_eq!(lines[99].text, "line 104");
    app.stop().await;
}
on_both_stores!(the_room_keeps_the_last_hundred_chat_lines);

async fn the_room_list_says_mode_host_seats_and_who_is_online(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut alice = app.guest("Alice").await;
    let _alice_again = Client::with_token(app.port, &alice.token).await;
    let mut bob = app.guest("Bob").await;
    let code = open_room(&app, &mut alice, "twenty_one", 3, vec![2], json!({})).await;
    let list: RoomList = app.http.get("/api/rooms").await.json();
    assert_eq!(list.online, 2, "Alice's two connections count once");
    let room = list.rooms.iter().find(|r| r.code == code).expect("listed");
    assert_eq!(room.host.as_deref(), Some("Alice"));
    assert_eq!(
        room.players,
        [Some("Alice".into()), None, Some("Bot 3".into())]
    );
    assert!(room.options.is_object(), "the options, defaults filled in");

    // The list follows the table as it changes: a seat taken, a seat left.
    sit(&mut bob, &code, 1).await;
    alice.send(&ClientMsg::LeaveSeat).await;
    alice.room_where(|r| r.you.is_none()).await;
    let list: RoomList = app.http.get("/api/rooms").await.json();
    let room = list.rooms.iter().find(|r| r.code == code).expect("listed");
    assert_eq!(
        room.players,
        [None, Some("Bob".into()), Some("Bot 3".into())]
    );
    assert_eq!(room.seated, 2);
    assert_eq!(room.host.as_deref(), Some("Alice"), "still in the room");
    app.stop().await;
}
on_both_stores!(the_room_list_says_mode_host_seats_and_who_is_online);

/// What the room list says of a room as its match runs: whoever has seen a room snapshot finds
/// the list agreeing with it (the room brings its listing up to date as it sends one).
async fn the_room_list_follows_the_match_and_counts_the_spectators(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let (mut alice, mut bob, code) = two_at_a_table(&app, "Alice", "Bob").await;
    let listed = |list: RoomList| list.rooms.into_iter().find(|r| r.code == code);
    let room = listed(app.http.get("/api/rooms").await.json()).expect("listed");
    assert_eq!(
        (room.status, room.seated, room.spectators),
        (RoomStatus::Playing, 2, 0)
    );

    let mut carol = app.guest("Carol").await;
    carol.join(&code, JoinRole::Spectator).await;
    alice.room_where(|r| r.spectators == 1).await;
    let room = listed(app.http.get("/api/rooms").await.json()).expect("listed");
    assert_eq!((room.status, room.spectators), (RoomStatus::Playing, 1));

    bob.state_at_least(0).await;
    stand_until_over(&mut [&mut alice, &mut bob]).await;
    alice.room_where(|r| r.status == RoomStatus::Finished).await;
    let room = listed(app.http.get("/api/rooms").await.json()).expect("listed");
    assert_eq!((room.status, room.spectators), (RoomStatus::Finished, 1));

    carol.close().await;
    alice.room_where(|r| r.spectators == 0).await;
    let room = listed(app.http.get("/api/rooms").await.json()).expect("listed");
    assert_eq!(room.spectators, 0, "the spectator left");
    app.stop().await;
}
on_both_stores!(the_room_list_follows_the_match_and_counts_the_spectators);

async fn a_rooms_grace_period_is_validated_and_counted_down_for_everyone(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut alice = app.guest("Alice").await;
    let too_long = CreateRoom {
        grace_seconds: Some(3_601),
        ..request("twenty_one", 2, vec![], json!({}))
    };
    let response = app
        .http
        .post("/api/rooms", &too_long, Some(&alice.token))
        .await;
    assert_eq!(response.status, 400);
    assert!(response.body.contains("grace_seconds"), "{}", response.body);

    let grace = CreateRoom {
        grace_seconds: Some(90),
        ..request("twenty_one", 2, vec![], json!({}))
    };
    let code = host_room(&app, &mut alice, &grace, 0).await;
    assert_eq!(alice.room.as_ref().unwrap().grace_seconds, 90);
    let mut bob = app.guest("Bob").await;
    sit(&mut bob, &code, 1).await;
    start(&mut alice).await;
    bob.close().await;
    let room = alice
        .room_where(|r| r.seats[1].presence == Presence::Reconnecting)
        .await;
    let away = room.seats[1]
        .away_ms
        .expect("a countdown while Bob is away");
    assert!(
        (80_000..=90_000).contains(&away),
        "about 90 s before a bot takes over, got {away} ms"
    );
    assert_eq!(room.seats[0].away_ms, None, "Alice is here");
    app.stop().await;
}
on_both_stores!(a_rooms_grace_period_is_validated_and_counted_down_for_everyone);
