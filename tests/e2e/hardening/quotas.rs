//! What one address or one guest may create: guests, rooms and room-code lookups per minute,
//! and open tables.

use serde_json::json;

use pandemonium_protocol::{
    ClientMsg, CreateRoom, ErrorCode, JoinRole, RoomCode, RoomList, RoomSummary, ServerMsg,
};
use pandemonium_server::Config;

use crate::on_both_stores;
use crate::play::{open_room, start};
use crate::support::net::{api_code, get, hear, hello, loopback, post, say, websocket};
use crate::support::{TestApp, TestDb};

pub(super) fn room_request(public: bool) -> String {
    serde_json::to_string(&CreateRoom {
        game: "twenty_one".into(),
        options: json!({}),
        seats: 2,
        bots: vec![],
        public,
        turn_seconds: None,
        grace_seconds: None,
    })
    .unwrap()
}

async fn guests_rooms_and_code_lookups_are_limited_per_address(db: &TestDb) {
    let mut config = Config::for_tests(&db.url);
    config.quotas.guests_per_minute = 3;
    config.quotas.rooms_per_minute = 2;
    config.quotas.lookups_per_minute = 4;
    let app = TestApp::spawn_with(config).await;
    let (attacker, neighbour) = (loopback(2), loopback(3));

    // Guests: three per minute from one address, by HTTP and by a hello without a token alike.
    for _ in 0..2 {
        let made = post(
            app.port,
            attacker,
            "/api/guests",
            r#"{"name":"Mallory"}"#,
            None,
        )
        .await;
        assert_eq!(made.status, 201);
    }
    let mut socket = websocket(app.port, attacker, &[], None).await.unwrap();
    say(&mut socket, &hello("Mallory")).await;
    let ServerMsg::Welcome { token, .. } = hear(&mut socket).await.unwrap() else {
        panic!("the third guest is welcome");
    };
    let refused = post(
        app.port,
        attacker,
        "/api/guests",
        r#"{"name":"Mallory"}"#,
        None,
    )
    .await;
    assert_eq!(refused.status, 429);
    assert_eq!(api_code(&refused), ErrorCode::RateLimited);
    let mut socket = websocket(app.port, attacker, &[], None).await.unwrap();
    say(&mut socket, &hello("Mallory")).await;
    assert!(
        matches!(hear(&mut socket).await, Ok(ServerMsg::Error { code, .. }) if code == ErrorCode::RateLimited)
    );
    // A known guest is not a new one: a hello with a token still works.
    say(
        &mut socket,
        &ClientMsg::Hello {
            token: token.clone(),
            name: None,
            patches: None,
            products: None,
        },
    )
    .await;
    assert!(matches!(
        hear(&mut socket).await,
        Ok(ServerMsg::Welcome { .. })
    ));
    // Another address is not affected.
    let made = post(
        app.port,
        neighbour,
        "/api/guests",
        r#"{"name":"Nina"}"#,
        None,
    )
    .await;
    assert_eq!(made.status, 201);

    // Rooms: two per minute from one address.
    let mut codes = Vec::new();
    for _ in 0..2 {
        let made = post(app.port, attacker, "/api/rooms", &room_request(false), None).await;
        assert_eq!(made.status, 201);
        codes.push(
            serde_json::from_slice::<RoomSummary>(&made.body)
                .unwrap()
                .code,
        );
    }
    let refused = post(app.port, attacker, "/api/rooms", &room_request(false), None).await;
    assert_eq!(refused.status, 429);
    assert_eq!(api_code(&refused), ErrorCode::RateLimited);

    // Code lookups: four per minute from one address, hits and misses alike, over HTTP and
    // by joining, so guessing private codes is as slow as the quota.
    let path = format!("/api/rooms/{}", codes[0]);
    assert_eq!(get(app.port, attacker, &path, "").await.status, 200);
    assert_eq!(
        get(app.port, attacker, "/api/rooms/ACDEFGHJKM", "")
            .await
            .status,
        404
    );
    assert_eq!(
        get(app.port, attacker, "/api/rooms/ACDEFGHJKN", "")
            .await
            .status,
        404
    );
    let join = |room: &RoomCode| ClientMsg::Join {
        room: room.clone(),
        role: JoinRole::Player,
        version: None,
    };
    say(&mut socket, &join(&codes[1])).await;
    assert!(matches!(hear(&mut socket).await, Ok(ServerMsg::Room(_))));
    let refused = get(app.port, attacker, &path, "").await;
    assert_eq!(refused.status, 429);
    assert_eq!(api_code(&refused), ErrorCode::RateLimited);
    // Mallory sits down at the table she joined; with the quota spent, joining another room
    // is refused...
    say(&mut socket, &ClientMsg::TakeSeat { seat: 0 }).await;
    while !matches!(hear(&mut socket).await, Ok(ServerMsg::Room(room)) if room.you == Some(0)) {}
    say(&mut socket, &join(&codes[0])).await;
    let refused = loop {
        match hear(&mut socket).await.unwrap() {
            ServerMsg::Error { code, .. } => break code,
            _ => continue,
        }
    };
    assert_eq!(refused, ErrorCode::RateLimited);
    assert_eq!(get(app.port, neighbour, &path, "").await.status, 200);
    // ...but coming back to a seat she holds is no lookup: a neighbour guessing codes on the
    // same address cannot keep her from her own table.
    say(&mut socket, &join(&codes[1])).await;
    match hear(&mut socket).await.unwrap() {
        ServerMsg::Room(room) => assert_eq!(room.you, Some(0), "back in her seat"),
        other => panic!("her own table refused her: {other:?}"),
    }
    app.stop().await;
}
on_both_stores!(guests_rooms_and_code_lookups_are_limited_per_address);

async fn open_rooms_are_capped_for_the_server_and_for_each_guest(db: &TestDb) {
    let mut config = Config::for_tests(&db.url);
    config.quotas.max_rooms = 4;
    config.quotas.max_rooms_per_guest = 2;
    let app = TestApp::spawn_with(config).await;
    let alice = app.guest("Alice").await;
    let bob = app.guest("Bob").await;
    let me = loopback(1);
    for _ in 0..2 {
        let made = post(
            app.port,
            me,
            "/api/rooms",
            &room_request(true),
            Some(&alice.token),
        )
        .await;
        assert_eq!(made.status, 201);
    }
    let refused = post(
        app.port,
        me,
        "/api/rooms",
        &room_request(true),
        Some(&alice.token),
    )
    .await;
    assert_eq!(refused.status, 429);
    assert_eq!(api_code(&refused), ErrorCode::TooManyRooms);
    for _ in 0..2 {
        let made = post(
            app.port,
            me,
            "/api/rooms",
            &room_request(true),
            Some(&bob.token),
        )
        .await;
        assert_eq!(made.status, 201);
    }
    let full = post(app.port, me, "/api/rooms", &room_request(true), None).await;
    assert_eq!(full.status, 503);
    assert_eq!(api_code(&full), ErrorCode::ServerFull);
    app.stop().await;
}
on_both_stores!(open_rooms_are_capped_for_the_server_and_for_each_guest);

/// A guest hosts the tables they opened and those they became host of by joining an
/// unclaimed room first: both count against the cap, and the summary names its host from the
/// moment the room is opened with the host's token.
async fn every_table_a_guest_hosts_counts_against_the_cap_and_is_listed_with_its_host(db: &TestDb) {
    let mut config = Config::for_tests(&db.url);
    config.quotas.max_rooms_per_guest = 2;
    let app = TestApp::spawn_with(config).await;
    let mut alice = app.guest("Alice").await;
    let me = loopback(1);
    let made = post(
        app.port,
        me,
        "/api/rooms",
        &room_request(true),
        Some(&alice.token),
    )
    .await;
    assert_eq!(made.status, 201);
    let summary: RoomSummary = serde_json::from_slice(&made.body).unwrap();
    assert_eq!(summary.host.as_deref(), Some("Alice"), "named at once");
    let listed: RoomList = app.http.get("/api/rooms").await.json();
    assert_eq!(listed.rooms[0].host.as_deref(), Some("Alice"));
    // A room opened without a token, claimed by joining it first.
    let unclaimed = post(app.port, me, "/api/rooms", &room_request(true), None).await;
    let unclaimed: RoomSummary = serde_json::from_slice(&unclaimed.body).unwrap();
    alice.join(&unclaimed.code, JoinRole::Player).await;
    let claimed = alice.room_where(|r| r.host.is_some()).await;
    assert_eq!(claimed.code, unclaimed.code);
    let refused = post(
        app.port,
        me,
        "/api/rooms",
        &room_request(true),
        Some(&alice.token),
    )
    .await;
    assert_eq!(api_code(&refused), ErrorCode::TooManyRooms);
    app.stop().await;
}
on_both_stores!(every_table_a_guest_hosts_counts_against_the_cap_and_is_listed_with_its_host);

/// A finished match is not an open table: its host may open the next one (a table that plays
/// match after match in fresh rooms is not stopped by the per-guest cap).
async fn a_finished_match_does_not_count_against_its_hosts_open_tables(db: &TestDb) {
    let mut config = Config::for_tests(&db.url);
    config.quotas.max_rooms_per_guest = 1;
    let app = TestApp::spawn_with(config).await;
    let mut alice = app.guest("Alice").await;
    open_room(&app, &mut alice, "race", 1, vec![], json!({"goal": 1})).await;
    start(&mut alice).await;
    assert_eq!(alice.act(json!({"type": "step"})).await, Ok(1));
    alice
        .room_where(|r| r.status == pandemonium_protocol::RoomStatus::Finished)
        .await;
    let next = post(
        app.port,
        loopback(1),
        "/api/rooms",
        &room_request(true),
        Some(&alice.token),
    )
    .await;
    assert_eq!(next.status, 201, "{}", String::from_utf8_lossy(&next.body));
    let refused = post(
        app.port,
        loopback(1),
        "/api/rooms",
        &room_request(true),
        Some(&alice.token),
    )
    .await;
    assert_eq!(
        api_code(&refused),
        ErrorCode::TooManyRooms,
        "the cap still holds"
    );
    app.stop().await;
}
on_both_stores!(a_finished_match_does_not_count_against_its_hosts_open_tables);

/// Nor against the server's cap: rooms whose match is over wait a little before closing, and a
/// steady stream of tables playing match after match must not fill the server with them.
async fn a_finished_match_does_not_count_against_the_servers_open_rooms(db: &TestDb) {
    let mut config = Config::for_tests(&db.url);
    config.quotas.max_rooms = 1;
    let app = TestApp::spawn_with(config).await;
    let mut alice = app.guest("Alice").await;
    open_room(&app, &mut alice, "race", 1, vec![], json!({"goal": 1})).await;
    start(&mut alice).await;
    assert_eq!(alice.act(json!({"type": "step"})).await, Ok(1));
    alice
        .room_where(|r| r.status == pandemonium_protocol::RoomStatus::Finished)
        .await;
    let bob = app.guest("Bob").await;
    let next = post(
        app.port,
        loopback(1),
        "/api/rooms",
        &room_request(true),
        Some(&bob.token),
    )
    .await;
    assert_eq!(next.status, 201, "{}", String::from_utf8_lossy(&next.body));
    let full = post(
        app.port,
        loopback(1),
        "/api/rooms",
        &room_request(true),
        None,
    )
    .await;
    assert_eq!(
        api_code(&full),
        ErrorCode::ServerFull,
        "the cap still holds"
    );
    app.stop().await;
}
on_both_stores!(a_finished_match_does_not_count_against_the_servers_open_rooms);
