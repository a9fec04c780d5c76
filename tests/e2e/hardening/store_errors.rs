//! A store that refuses an action: the player is told, the room's log says why, and the
//! action is undone.

use serde_json::json;
use std::time::{Duration, Instant};

use pandemonium_protocol::ErrorCode;

use super::logs::logging_server;
use super::sqlite;
use crate::play::two_at_a_table;
use crate::support::{Client, TestApp, TestDb};

/// Makes the SQLite database behind `db` refuse every action appended from now on (until the
/// trigger is dropped); returns the connection that installed it. A running match's actions
/// are appended to `running_actions` (docs/performance.md, "The action log").
async fn refuse_actions(db: &TestDb) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    let breaker = sqlx::AnyPool::connect(&db.url).await.unwrap();
    sqlx::query(
        "CREATE TRIGGER refuse_actions BEFORE INSERT ON running_actions \
         BEGIN SELECT RAISE(ABORT, 'refused for the test'); END",
    )
    .execute(&breaker)
    .await
    .unwrap();
    breaker
}

/// A store error a player is told of (`storage_unavailable`) is logged, in the room's span:
/// the database is made to refuse the next append.
#[tokio::test]
async fn a_store_error_told_to_a_player_is_logged_in_the_rooms_span() {
    let db = sqlite().await;
    let (mut child, mut lines, port) = logging_server(&db, &[]).await;
    let app = TestApp::attach(port);
    let (mut alice, _bob, code) = two_at_a_table(&app, "Alice", "Bob").await;

    let _breaker = refuse_actions(&db).await;
    assert_eq!(
        alice.act(json!({"type": "draw"})).await,
        Err(ErrorCode::StorageUnavailable.as_str().to_string())
    );

    let mut logged_in_room = false;
    let deadline = Instant::now() + Duration::from_secs(20);
    while !logged_in_room && Instant::now() < deadline {
        let Ok(Ok(Some(line))) =
            tokio::time::timeout(Duration::from_secs(5), lines.next_line()).await
        else {
            break;
        };
        let Ok(entry) = serde_json::from_str::<serde_json::Value>(&line) else {
            continue;
        };
        let message = entry["fields"]["message"].as_str().unwrap_or_default();
        if entry["level"] == "ERROR" && message.contains("could not be saved") {
            let spans = entry["spans"].as_array().cloned().unwrap_or_default();
            let room = spans
                .iter()
                .find(|s| s["name"] == "room")
                .expect("the store error is logged in the room's span");
            assert_eq!(room["room"], code.as_str());
            assert!(
                entry["fields"]["error"]
                    .as_str()
                    .is_some_and(|e| e.contains("refused for the test")),
                "{entry}"
            );
            logged_in_room = true;
        }
    }
    assert!(logged_in_room, "the store error was logged");
    let _ = child.kill().await;
    db.drop_database().await;
}

/// An action the store refuses is undone: the room rebuilds the match from the actions it
/// kept (as their JSON text) and play goes on from the last durable one, with nothing lost.
#[tokio::test]
async fn an_action_the_store_refuses_is_undone_and_play_goes_on_from_the_durable_log() {
    let db = sqlite().await;
    let app = TestApp::spawn(&db).await;
    let (mut alice, mut bob, _code) = two_at_a_table(&app, "Alice", "Bob").await;
    async fn act_in_turn(players: [&mut Client; 2]) -> Result<u64, String> {
        for player in players {
            let state = player.state.clone().expect("a state");
            let seat = player.room.as_ref().and_then(|r| r.you).expect("seated");
            if state.to_act.contains(&seat) {
                return player.act(json!({"type": "draw"})).await;
            }
        }
        panic!("nobody is to act");
    }
    assert_eq!(act_in_turn([&mut alice, &mut bob]).await, Ok(1));
    alice.state_at_least(1).await;
    bob.state_at_least(1).await;

    let breaker = refuse_actions(&db).await;
    assert_eq!(
        act_in_turn([&mut alice, &mut bob]).await,
        Err(ErrorCode::StorageUnavailable.as_str().to_string())
    );
    sqlx::query("DROP TRIGGER refuse_actions")
        .execute(&breaker)
        .await
        .unwrap();

    // The refused action never happened: the same decision is open again, at version 2.
    assert_eq!(act_in_turn([&mut alice, &mut bob]).await, Ok(2));
    alice.state_at_least(2).await;
    bob.state_at_least(2).await;
    let (a, b) = (alice.state.clone().unwrap(), bob.state.clone().unwrap());
    assert_eq!((a.version, b.version), (2, 2));
    assert_eq!(a.to_act, b.to_act);
    let logged: Vec<(i64, String)> =
        sqlx::query_as("SELECT idx, action FROM running_actions ORDER BY idx")
            .fetch_all(&breaker)
            .await
            .unwrap();
    assert_eq!(logged.len(), 2, "{logged:?}");
    assert!(logged.iter().all(|(_, action)| action.contains("draw")));
    breaker.close().await;
    db.drop_database().await;
}
