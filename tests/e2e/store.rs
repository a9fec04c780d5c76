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
/// since `actions_by_arrival` has no foreign key), and only that match's appends fail: another
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

/// A match's `log_rows` as the store's end recorded them, read through a connection of its
/// own.
async fn log_rows_of(url: &str, match_id: &str) -> Option<String> {
    use sqlx::Connection;
    let mut conn = sqlx::SqliteConnection::connect(url).await.unwrap();
    let (rows,): (Option<String>,) = sqlx::query_as("SELECT log_rows FROM matches WHERE id = $1")
        .bind(match_id)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    rows
}

/// The rowids of a match's rows in `actions_by_arrival`, in index order.
async fn rowids_of(url: &str, match_id: &str) -> Vec<i64> {
    use sqlx::Connection;
    let mut conn = sqlx::SqliteConnection::connect(url).await.unwrap();
    let rows: Vec<(i64,)> =
        sqlx::query_as("SELECT rowid FROM actions_by_arrival WHERE match_id = $1 ORDER BY idx")
            .bind(match_id)
            .fetch_all(&mut conn)
            .await
            .unwrap();
    conn.close().await.unwrap();
    rows.into_iter().map(|(rowid,)| rowid).collect()
}

/// On SQLite actions are appended to `actions_by_arrival`, in arrival order and unindexed,
/// and stay there: a match's end (finished or abandoned) records the rowids of its rows, and
/// its log is read by them. The log reads the same while the match runs, once it has ended,
/// and after a restart, when the writer finds the running matches' rows again.
#[tokio::test]
async fn an_ended_match_s_log_is_read_by_the_rows_its_end_recorded() {
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
        rows_per_match(&db.url, "actions_by_arrival").await,
        counts(&[("m-a", 3), ("m-b", 3), ("m-c", 3)])
    );
    let running = store.running_matches().await.unwrap();
    assert_eq!(running.len(), 3);
    assert!(running.iter().all(|m| m.log.len() == 3));
    let record = store.match_record("m-a").await.unwrap().unwrap();
    assert!(
        record.log.is_empty(),
        "the API's read of a running match skips its log"
    );
    assert_eq!(log_rows_of(&db.url, "m-a").await, None, "running: none yet");

    let (last, result) = (action(3), outcome());
    store
        .append(Append {
            finish: Some(&result),
            ..append("m-a", 3, 1, &last, ActionSource::Player)
        })
        .await
        .unwrap();
    store.abandon("m-b").await.unwrap();
    let recorded = |rowids: Vec<i64>| {
        let listed: Vec<String> = rowids.iter().map(i64::to_string).collect();
        Some(format!("[{}]", listed.join(",")))
    };
    let a_rows = rowids_of(&db.url, "m-a").await;
    assert_eq!(a_rows.len(), 4);
    assert_eq!(
        log_rows_of(&db.url, "m-a").await,
        recorded(a_rows),
        "the end records its rows, its last action's with them"
    );
    assert_eq!(
        log_rows_of(&db.url, "m-b").await,
        recorded(rowids_of(&db.url, "m-b").await)
    );
    let finished = store.get_match("m-a").await.unwrap().unwrap();
    assert_eq!(finished.status, MatchStatus::Finished);
    let logged: Vec<_> = finished.log.iter().map(|a| a.action.clone()).collect();
    assert_eq!(logged, (0..4).map(|n| json!({"n": n})).collect::<Vec<_>>());
    assert_eq!(finished.log[3].seat, 1);
    let record = store.match_record("m-a").await.unwrap().unwrap();
    assert_eq!(record.log.len(), 4, "an ended match's record has its log");
    assert!(rows_per_match(&db.url, "actions").await.is_empty());

    // An end written again (the match was already over) keeps the rows the first recorded.
    store.abandon("m-a").await.unwrap();
    assert_eq!(store.get_match("m-a").await.unwrap().unwrap().log.len(), 4);

    // After a restart the writer knows m-c's earlier rows: its end records them all.
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
    assert_eq!(
        log_rows_of(&db.url, "m-c").await,
        recorded(rowids_of(&db.url, "m-c").await)
    );
    let ended = store.get_match("m-c").await.unwrap().unwrap();
    let logged: Vec<_> = ended.log.iter().map(|a| a.action.clone()).collect();
    assert_eq!(logged, (0..4).map(|n| json!({"n": n})).collect::<Vec<_>>());
    store.close().await;
    db.drop_database().await;
}

/// A match that ends without an action records no rows, and its log reads empty; a match
/// started after thousands of rows were appended reads only its own.
#[tokio::test]
async fn a_match_s_log_holds_its_own_rows_only() {
    let (db, store) = sqlite_with_matches(&["m-busy", "m-none"]).await;
    let text = json!({"type": "pass"}).to_string();
    for index in 0..2_000u64 {
        store
            .append(append("m-busy", index, 0, &text, ActionSource::Bot))
            .await
            .unwrap();
    }
    store.abandon("m-none").await.unwrap();
    assert_eq!(log_rows_of(&db.url, "m-none").await.as_deref(), Some("[]"));
    assert!(
        store
            .get_match("m-none")
            .await
            .unwrap()
            .unwrap()
            .log
            .is_empty()
    );
    store
        .start_match(&new_match("m-late", "demos", 2))
        .await
        .unwrap();
    let late = json!({"n": 0}).to_string();
    store
        .append(append("m-late", 0, 1, &late, ActionSource::Player))
        .await
        .unwrap();
    let running = store.running_matches().await.unwrap();
    let late_log = &running.iter().find(|m| m.id == "m-late").unwrap().log;
    assert_eq!(late_log.len(), 1);
    assert_eq!(late_log[0].action, json!({"n": 0}));
    store.close().await;
    db.drop_database().await;
}

/// The migrations up to `version` only: a database as an older server left it. They are
/// copied into a folder of their own, which sqlx reads as a migration source.
async fn migrated_up_to(url: &str, version: u32) {
    let all = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations");
    let older = std::env::temp_dir().join(format!(
        "pandemonium-migrations-{version}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&older).unwrap();
    for entry in std::fs::read_dir(&all).unwrap() {
        let name = entry.unwrap().file_name();
        let number: u32 = name.to_str().unwrap()[..4].parse().unwrap();
        if number <= version {
            std::fs::copy(all.join(&name), older.join(&name)).unwrap();
        }
    }
    let migrator = sqlx::migrate::Migrator::new(older.as_path()).await.unwrap();
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&format!("{url}?mode=rwc"))
        .await
        .unwrap();
    migrator.run(&pool).await.unwrap();
    pool.close().await;
    std::fs::remove_dir_all(&older).unwrap();
}

/// A database as the writer that moved ended logs into `actions` left it (migration 0007):
/// a match running with two actions in `actions` and two pending, an ended match whose rows
/// were still to move, and an ended one moved but not yet deleted. The upgrade moves what
/// was left to move and deletes the copies; every log reads whole, and the running match's
/// end records its rows.
#[tokio::test]
async fn a_database_whose_ended_logs_were_moved_reads_every_log_after_the_upgrade() {
    use sqlx::Connection;
    let db = TestDb::new(crate::support::Backend::Sqlite)
        .await
        .expect("sqlite");
    migrated_up_to(&db.url, 7).await;
    let mut conn = sqlx::SqliteConnection::connect(&db.url).await.unwrap();
    let room = serde_json::to_string(&new_match("m", "demos", 1).room).unwrap();
    let insert_match = |id: &'static str, status: &'static str, log_pending: i64| {
        sqlx::query(
            "INSERT INTO matches (id, room_code, game, config, seats, room, seed, seed_hash, \
             status, outcome, started_at, finished_at, rematch_of, log_pending) \
             VALUES ($1, 'ACDEFG', 'demos', '{}', '[]', $2, $3, 'h', $4, NULL, 1, NULL, \
             NULL, $5)",
        )
        .bind(id)
        .bind(room.clone())
        .bind("00".repeat(32))
        .bind(status)
        .bind(log_pending)
    };
    for (id, status, log_pending) in [
        ("m-up", "running", 0),
        ("m-unmoved", "finished", 1),
        ("m-moved", "finished", 0),
    ] {
        insert_match(id, status, log_pending)
            .execute(&mut conn)
            .await
            .unwrap();
    }
    for (table, id, indexes) in [
        ("actions", "m-up", 0..2),
        ("pending_actions", "m-up", 2..4),
        ("pending_actions", "m-unmoved", 0..3),
        ("actions", "m-moved", 0..3),
        ("pending_actions", "m-moved", 0..3),
    ] {
        for index in indexes {
            sqlx::query(&format!(
                "INSERT INTO {table} (match_id, idx, seat, action, source, seq, at) \
                 VALUES ($1, $2, 0, $3, 'player', $4, 1)"
            ))
            .bind(id)
            .bind(index)
            .bind(json!({"n": index}).to_string())
            .bind(index + 10)
            .execute(&mut conn)
            .await
            .unwrap();
        }
    }
    conn.close().await.unwrap();

    let store = quick_sqlite_store(&db).await;
    assert_eq!(
        rows_per_match(&db.url, "actions_by_arrival").await,
        counts(&[("m-up", 2)]),
        "the copies of ended matches' rows are gone"
    );
    let whole = |n: i64| (0..n).map(|i| json!({"n": i})).collect::<Vec<_>>();
    let actions_of = |m: &pandemonium_server::store::StoredMatch| -> Vec<serde_json::Value> {
        m.log.iter().map(|a| a.action.clone()).collect()
    };
    for (id, n) in [("m-unmoved", 3), ("m-moved", 3)] {
        let ended = store.get_match(id).await.unwrap().unwrap();
        assert_eq!(actions_of(&ended), whole(n), "{id}");
    }
    let running = store.running_matches().await.unwrap();
    assert_eq!(running.len(), 1);
    assert_eq!(actions_of(&running[0]), whole(4));
    assert_eq!(running[0].log[1].seq, Some(11));
    let text = json!({"n": 4}).to_string();
    store
        .append(append("m-up", 4, 0, &text, ActionSource::Bot))
        .await
        .unwrap();
    store.abandon("m-up").await.unwrap();
    assert_eq!(
        log_rows_of(&db.url, "m-up")
            .await
            .map(|rows| rows.matches(',').count()),
        Some(2),
        "three rows in `actions_by_arrival`: the two from before and the new one"
    );
    let ended = store.get_match("m-up").await.unwrap().unwrap();
    assert_eq!(actions_of(&ended), whole(5));
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
