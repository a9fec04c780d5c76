//! The lobby's rooms and guests: the room list in pages, audiences and room codes, and guests
//! pruned when they never played.

use serde_json::json;
use std::time::Duration;

use pandemonium_protocol::{
    ClientMsg, ErrorCode, JoinRole, RoomCode, RoomList, RoomSummary, ServerMsg,
};
use pandemonium_server::Config;

use super::quotas::room_request;
use super::sqlite;
use crate::on_both_stores;
use crate::play::{open_room, sit, start};
use crate::support::net::{get, hear, loopback, post, say, websocket};
use crate::support::{Client, TestApp, TestDb, stored_match};

async fn the_room_list_comes_in_pages(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let me = loopback(1);
    for _ in 0..5 {
        let made = post(app.port, me, "/api/rooms", &room_request(true), None).await;
        assert_eq!(made.status, 201);
    }
    let private = post(app.port, me, "/api/rooms", &room_request(false), None).await;
    assert_eq!(private.status, 201);
    let page = |n: u32| async move {
        let raw = get(app.port, me, &format!("/api/rooms?page={n}&per_page=2"), "").await;
        assert_eq!(raw.status, 200);
        serde_json::from_slice::<RoomList>(&raw.body).unwrap().rooms
    };
    let (first, second, third, fourth) =
        (page(0).await, page(1).await, page(2).await, page(3).await);
    assert_eq!(
        (first.len(), second.len(), third.len(), fourth.len()),
        (2, 2, 1, 0)
    );
    let mut codes: Vec<_> = [first, second, third]
        .concat()
        .into_iter()
        .map(|r| r.code)
        .collect();
    let listed = codes.clone();
    codes.sort();
    codes.dedup();
    assert_eq!(codes, listed, "pages are in code order and do not overlap");
    assert_eq!(codes.len(), 5, "private rooms are not listed");
    // Without a page size, a page is bounded anyway.
    let all: RoomList = app.http.get("/api/rooms").await.json();
    assert_eq!(all.rooms.len(), 5);
    let huge = get(app.port, me, "/api/rooms?per_page=100000", "").await;
    assert_eq!(huge.status, 400);
    app.stop().await;
}
on_both_stores!(the_room_list_comes_in_pages);

async fn a_room_refuses_a_spectator_over_its_cap_with_room_full_and_keeps_seats_open(db: &TestDb) {
    let mut config = Config::for_tests(&db.url);
    config.quotas.max_spectators_per_room = 2;
    let app = TestApp::spawn_with(config).await;
    let mut alice = app.guest("Alice").await;
    let code = open_room(&app, &mut alice, "twenty_one", 2, vec![], json!({})).await;

    let mut first = app.guest("First").await;
    first.join(&code, JoinRole::Spectator).await;
    // Someone in as a player but without a seat watches too, and counts.
    let mut second = app.guest("Second").await;
    second.join(&code, JoinRole::Player).await;
    let mut third = app.guest("Third").await;
    third
        .send(&ClientMsg::Join {
            room: code.clone(),
            role: JoinRole::Spectator,
            version: None,
        })
        .await;
    assert_eq!(third.error_code().await, ErrorCode::RoomFull);
    // Refused, not disconnected: the connection is open and in no room.
    third.send(&ClientMsg::Ready { ready: true }).await;
    assert_eq!(third.error_code().await, ErrorCode::NotInRoom);

    // A full audience never locks out whoever holds a seat.
    let mut alice_again = Client::with_token(app.port, &alice.token).await;
    let snapshot = alice_again.join(&code, JoinRole::Player).await;
    assert_eq!(snapshot.you, Some(0));
    assert_eq!(snapshot.spectators, 2);

    // When a watcher leaves, there is room for one more.
    first.send(&ClientMsg::Leave).await;
    second.room_where(|r| r.spectators == 1).await;
    let snapshot = third.join(&code, JoinRole::Spectator).await;
    assert_eq!(snapshot.spectators, 2);
    app.stop().await;
}
on_both_stores!(a_room_refuses_a_spectator_over_its_cap_with_room_full_and_keeps_seats_open);

#[tokio::test]
async fn new_room_codes_are_ten_characters_from_the_look_alike_free_alphabet() {
    let db = sqlite().await;
    let app = TestApp::spawn(&db).await;
    for _ in 0..20 {
        let response = app
            .http
            .post(
                "/api/rooms",
                &json!({"game": "twenty_one", "options": {}, "seats": 2, "bots": [], "public": false}),
                None,
            )
            .await;
        assert_eq!(response.status, 201);
        let summary: RoomSummary = response.json();
        let code = summary.code.as_str();
        assert_eq!(code.len(), RoomCode::LEN, "{code}");
        assert!(
            code.bytes().all(|b| RoomCode::ALPHABET.contains(&b)),
            "{code}"
        );
        // Typed in lower case, it still finds the room.
        let found = app
            .http
            .get(&format!("/api/rooms/{}", code.to_lowercase()))
            .await;
        assert_eq!(found.status, 200, "{code}");
    }
    app.stop().await;
    db.drop_database().await;
}

/// Rooms stored before codes grew to ten characters keep their six-letter code: the server
/// resumes them after a restart and they can still be joined by it.
async fn a_room_with_a_six_letter_code_from_before_resumes_and_can_be_joined(db: &TestDb) {
    use pandemonium_server::store::Store;
    let store = Store::connect(&db.url).await.unwrap();
    let bots = [("Bot 1", true), ("Bot 2", true)];
    store
        .start_match(&stored_match("old-match", "ACDEFG", "twenty_one", &bots))
        .await
        .unwrap();
    store.close().await;

    let app = TestApp::spawn(db).await;
    let mut watcher = app.guest("Watcher").await;
    let snapshot = watcher
        .join(&RoomCode("acdefg".into()), JoinRole::Spectator)
        .await;
    assert_eq!(snapshot.code.as_str(), "ACDEFG");
    assert_eq!(snapshot.match_id.as_deref(), Some("old-match"));
    app.stop().await;
}
on_both_stores!(a_room_with_a_six_letter_code_from_before_resumes_and_can_be_joined);

async fn guests_that_never_sat_in_a_match_are_pruned_and_players_are_kept(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut alice = app.guest("Alice").await;
    let mut bob = app.guest("Bob").await;
    let idle = app.guest("Idle").await;
    let code = open_room(&app, &mut alice, "twenty_one", 2, vec![], json!({})).await;
    sit(&mut bob, &code, 1).await;
    start(&mut alice).await;

    let store = pandemonium_server::store::Store::connect(&db.url)
        .await
        .expect("store");
    assert_eq!(
        store
            .prune_guests(Duration::from_secs(3_600))
            .await
            .unwrap(),
        0,
        "young guests are kept"
    );
    assert_eq!(store.prune_guests(Duration::ZERO).await.unwrap(), 1);
    store.close().await;

    let hello_with = |token: String| ClientMsg::Hello {
        token: Some(token),
        name: None,
        patches: None,
        products: None,
    };
    let mut socket = websocket(app.port, loopback(1), &[], None).await.unwrap();
    say(&mut socket, &hello_with(idle.token.clone())).await;
    assert!(
        matches!(hear(&mut socket).await, Ok(ServerMsg::Error { code, .. }) if code == ErrorCode::UnknownToken),
        "the unused guest is gone"
    );
    for player in [&alice, &bob] {
        say(&mut socket, &hello_with(player.token.clone())).await;
        assert!(matches!(
            hear(&mut socket).await,
            Ok(ServerMsg::Welcome { .. })
        ));
        socket = websocket(app.port, loopback(1), &[], None).await.unwrap();
    }
    app.stop().await;
}
on_both_stores!(guests_that_never_sat_in_a_match_are_pruned_and_players_are_kept);
