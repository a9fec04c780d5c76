//! The HTTP API: games, rooms, errors, operations endpoints, the web client fallback.

use serde_json::json;

use pandemonium_protocol::ErrorCode;
use pandemonium_protocol::{
    ApiError, CreateRoom, GameInfo, Guest, NewGuest, RoomList, RoomSummary,
};

use crate::on_both_stores;
use crate::support::{TestApp, TestDb};

fn room(game: &str, seats: u8, options: serde_json::Value) -> CreateRoom {
    CreateRoom {
        game: game.into(),
        options,
        seats,
        bots: vec![],
        public: true,
        turn_seconds: None,
        grace_seconds: None,
    }
}

async fn the_api_lists_games_creates_rooms_and_refuses_bad_requests_with_typed_errors(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let games: Vec<GameInfo> = app.http.get("/api/games").await.json();
    assert!(games.iter().any(|g| g.id == "twenty_one"));
    for registered in pandemonium_game_registry::all() {
        let id = (registered.info)().id;
        assert!(games.iter().any(|g| g.id == id), "{id} is listed");
    }

    let guest: Guest = app
        .http
        .post(
            "/api/guests",
            &NewGuest {
                name: " Lilith ".into(),
            },
            None,
        )
        .await
        .json();
    assert_eq!(guest.name, "Lilith");
    assert_eq!(guest.token.len(), 64);
    // Nothing readable: blanks, or a joiner alone.
    for blank in ["   ", "\u{200D}"] {
        let bad_name = app
            .http
            .post("/api/guests", &NewGuest { name: blank.into() }, None)
            .await;
        assert_eq!(bad_name.status, 400, "{blank:?}");
        assert_eq!(bad_name.json::<ApiError>().code, ErrorCode::BadName);
    }

    let created = app
        .http
        .post(
            "/api/rooms",
            &room("twenty_one", 2, json!({})),
            Some(&guest.token),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let summary: RoomSummary = created.json();
    let listed: RoomList = app.http.get("/api/rooms").await.json();
    assert!(listed.rooms.iter().any(|r| r.code == summary.code));
    let fetched: RoomSummary = app
        .http
        .get(&format!("/api/rooms/{}", summary.code.0.to_lowercase()))
        .await
        .json();
    assert_eq!(fetched.code, summary.code);

    let cases = [
        (room("chess", 2, json!({})), 400, ErrorCode::UnknownGame),
        (room("twenty_one", 9, json!({})), 400, ErrorCode::BadConfig),
        (
            room("twenty_one", 2, json!({"no_such_option": true})),
            400,
            ErrorCode::BadConfig,
        ),
        (
            room("twenty_one", 2, json!([1, 2])),
            400,
            ErrorCode::BadRequest,
        ),
        (
            CreateRoom {
                bots: vec![5],
                ..room("twenty_one", 2, json!({}))
            },
            400,
            ErrorCode::BadRequest,
        ),
        (
            CreateRoom {
                bots: vec![1, 1],
                ..room("twenty_one", 2, json!({}))
            },
            400,
            ErrorCode::BadRequest,
        ),
    ];
    for (request, status, code) in cases {
        let response = app.http.post("/api/rooms", &request, None).await;
        assert_eq!(response.status, status, "{}", response.body);
        assert_eq!(response.json::<ApiError>().code, code);
    }
    let malformed = app.http.post_raw("/api/rooms", "{not json").await;
    assert_eq!(malformed.status, 400);
    assert_eq!(malformed.json::<ApiError>().code, ErrorCode::BadRequest);
    let unknown = app
        .http
        .post(
            "/api/rooms",
            &room("twenty_one", 2, json!({})),
            Some("forged"),
        )
        .await;
    assert_eq!(unknown.status, 401);

    assert_eq!(app.http.get("/api/rooms/ZZZZZZ").await.status, 404);
    assert_eq!(app.http.get("/api/matches/nope").await.status, 404);
    assert_eq!(app.http.get("/api/nothing-here").await.status, 404);
    app.stop().await;
}
on_both_stores!(the_api_lists_games_creates_rooms_and_refuses_bad_requests_with_typed_errors);

/// What the framework refuses before any handler runs (a path that is not UTF-8, a query it
/// cannot read, a method the endpoint does not take) is an `ApiError` like every other error.
async fn requests_refused_before_any_handler_get_an_api_error_body(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let cases = [
        ("GET", "/api/rooms/%FF%FE", 400, ErrorCode::BadRequest),
        ("GET", "/api/matches/%FF", 400, ErrorCode::BadRequest),
        (
            "GET",
            "/api/matches/x/replay?viewer=a&viewer=b",
            400,
            ErrorCode::BadRequest,
        ),
        ("PUT", "/api/games", 405, ErrorCode::BadRequest),
        ("DELETE", "/api/rooms", 405, ErrorCode::BadRequest),
        ("PATCH", "/api/nothing-here", 405, ErrorCode::BadRequest),
        // The socket's endpoint, asked for something other than an upgrade.
        ("GET", "/ws", 400, ErrorCode::BadRequest),
        ("POST", "/ws", 405, ErrorCode::BadRequest),
    ];
    for (method, path, status, code) in cases {
        let response = app.http.send(method, path).await;
        assert_eq!(
            response.status, status,
            "{method} {path}: {}",
            response.body
        );
        assert!(
            response.content_type.starts_with("application/json"),
            "{method} {path}: {}",
            response.content_type
        );
        let error: ApiError = response.json();
        assert_eq!(error.code, code, "{method} {path}");
        assert!(!error.message.is_empty());
    }
    app.stop().await;
}
on_both_stores!(requests_refused_before_any_handler_get_an_api_error_body);

async fn health_readiness_metrics_and_the_web_client_are_served(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    assert_eq!(app.http.get("/healthz").await.status, 200);
    assert_eq!(app.http.get("/readyz").await.status, 200);
    let metrics = app.http.get("/metrics").await;
    assert!(metrics.content_type.starts_with("text/plain"));
    assert!(metrics.body.contains("pandemonium_rooms "));
    assert!(
        metrics
            .body
            .contains("pandemonium_action_latency_seconds_bucket")
    );
    // Client-side routes fall back to the web client (or to the notice saying how to build it).
    let page = app.http.get("/r/K7QX2M").await;
    assert_eq!(page.status, 200);
    assert!(page.body.to_lowercase().contains("<!doctype html"));
    app.stop().await;
}
on_both_stores!(health_readiness_metrics_and_the_web_client_are_served);

/// The value of one unlabelled series in a Prometheus text page.
fn metric(page: &str, name: &str) -> u64 {
    page.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("{name} is on the metrics page"))
        .parse()
        .unwrap_or_else(|e| panic!("{name} is a count: {e}"))
}

async fn the_action_metrics_count_what_the_server_accepted_and_refused_apart(db: &TestDb) {
    use crate::play::two_at_a_table;

    let app = TestApp::spawn(db).await;
    let (mut ada, mut bo, _code) = two_at_a_table(&app, "Ada", "Bo").await;
    bo.state_at_least(0).await;

    let (mut accepted, mut refused) = (0, 0);
    loop {
        let state = ada.state.clone().expect("a state");
        if state.outcome.is_some() {
            break;
        }
        let (mover, waiter) = if state.to_act.contains(&0) {
            (&mut ada, &mut bo)
        } else {
            (&mut bo, &mut ada)
        };
        // Out of turn, then not an action of this game at all: both refused, neither counted
        // as an action.
        assert!(waiter.act(json!({"type": "stand"})).await.is_err());
        assert!(mover.act(json!({"type": "fly"})).await.is_err());
        refused += 2;
        let version = mover
            .act(json!({"type": "stand"}))
            .await
            .expect("standing on your turn is legal");
        accepted += 1;
        waiter.state_at_least(version).await;
        ada.state_at_least(version).await;
    }
    assert_eq!(accepted, 2, "each of the two seats stood once");

    let page = app.http.get("/metrics").await.body;
    assert_eq!(metric(&page, "pandemonium_actions_total"), accepted);
    assert_eq!(metric(&page, "pandemonium_rejected_actions_total"), refused);
    // One latency observation per accepted action, none for a refusal.
    assert_eq!(
        metric(&page, "pandemonium_action_latency_seconds_count"),
        accepted
    );
    // Each action was acked before the next was sent, so each was a commit of its own (the
    // guests and the match's row were more).
    assert!(metric(&page, "pandemonium_store_commit_seconds_count") > accepted);
    app.stop().await;
}
on_both_stores!(the_action_metrics_count_what_the_server_accepted_and_refused_apart);
