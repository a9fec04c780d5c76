//! Seats and results: a room change tells each seat its own snapshot, a seat cannot be left
//! while its match runs, and a match's result is written with its last action.

use serde_json::json;
use std::time::Duration;

use pandemonium_protocol::{ClientMsg, ErrorCode, JoinRole, Presence, RoomSnapshot};
use pandemonium_server::store::{MatchStatus, Store};

use super::{Answer, act_as, finished_record};
use crate::on_both_stores;
use crate::play::{open_room, start, two_at_a_table};
use crate::restart::{launch, launch_with};
use crate::support::{Client, Http, TestApp, TestDb};

/// A room change goes to everyone in the room at once. Each seat's snapshot names that seat
/// and the last act the room answered for it; the watchers' snapshot names neither, and
/// everything else is the same for all.
async fn a_room_change_tells_each_seat_its_own_snapshot_and_the_watchers_theirs(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let (mut alice, mut bob, code) = two_at_a_table(&app, "Alice", "Bob").await;
    assert_eq!(
        act_as(&mut alice, 5, json!({"type": "draw"})).await,
        Answer::Ack(1)
    );
    assert_eq!(
        act_as(&mut bob, 9, json!({"type": "stand"})).await,
        Answer::Ack(2)
    );
    let mut carol = Client::guest(app.port, "Carol").await;
    carol.join(&code, JoinRole::Spectator).await;
    let mut dan = Client::guest(app.port, "Dan").await;
    dan.join(&code, JoinRole::Spectator).await;

    let two_watching = |r: &RoomSnapshot| r.spectators == 2;
    let to_alice = alice.room_where(two_watching).await;
    let to_bob = bob.room_where(two_watching).await;
    let to_carol = carol.room_where(two_watching).await;
    let to_dan = dan.room_where(two_watching).await;
    assert_eq!((to_alice.you, to_alice.last_seq), (Some(0), Some(5)));
    assert_eq!((to_bob.you, to_bob.last_seq), (Some(1), Some(9)));
    assert_eq!((to_carol.you, to_carol.last_seq), (None, None));
    assert_eq!(to_dan, to_carol, "every watcher sees the same snapshot");
    let public = |r: RoomSnapshot| RoomSnapshot {
        you: None,
        last_seq: None,
        ..r
    };
    assert_eq!(public(to_alice), to_carol);
    assert_eq!(public(to_bob), to_carol);
    app.stop().await;
}
on_both_stores!(a_room_change_tells_each_seat_its_own_snapshot_and_the_watchers_theirs);

async fn a_seat_cannot_be_left_while_its_match_runs(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let (_alice, mut bob, _code) = two_at_a_table(&app, "Alice", "Bob").await;
    bob.send(&ClientMsg::LeaveSeat).await;
    assert_eq!(bob.error_code().await, ErrorCode::MatchStarted);
    bob.send(&ClientMsg::Chat {
        channel: pandemonium_protocol::ChatChannel::Players,
        text: "still here".into(),
    })
    .await;
    bob.next_chat().await;
    let room = bob.room.clone().unwrap();
    assert_eq!(room.you, Some(1));
    assert_eq!(
        room.seats[1].presence,
        Presence::Online,
        "no bot took the seat"
    );
    app.stop().await;
}
on_both_stores!(a_seat_cannot_be_left_while_its_match_runs);

async fn a_match_result_is_written_with_its_last_action_even_under_kill_9(db: &TestDb) {
    let server = launch_with(db, &["--test-abort-after-finish"]).await;
    let app = TestApp::attach(server.port);
    let mut alice = Client::guest(server.port, "Alice").await;
    open_room(&app, &mut alice, "twenty_one", 1, vec![], json!({})).await;
    start(&mut alice).await;
    let match_id = alice.room.clone().unwrap().match_id.unwrap();
    alice.seq_act_without_answer(json!({"type": "stand"})).await;
    // The process ends itself the moment the finishing write commits.
    let mut server = server;
    let exit = tokio::time::timeout(Duration::from_secs(20), server.child.wait())
        .await
        .expect("the test hook stops the process")
        .expect("an exit status");
    assert!(!exit.success());

    let store = Store::connect(&db.url).await.unwrap();
    let stored = store.get_match(&match_id).await.unwrap().unwrap();
    assert_eq!(stored.status, MatchStatus::Finished);
    assert!(stored.outcome.is_some());
    assert_eq!(stored.log.len(), 1);
    // A store written by a server that kept the result apart (the last action saved, the
    // status not): the match running, its log in its running rows. The restarted server
    // finishes it rather than abandoning it.
    store.close().await;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&db.url).await.unwrap();
    for sql in [
        "UPDATE matches SET status = 'running', outcome = NULL, finished_at = NULL, log = NULL \
         WHERE id = $1",
        "DELETE FROM running_actions WHERE match_id = $1",
    ] {
        sqlx::query(sql)
            .bind(&match_id)
            .execute(&pool)
            .await
            .unwrap();
    }
    for (index, logged) in stored.log.iter().enumerate() {
        sqlx::query(
            "INSERT INTO running_actions (match_id, idx, seat, action, source, seq, at) \
             VALUES ($1, $2, $3, $4, 'player', $5, 0)",
        )
        .bind(&match_id)
        .bind(index as i64)
        .bind(i64::from(logged.seat))
        .bind(logged.action.to_string())
        .bind(logged.seq.map(|seq| seq as i64))
        .execute(&pool)
        .await
        .unwrap();
    }
    pool.close().await;
    let second = launch(db).await;
    let record = finished_record(&Http::new(second.port), &match_id).await;
    assert!(record.outcome.is_some());
    assert_eq!(record.log.len(), 1);
    drop(second);
}
on_both_stores!(a_match_result_is_written_with_its_last_action_even_under_kill_9);
