//! The store, against SQLite and PostgreSQL alike.

use serde_json::json;
use std::time::Duration;

use pandemonium_protocol::{ActionSource, Outcome};
use pandemonium_server::store::{Append, MatchStatus, NewMatch, RoomSettings, Store, StoredSeat};

use crate::on_both_stores;
use crate::support::TestDb;

fn new_match(id: &str, game: &str, started_at: i64) -> NewMatch {
    NewMatch {
        id: id.into(),
        room_code: "ACDEFG".into(),
        game: game.into(),
        config: json!({"mode": "x"}),
        seats: vec![
            StoredSeat {
                player_id: Some("p1".into()),
                name: "Alice".into(),
                bot: false,
            },
            StoredSeat {
                player_id: None,
                name: "Bot 2".into(),
                bot: true,
            },
        ],
        room: RoomSettings {
            public: false,
            turn_seconds: Some(30),
            grace_seconds: 60,
            host: Some("p1".into()),
        },
        seed: "00".repeat(32),
        seed_hash: "ab".repeat(32),
        started_at,
        rematch_of: None,
    }
}

fn outcome() -> Outcome {
    Outcome {
        winners: vec![0],
        placements: vec![1, 2],
        scores: vec![5, 3],
        summary: "Alice wins".into(),
    }
}

async fn the_store_keeps_guests_matches_and_ordered_logs(db: &TestDb) {
    let store = Store::connect(&db.url).await.expect("connect and migrate");
    // Migrations are idempotent: connecting again is fine.
    let again = Store::connect(&db.url).await.expect("connect twice");
    again.close().await;

    store.insert_player("p1", "Alice", "hash-1").await.unwrap();
    assert_eq!(
        store.player_by_token_hash("hash-1").await.unwrap(),
        Some(("p1".into(), "Alice".into()))
    );
    assert_eq!(store.player_by_token_hash("hash-2").await.unwrap(), None);
    assert!(
        store.insert_player("p2", "Eve", "hash-1").await.is_err(),
        "token hashes are unique"
    );

    store
        .start_match(&new_match("m1", "soulitaire", 1))
        .await
        .unwrap();
    // Many concurrent appends are committed together and read back in order.
    let appends = (0..50u64).map(|i| {
        let store = store.clone();
        async move {
            let action = json!({"n": i}).to_string();
            store
                .append(append(
                    "m1",
                    i,
                    (i % 2) as u8,
                    &action,
                    ActionSource::Player,
                ))
                .await
        }
    });
    for result in futures_util::future::join_all(appends).await {
        result.expect("committed");
    }
    let running = store.running_matches().await.unwrap();
    assert_eq!(running.len(), 1);
    let m = &running[0];
    assert_eq!(m.log.len(), 50);
    assert!(
        m.log
            .iter()
            .enumerate()
            .all(|(i, l)| l.action["n"] == i as u64)
    );
    assert!(m.seats[1].bot);
    assert_eq!(m.room.turn_seconds, Some(30));

    // A duplicate index is refused, and nothing else is lost. After the failure the match's
    // later appends are refused (no gap in the log) until its room reopens the log.
    let (bad, next) = (json!({}).to_string(), json!({"n": 50}).to_string());
    assert!(
        store
            .append(append("m1", 3, 0, &bad, ActionSource::Bot))
            .await
            .is_err()
    );
    assert!(
        store
            .append(append("m1", 50, 1, &next, ActionSource::Timeout))
            .await
            .is_err(),
        "appends behind a failed one are refused until the room rolls back"
    );
    store.reopen_log("m1").await.unwrap();
    store
        .append(append("m1", 50, 1, &next, ActionSource::Timeout))
        .await
        .unwrap();
    store.finish("m1", &outcome()).await.unwrap();
    let finished = store.get_match("m1").await.unwrap().unwrap();
    assert_eq!(finished.status, MatchStatus::Finished);
    assert_eq!(finished.outcome, Some(outcome()));
    assert_eq!(finished.log.len(), 51);
    assert_eq!(finished.log[50].by, ActionSource::Timeout);
    assert!(store.running_matches().await.unwrap().is_empty());

    // Paging and filtering of finished matches, newest first.
    for (i, game) in ["demos", "soulitaire", "demos"].iter().enumerate() {
        let id = format!("h{i}");
        store
            .start_match(&new_match(&id, game, 10 + i as i64))
            .await
            .unwrap();
        store.finish(&id, &outcome()).await.unwrap();
    }
    store
        .start_match(&new_match("gone", "demos", 20))
        .await
        .unwrap();
    store.abandon("gone").await.unwrap();
    let (all, total) = store.finished_matches(None, 0, 2).await.unwrap();
    assert_eq!((all.len(), total), (2, 4));
    let (demos, total) = store.finished_matches(Some("demos"), 0, 10).await.unwrap();
    assert_eq!(total, 2, "abandoned matches are not history");
    assert!(demos.iter().all(|m| m.game == "demos"));
    let (page2, _) = store.finished_matches(None, 1, 2).await.unwrap();
    assert_eq!(page2.len(), 2);
    assert!(
        page2.iter().all(|m| !all.iter().any(|a| a.id == m.id)),
        "pages do not overlap"
    );
    store.close().await;
}
on_both_stores!(the_store_keeps_guests_matches_and_ordered_logs);

fn append<'a>(
    match_id: &'a str,
    index: u64,
    seat: u8,
    action: &'a str,
    source: ActionSource,
) -> Append<'a> {
    Append {
        match_id,
        index,
        seat,
        action,
        source,
        seq: None,
        finish: None,
    }
}

/// Queues the `i`th of `actions` as `refused(i, action)` and as `taken(i, action)` in turn,
/// back to back without waiting, so that they share batches; every `refused` append fails
/// (`why`) and every `taken` one commits.
async fn refused_beside_taken<'a>(
    store: &Store,
    actions: &'a [String],
    refused: impl Fn(u64, &'a str) -> Append<'a>,
    taken: impl Fn(u64, &'a str) -> Append<'a>,
    why: &str,
) {
    let mut refusals = Vec::new();
    let mut commits = Vec::new();
    for (i, action) in (0u64..).zip(actions) {
        refusals.push(store.queue_append(refused(i, action)).await.unwrap());
        commits.push(store.queue_append(taken(i, action)).await.unwrap());
    }
    for committing in refusals {
        assert!(committing.wait().await.is_err(), "{why}");
    }
    for committing in commits {
        committing
            .wait()
            .await
            .expect("the other match's appends commit");
    }
}

/// A batch holds many rooms' appends. One room's bad write (here a duplicate index) fails
/// that room's appends only; every other room's appends in the same batches commit.
async fn one_matchs_bad_write_does_not_fail_the_others_in_its_batch(db: &TestDb) {
    let store = Store::connect(&db.url).await.unwrap();
    for id in ["bad", "good"] {
        store.start_match(&new_match(id, "demos", 1)).await.unwrap();
    }
    let first = json!({"n": 0}).to_string();
    store
        .append(append("bad", 0, 0, &first, ActionSource::Player))
        .await
        .unwrap();
    let actions: Vec<_> = (0..40u64).map(|i| json!({"n": i}).to_string()).collect();
    refused_beside_taken(
        &store,
        &actions,
        |_, action| append("bad", 0, 0, action, ActionSource::Player),
        |i, action| append("good", i, 1, action, ActionSource::Bot),
        "a duplicate index fails",
    )
    .await;
    let good = store.get_match("good").await.unwrap().unwrap();
    assert_eq!(good.log.len(), 40);
    assert_eq!(store.get_match("bad").await.unwrap().unwrap().log.len(), 1);
    store.close().await;
}
on_both_stores!(one_matchs_bad_write_does_not_fail_the_others_in_its_batch);

/// An action for a match that has no row is refused (on SQLite by the writer, once per match,
/// since `pending_actions` has no foreign key), and only that match's appends fail: another
/// match's, queued in the same batches, commit.
async fn an_action_of_a_match_without_a_row_is_refused_alone(db: &TestDb) {
    let store = Store::connect(&db.url).await.unwrap();
    store
        .start_match(&new_match("real", "demos", 1))
        .await
        .unwrap();
    let actions: Vec<_> = (0..10u64).map(|i| json!({"n": i}).to_string()).collect();
    refused_beside_taken(
        &store,
        &actions,
        |i, action| append("ghost", i, 0, action, ActionSource::Player),
        |i, action| append("real", i, 1, action, ActionSource::Player),
        "an action of a match without a row is refused",
    )
    .await;
    assert_eq!(
        store.get_match("real").await.unwrap().unwrap().log.len(),
        10
    );
    assert!(store.get_match("ghost").await.unwrap().is_none());
    // Once the match has its row and its log is reopened (as its room does after a refused
    // append), its actions are taken.
    store
        .start_match(&new_match("ghost", "demos", 2))
        .await
        .unwrap();
    store.reopen_log("ghost").await.unwrap();
    store
        .append(append("ghost", 0, 0, &actions[0], ActionSource::Player))
        .await
        .expect("the match's first action, now that it has a row");
    assert_eq!(
        store.get_match("ghost").await.unwrap().unwrap().log.len(),
        1
    );
    store.close().await;
}
on_both_stores!(an_action_of_a_match_without_a_row_is_refused_alone);

/// Every write goes through the one writer, in the order it was issued: a guest, a match's
/// start and the match's first action, issued back to back without waiting, all commit, the
/// action never ahead of its match's row. (A second writer beside it, the pool, raced the
/// writer here, and on SQLite the two made each other wait out the lock in sleeps of up to
/// 100 ms, which every room's actions queued behind.)
async fn writes_issued_back_to_back_commit_in_that_order(db: &TestDb) {
    let store = Store::connect(&db.url).await.unwrap();
    let action = json!({"n": 0}).to_string();
    for round in 0..20 {
        let id = format!("m{round}");
        let player = format!("p{round}");
        let hash = format!("hash-{round}");
        let start = new_match(&id, "demos", 1);
        let (guest, started, appended) = tokio::join!(
            store.insert_player(&player, "Alice", &hash),
            store.start_match(&start),
            async {
                store
                    .queue_append(append(&id, 0, 0, &action, ActionSource::Player))
                    .await?
                    .wait()
                    .await
            },
        );
        guest.expect("the guest is written");
        started.expect("the match is written");
        appended.expect("its first action is written after it");
        assert_eq!(store.get_match(&id).await.unwrap().unwrap().log.len(), 1);
        assert_eq!(
            store.player_by_token_hash(&hash).await.unwrap(),
            Some((player, "Alice".into()))
        );
    }
    store.close().await;
}
on_both_stores!(writes_issued_back_to_back_commit_in_that_order);

/// The action that ends a match and the match's result are one write: there is no moment at
/// which the store holds the last action of a match still marked running.
async fn the_last_action_and_the_result_are_written_together(db: &TestDb) {
    let store = Store::connect(&db.url).await.unwrap();
    store
        .start_match(&new_match("m", "demos", 1))
        .await
        .unwrap();
    let action = json!({"n": 0}).to_string();
    let result = outcome();
    store
        .append(Append {
            finish: Some(&result),
            seq: Some(7),
            ..append("m", 0, 0, &action, ActionSource::Player)
        })
        .await
        .unwrap();
    let m = store.get_match("m").await.unwrap().unwrap();
    assert_eq!(m.status, MatchStatus::Finished);
    assert_eq!(m.outcome, Some(result));
    assert_eq!(m.log.len(), 1);
    assert_eq!(
        m.log[0].seq,
        Some(7),
        "a player's seq is kept with the action"
    );
    store.close().await;
}
on_both_stores!(the_last_action_and_the_result_are_written_together);

/// SQLite's write-ahead log does not keep its high-water mark: after a burst of writes the
/// periodic checkpoint folds it into the database and truncates it.
#[tokio::test]
async fn the_sqlite_wal_shrinks_back_after_many_writes() {
    use pandemonium_server::store::{SqliteOptions, StoreOptions, Synchronous};
    use sqlx::Connection;
    use std::time::Instant;

    let db = crate::support::TestDb::new(crate::support::Backend::Sqlite)
        .await
        .expect("sqlite");
    let store = Store::connect_with(
        &db.url,
        StoreOptions {
            sqlite: SqliteOptions {
                synchronous: Synchronous::Full,
                checkpoint_every: Duration::from_secs(1),
            },
            ..StoreOptions::default()
        },
    )
    .await
    .expect("connect");
    let path = db.url.trim_start_matches("sqlite://").to_string();
    let wal = format!("{path}-wal");
    let wal_size = || std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);

    // Many writes in one transaction: the WAL must hold them all until it commits (~12 MB).
    let mut writer = sqlx::SqliteConnection::connect(&db.url).await.unwrap();
    let mut tx = writer.begin().await.unwrap();
    let filler = "x".repeat(30_000);
    for i in 0..400 {
        sqlx::query(
            "INSERT INTO players (id, name, token_hash, created_at) VALUES ($1, $2, $3, 0)",
        )
        .bind(format!("p{i}"))
        .bind(&filler)
        .bind(format!("h{i}"))
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();
    writer.close().await.unwrap();
    let grown = wal_size();
    assert!(grown > 10_000_000, "the WAL grew to {grown} bytes");

    let started = Instant::now();
    while wal_size() > 1_000_000 && started.elapsed() < Duration::from_secs(20) {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let now = wal_size();
    assert!(
        now <= 1_000_000,
        "the WAL is still {now} bytes (was {grown}) after {:?}",
        started.elapsed()
    );
    // Nothing was lost by the truncation.
    assert!(store.player_by_token_hash("h399").await.unwrap().is_some());
    store.close().await;
    db.drop_database().await;
}

/// A writer that keeps appending must not keep growing the WAL: the writer checkpoints between
/// its own batches, so the log starts over from its beginning (no checkpoint run beside a busy
/// writer can ever finish, and then every commit wrote into fresh blocks of an ever longer
/// file). The periodic truncation is set far away so that only the writer's checkpoints count.
#[tokio::test]
async fn the_sqlite_wal_starts_over_while_actions_keep_coming() {
    use pandemonium_server::store::{SqliteOptions, StoreOptions, Synchronous};

    let db = crate::support::TestDb::new(crate::support::Backend::Sqlite)
        .await
        .expect("sqlite");
    let store = Store::connect_with(
        &db.url,
        StoreOptions {
            sqlite: SqliteOptions {
                synchronous: Synchronous::Normal,
                checkpoint_every: Duration::from_secs(3_600),
            },
            ..StoreOptions::default()
        },
    )
    .await
    .expect("connect");
    let path = db.url.trim_start_matches("sqlite://").to_string();
    let wal = format!("{path}-wal");
    store
        .start_match(&new_match("m-wal", "twenty_one", 1))
        .await
        .unwrap();
    // Each append is its own commit (awaited one by one): 3,000 commits of a page or two
    // each would leave a WAL of ~20 MB if it never started over.
    let action = json!({"type": "pass", "note": "x".repeat(200)}).to_string();
    let mut largest = 0;
    for index in 0..3_000u64 {
        store
            .append(Append {
                match_id: "m-wal",
                index,
                seat: (index % 2) as u8,
                action: &action,
                source: ActionSource::Player,
                seq: None,
                finish: None,
            })
            .await
            .unwrap();
        largest = largest.max(std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0));
    }
    assert!(
        largest < 4_000_000,
        "the WAL grew to {largest} bytes while actions were appended"
    );
    let stored = store.get_match("m-wal").await.unwrap().unwrap();
    assert_eq!(stored.log.len(), 3_000, "every append is kept");
    store.close().await;
    db.drop_database().await;
}

/// The guest prune searches without SQLite's write lock, so however long the search over
/// every match's seats takes, the writer (and every room's actions behind it) never waits on
/// it. Here another connection holds the write lock throughout: with nothing to delete, the
/// prune still finishes, where a delete-with-search would have waited for the lock and failed.
#[tokio::test]
async fn the_guest_prune_searches_without_the_write_lock() {
    use sqlx::Connection;

    let db = crate::support::TestDb::new(crate::support::Backend::Sqlite)
        .await
        .expect("sqlite");
    let store = Store::connect(&db.url).await.expect("connect");
    store.insert_player("p1", "Alice", "hash-1").await.unwrap();
    store
        .start_match(&new_match("m", "demos", 1))
        .await
        .unwrap();

    sqlx::any::install_default_drivers();
    let mut holder = sqlx::AnyConnection::connect(&db.url).await.unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut holder)
        .await
        .unwrap();
    assert_eq!(
        store.prune_guests(Duration::ZERO).await.unwrap(),
        0,
        "Alice sat in a match: nothing to delete, and no lock needed to find that out"
    );
    sqlx::query("ROLLBACK").execute(&mut holder).await.unwrap();
    holder.close().await.unwrap();
    assert_eq!(
        store.player_by_token_hash("hash-1").await.unwrap(),
        Some(("p1".into(), "Alice".into()))
    );
    store.close().await;
    db.drop_database().await;
}

/// The page size of the database at `url`, read through a connection of its own.
async fn page_size(url: &str) -> i64 {
    use sqlx::Connection;
    let mut conn = sqlx::SqliteConnection::connect(url).await.unwrap();
    let size: i64 = sqlx::query_scalar("PRAGMA page_size")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    size
}

/// A new SQLite database is made of 1 KiB pages: every commit writes each page it touched to
/// the WAL whole, so small pages are what keeps a move's writes to a few kilobytes.
#[tokio::test]
async fn a_new_sqlite_database_is_made_of_1_kib_pages() {
    let db = TestDb::new(crate::support::Backend::Sqlite)
        .await
        .expect("sqlite");
    let store = Store::connect(&db.url).await.expect("connect");
    store
        .start_match(&new_match("m-pages", "demos", 1))
        .await
        .unwrap();
    store.close().await;
    assert_eq!(page_size(&db.url).await, 1024);
    db.drop_database().await;
}

/// A database made before keeps its page size (SQLite fixes it when the file is created) and
/// works as before.
#[tokio::test]
async fn an_existing_sqlite_database_keeps_its_page_size() {
    use sqlx::Connection;
    let db = TestDb::new(crate::support::Backend::Sqlite)
        .await
        .expect("sqlite");
    let create = format!("{}?mode=rwc", db.url);
    let mut conn = sqlx::SqliteConnection::connect(&create).await.unwrap();
    for statement in [
        "PRAGMA page_size = 4096",
        "PRAGMA journal_mode = WAL",
        "CREATE TABLE earlier (id INTEGER PRIMARY KEY)",
    ] {
        sqlx::query(statement).execute(&mut conn).await.unwrap();
    }
    conn.close().await.unwrap();

    let store = Store::connect(&db.url).await.expect("connect");
    store
        .start_match(&new_match("m-old", "demos", 1))
        .await
        .unwrap();
    store
        .append(append(
            "m-old",
            0,
            0,
            &json!({"type": "pass"}).to_string(),
            ActionSource::Player,
        ))
        .await
        .unwrap();
    let stored = store.get_match("m-old").await.unwrap().unwrap();
    assert_eq!(stored.log.len(), 1);
    store.close().await;
    assert_eq!(page_size(&db.url).await, 4096);
    db.drop_database().await;
}

/// A store on a new SQLite database whose writer commits without waiting for the disk (the
/// tests below count rows and pages, not syncs) and never truncates its WAL on a timer.
async fn quick_sqlite_store(db: &TestDb) -> Store {
    use pandemonium_server::store::{SqliteOptions, StoreOptions, Synchronous};
    Store::connect_with(
        &db.url,
        StoreOptions {
            sqlite: SqliteOptions {
                synchronous: Synchronous::Normal,
                checkpoint_every: Duration::from_secs(3_600),
            },
            ..StoreOptions::default()
        },
    )
    .await
    .expect("connect")
}

/// A new SQLite database and a [`quick_sqlite_store`] on it, with `matches` started.
async fn sqlite_with_matches(matches: &[&str]) -> (TestDb, Store) {
    let db = TestDb::new(crate::support::Backend::Sqlite)
        .await
        .expect("sqlite");
    let store = quick_sqlite_store(&db).await;
    for id in matches {
        store.start_match(&new_match(id, "demos", 1)).await.unwrap();
    }
    (db, store)
}

/// Rows per match in `table`, read through a connection of its own.
async fn rows_per_match(url: &str, table: &str) -> Vec<(String, i64)> {
    use sqlx::Connection;
    let mut conn = sqlx::SqliteConnection::connect(url).await.unwrap();
    let rows = sqlx::query_as(&format!(
        "SELECT match_id, COUNT(*) FROM {table} GROUP BY match_id ORDER BY match_id"
    ))
    .fetch_all(&mut conn)
    .await
    .unwrap();
    conn.close().await.unwrap();
    rows
}

fn counts(rows: &[(&str, i64)]) -> Vec<(String, i64)> {
    rows.iter().map(|(m, n)| (m.to_string(), *n)).collect()
}

/// Waits until the writer has moved every ended match's actions into `actions`. It moves them
/// at a pace (a tenth of its time), after its batches and while it is idle, so this watches
/// the matches' `log_pending` through a connection of its own.
async fn moves_done(url: &str) {
    use sqlx::Connection;
    let mut conn = sqlx::SqliteConnection::connect(url).await.unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (waiting,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM matches WHERE log_pending = 1")
                .fetch_one(&mut conn)
                .await
                .unwrap();
        if waiting == 0 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{waiting} ended matches still to move after 10 s"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    conn.close().await.unwrap();
}

/// On SQLite a running match's actions are appended to `pending_actions`, in arrival order
/// and unindexed, and move into `actions` once the match has ended (finished or abandoned).
/// The log reads the same wherever its rows are, before and after the move, and after a
/// restart, when the writer finds the running matches' rows again.
#[tokio::test]
async fn a_running_match_s_actions_move_into_the_log_when_it_ends() {
    let (db, store) = sqlite_with_matches(&["m-a", "m-b", "m-c"]).await;
    let action = |n: u64| json!({"n": n}).to_string();
    for index in 0..3u64 {
        for id in ["m-a", "m-b", "m-c"] {
            let text = action(index);
            store
                .append(append(id, index, 0, &text, ActionSource::Bot))
                .await
                .unwrap();
        }
    }
    assert_eq!(
        rows_per_match(&db.url, "pending_actions").await,
        counts(&[("m-a", 3), ("m-b", 3), ("m-c", 3)])
    );
    assert!(rows_per_match(&db.url, "actions").await.is_empty());
    let running = store.running_matches().await.unwrap();
    assert_eq!(running.len(), 3);
    assert!(
        running.iter().all(|m| m.log.len() == 3),
        "logs read from pending rows"
    );
    let record = store.match_record("m-a").await.unwrap().unwrap();
    assert!(
        record.log.is_empty(),
        "the API's read of a running match skips its log"
    );

    let (last, result) = (action(3), outcome());
    store
        .append(Append {
            finish: Some(&result),
            ..append("m-a", 3, 1, &last, ActionSource::Player)
        })
        .await
        .unwrap();
    store.abandon("m-b").await.unwrap();
    let finished = store.get_match("m-a").await.unwrap().unwrap();
    assert_eq!(finished.log.len(), 4, "read whole, moved or not");
    moves_done(&db.url).await;
    assert_eq!(
        rows_per_match(&db.url, "actions").await,
        counts(&[("m-a", 4), ("m-b", 3)]),
        "an ended match's log is in `actions`, its last action with it"
    );
    let finished = store.get_match("m-a").await.unwrap().unwrap();
    assert_eq!(finished.status, MatchStatus::Finished);
    let logged: Vec<_> = finished.log.iter().map(|a| a.action.clone()).collect();
    assert_eq!(logged, (0..4).map(|n| json!({"n": n})).collect::<Vec<_>>());
    assert_eq!(finished.log[3].seat, 1);
    let record = store.match_record("m-a").await.unwrap().unwrap();
    assert_eq!(record.log.len(), 4, "an ended match's record has its log");

    // After a restart the writer knows m-c's earlier rows: ending it moves them all.
    store.close().await;
    let store = quick_sqlite_store(&db).await;
    let resumed = store.running_matches().await.unwrap();
    assert_eq!(resumed.len(), 1);
    assert_eq!(resumed[0].log.len(), 3);
    let text = action(3);
    store
        .append(append("m-c", 3, 0, &text, ActionSource::Bot))
        .await
        .unwrap();
    store.finish("m-c", &outcome()).await.unwrap();
    let ended = store.get_match("m-c").await.unwrap().unwrap();
    assert_eq!(ended.log.len(), 4);
    moves_done(&db.url).await;
    assert_eq!(
        rows_per_match(&db.url, "actions").await,
        counts(&[("m-a", 4), ("m-b", 3), ("m-c", 4)])
    );
    store.close().await;
    db.drop_database().await;
}

/// The end of a match commits without moving its actions (when many tables end together,
/// the moves held every room's actions behind them). Until they move, its log reads whole
/// from `pending_actions`; a writer that starts finds the matches still to move and moves
/// them while it is idle. (The state is made by hand: a moved match put back.)
#[tokio::test]
async fn an_ended_match_s_log_reads_whole_until_its_actions_move_even_across_a_restart() {
    let (db, store) = sqlite_with_matches(&["m-a"]).await;
    for index in 0..5u64 {
        let text = json!({"n": index}).to_string();
        store
            .append(append("m-a", index, 0, &text, ActionSource::Bot))
            .await
            .unwrap();
    }
    store.finish("m-a", &outcome()).await.unwrap();
    moves_done(&db.url).await;
    store.close().await;
    // As a writer stopped right after the end left it: rows only in `pending_actions`.
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&db.url).await.unwrap();
    sqlx::query("DELETE FROM actions WHERE match_id = 'm-a'")
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("UPDATE matches SET log_pending = 1 WHERE id = 'm-a'")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    assert_eq!(
        rows_per_match(&db.url, "pending_actions").await,
        counts(&[("m-a", 5)])
    );

    let store = quick_sqlite_store(&db).await;
    let ended = store.get_match("m-a").await.unwrap().unwrap();
    let logged: Vec<_> = ended.log.iter().map(|a| a.action.clone()).collect();
    assert_eq!(logged, (0..5).map(|n| json!({"n": n})).collect::<Vec<_>>());
    moves_done(&db.url).await;
    assert_eq!(
        rows_per_match(&db.url, "actions").await,
        counts(&[("m-a", 5)]),
        "moved by the writer that found it"
    );
    let record = store.match_record("m-a").await.unwrap().unwrap();
    assert_eq!(record.log.len(), 5);
    store.close().await;
    db.drop_database().await;
}

/// Commits one at a time after which the writer has checkpointed (and pruned) at least once:
/// it checkpoints at the first idle moment after 500 batches, and after 1,250 whether idle or
/// not (`CHECKPOINT_AT_THE_LATEST`). A test that counted on an idle moment failed when the
/// machine was busy: the next write was queued before the writer looked.
const BATCHES_TO_A_CHECKPOINT: u64 = 1_300;

/// The rows of ended matches leave `pending_actions` with the writer's checkpoints: all of
/// those ahead of the first row of every running match, and long runs of them between the
/// rows of a match still running; nothing of a running match goes.
#[tokio::test]
async fn the_pending_rows_of_ended_matches_are_deleted_with_the_checkpoints() {
    let (db, store) = sqlite_with_matches(&["m-early", "m-long", "m-late", "m-many"]).await;
    let text = json!({"type": "pass"}).to_string();
    let mut next = std::collections::HashMap::<&str, u64>::new();
    let mut push = async |id: &'static str, count: usize| {
        for _ in 0..count {
            let index = next.entry(id).or_default();
            store
                .append(append(id, *index, 0, &text, ActionSource::Bot))
                .await
                .unwrap();
            *index += 1;
        }
    };
    // In the table: m-early's 5 rows, m-long, m-late's 5, m-long, m-many's 100, m-long...
    push("m-early", 5).await;
    push("m-long", 1).await;
    push("m-late", 5).await;
    push("m-long", 1).await;
    push("m-many", 100).await;
    for id in ["m-early", "m-late", "m-many"] {
        store.finish(id, &outcome()).await.unwrap();
    }
    // Enough commits (one per append, each awaited) for the writer to checkpoint.
    push("m-long", BATCHES_TO_A_CHECKPOINT as usize).await;
    let long = BATCHES_TO_A_CHECKPOINT as i64 + 2;
    assert_eq!(
        rows_per_match(&db.url, "pending_actions").await,
        counts(&[("m-late", 5), ("m-long", long)]),
        "m-early's rows and m-many's long run are gone; m-late's few wait for m-long"
    );
    store.finish("m-long", &outcome()).await.unwrap();
    for index in 0..BATCHES_TO_A_CHECKPOINT {
        store
            .start_match(&new_match(&format!("m-{index}"), "demos", 1))
            .await
            .unwrap();
    }
    assert!(
        rows_per_match(&db.url, "pending_actions").await.is_empty(),
        "with nothing running, every moved row goes"
    );
    let long_log = store.get_match("m-long").await.unwrap().unwrap().log;
    assert_eq!(long_log.len() as i64, long);
    assert_eq!(
        rows_per_match(&db.url, "actions").await,
        counts(&[
            ("m-early", 5),
            ("m-late", 5),
            ("m-long", long),
            ("m-many", 100)
        ])
    );
    store.close().await;
    db.drop_database().await;
}

/// The writer deletes only rows of matches that are no longer running, whoever appended
/// them: a second store on the same file (another process) keeps its running match's rows
/// while this one prunes around them.
#[tokio::test]
async fn a_prune_never_deletes_rows_of_a_match_another_store_is_running() {
    let db = TestDb::new(crate::support::Backend::Sqlite)
        .await
        .expect("sqlite");
    let ours = quick_sqlite_store(&db).await;
    let theirs = quick_sqlite_store(&db).await;
    for id in ["m-ours", "m-ended", "m-theirs"] {
        ours.start_match(&new_match(id, "demos", 1)).await.unwrap();
    }
    let text = json!({"type": "pass"}).to_string();
    // Their running match's rows sit in a long run this writer knows only as ended rows.
    for index in 0..70u64 {
        ours.append(append("m-ended", index, 0, &text, ActionSource::Bot))
            .await
            .unwrap();
        theirs
            .append(append("m-theirs", index, 0, &text, ActionSource::Bot))
            .await
            .unwrap();
    }
    ours.finish("m-ended", &outcome()).await.unwrap();
    for index in 0..BATCHES_TO_A_CHECKPOINT {
        ours.append(append("m-ours", index, 0, &text, ActionSource::Bot))
            .await
            .unwrap();
    }
    assert_eq!(
        rows_per_match(&db.url, "pending_actions").await,
        counts(&[("m-ours", BATCHES_TO_A_CHECKPOINT as i64), ("m-theirs", 70)]),
        "the ended match's rows went, theirs stayed"
    );
    let running = ours.running_matches().await.unwrap();
    let theirs_log = running.iter().find(|m| m.id == "m-theirs").unwrap();
    assert_eq!(theirs_log.log.len(), 70);
    theirs.close().await;
    ours.close().await;
    db.drop_database().await;
}

/// A match running when the database was upgraded has its earlier actions in `actions` and
/// the rest in `pending_actions`: its log joins the two, and ending it moves the rest.
#[tokio::test]
async fn a_match_running_across_the_upgrade_keeps_its_earlier_actions() {
    use sqlx::Connection;
    let (db, store) = sqlite_with_matches(&["m-up"]).await;
    let mut conn = sqlx::SqliteConnection::connect(&db.url).await.unwrap();
    for index in 0..2i64 {
        sqlx::query(
            "INSERT INTO actions (match_id, idx, seat, action, source, seq, at) \
             VALUES ('m-up', $1, 0, $2, 'player', $3, 1)",
        )
        .bind(index)
        .bind(json!({"n": index}).to_string())
        .bind(index + 10)
        .execute(&mut conn)
        .await
        .unwrap();
    }
    conn.close().await.unwrap();
    let text = json!({"n": 2}).to_string();
    store
        .append(append("m-up", 2, 0, &text, ActionSource::Bot))
        .await
        .unwrap();
    let running = store.running_matches().await.unwrap();
    assert_eq!(running[0].log.len(), 3);
    assert_eq!(running[0].log[1].seq, Some(11));
    store.abandon("m-up").await.unwrap();
    let ended = store.get_match("m-up").await.unwrap().unwrap();
    let logged: Vec<_> = ended.log.iter().map(|a| a.action.clone()).collect();
    assert_eq!(logged, (0..3).map(|n| json!({"n": n})).collect::<Vec<_>>());
    store.close().await;
    db.drop_database().await;
}

/// Empties the WAL (a truncating checkpoint, run by a connection of its own).
async fn empty_the_wal(url: &str) {
    use sqlx::Connection;
    let mut conn = sqlx::SqliteConnection::connect(url).await.unwrap();
    let (busy, _, _): (i64, i64, i64) = sqlx::query_as("PRAGMA wal_checkpoint(TRUNCATE)")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(busy, 0, "nothing kept the WAL from being emptied");
    conn.close().await.unwrap();
}

/// Appending a move writes the log's last page (and now and then the page above it), not a
/// page of an index for each match in the commit: with 20 matches taking turns, each append
/// its own commit, the WAL grows by fewer than 1.5 pages per commit (an index ordered by
/// match made it ~3).
#[tokio::test]
async fn an_append_writes_the_log_s_last_page_not_a_page_per_match() {
    let ids: Vec<String> = (0..20).map(|n| format!("match-{n:02}")).collect();
    let names: Vec<&str> = ids.iter().map(String::as_str).collect();
    let (db, store) = sqlite_with_matches(&names).await;
    empty_the_wal(&db.url).await;
    let text =
        json!({"type": "secret_discard", "card": "10S", "take": {"discard": "8C"}}).to_string();
    let commits = 300;
    for n in 0..commits {
        let id = &ids[n % ids.len()];
        store
            .append(append(
                id,
                (n / ids.len()) as u64,
                0,
                &text,
                ActionSource::Bot,
            ))
            .await
            .unwrap();
    }
    // Nothing checkpointed meanwhile (the writer waits for 500 commits): the WAL holds
    // every page written since it was emptied, each as a frame of 24 bytes and a page.
    let path = db.url.trim_start_matches("sqlite://").to_string();
    let wal = std::fs::metadata(format!("{path}-wal")).unwrap().len();
    let frames = (wal - 32) / (24 + 1024);
    let per_commit = frames as f64 / commits as f64;
    assert!(
        per_commit < 1.5,
        "{frames} WAL frames for {commits} commits ({per_commit:.2} per commit)"
    );
    store.close().await;
    db.drop_database().await;
}
