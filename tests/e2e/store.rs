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
/// since `running_actions` has no foreign key there), and only that match's appends fail: another
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

/// A connection of its own to the test's database, whichever it is.
async fn connect_any(url: &str) -> sqlx::AnyConnection {
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    sqlx::AnyConnection::connect(url).await.unwrap()
}

/// Rows per match in `table`, read through a connection of its own.
async fn rows_per_match(url: &str, table: &str) -> Vec<(String, i64)> {
    use sqlx::{Connection, Row};
    let mut conn = connect_any(url).await;
    let rows = sqlx::query(&format!(
        "SELECT match_id, COUNT(*) FROM {table} GROUP BY match_id ORDER BY match_id"
    ))
    .fetch_all(&mut conn)
    .await
    .unwrap()
    .iter()
    .map(|row| (row.get::<String, _>(0), row.get::<i64, _>(1)))
    .collect();
    conn.close().await.unwrap();
    rows
}

fn counts(rows: &[(&str, i64)]) -> Vec<(String, i64)> {
    rows.iter().map(|(m, n)| (m.to_string(), *n)).collect()
}

/// A match's `log` column as the store's end wrote it (`None` while it runs), read through a
/// connection of its own.
async fn log_column_of(url: &str, match_id: &str) -> Option<serde_json::Value> {
    use sqlx::{Connection, Row};
    let mut conn = connect_any(url).await;
    let log: Option<String> = sqlx::query("SELECT log FROM matches WHERE id = $1")
        .bind(match_id)
        .fetch_one(&mut conn)
        .await
        .unwrap()
        .get(0);
    conn.close().await.unwrap();
    log.map(|text| serde_json::from_str(&text).expect("the log is JSON"))
}

/// The actions of a log, as the tests write them (`{"n": i}`).
fn actions_of(log: &[pandemonium_protocol::LoggedAction]) -> Vec<serde_json::Value> {
    log.iter().map(|a| a.action.clone()).collect()
}

fn numbered(n: i64) -> Vec<serde_json::Value> {
    (0..n).map(|i| json!({"n": i})).collect()
}

/// One log model on both databases: a running match's actions are rows of `running_actions`,
/// in the order they arrived; the transaction that ends a match (finished or abandoned) writes
/// its whole log into its own row, which is where an ended match's log is read from, and what
/// a restart reads is the running matches' rows alone.
async fn an_ended_match_s_log_moves_into_its_row_in_the_transaction_that_ends_it(db: &TestDb) {
    let store = Store::connect(&db.url).await.unwrap();
    for id in ["m-a", "m-b", "m-c"] {
        store.start_match(&new_match(id, "demos", 1)).await.unwrap();
    }
    for index in 0..3u64 {
        for id in ["m-a", "m-b", "m-c"] {
            let text = json!({"n": index}).to_string();
            store
                .append(Append {
                    seq: Some(index + 10),
                    ..append(id, index, 0, &text, ActionSource::Player)
                })
                .await
                .unwrap();
        }
    }
    assert_eq!(
        rows_per_match(&db.url, "running_actions").await,
        counts(&[("m-a", 3), ("m-b", 3), ("m-c", 3)])
    );
    let running = store.running_matches().await.unwrap();
    assert_eq!(running.len(), 3);
    assert!(running.iter().all(|m| actions_of(&m.log) == numbered(3)));
    assert_eq!(
        log_column_of(&db.url, "m-a").await,
        None,
        "running: no log yet"
    );
    let record = store.match_record("m-a").await.unwrap().unwrap();
    assert!(
        record.log.is_empty(),
        "the API never shows a running match's log"
    );

    let (last, result) = (json!({"n": 3}).to_string(), outcome());
    store
        .append(Append {
            finish: Some(&result),
            ..append("m-a", 3, 1, &last, ActionSource::Bot)
        })
        .await
        .unwrap();
    store.abandon("m-b").await.unwrap();
    let written = log_column_of(&db.url, "m-a").await.expect("ended: its log");
    assert_eq!(
        written.as_array().map(Vec::len),
        Some(4),
        "the last action with the rest"
    );
    let finished = store.get_match("m-a").await.unwrap().unwrap();
    assert_eq!(finished.status, MatchStatus::Finished);
    assert_eq!(actions_of(&finished.log), numbered(4));
    assert_eq!(finished.log[1].seq, Some(11), "a player's seq is kept");
    assert_eq!(
        (finished.log[3].seat, finished.log[3].by),
        (1, ActionSource::Bot)
    );
    let record = store.match_record("m-a").await.unwrap().unwrap();
    assert_eq!(actions_of(&record.log), numbered(4));
    assert_eq!(
        actions_of(&store.get_match("m-b").await.unwrap().unwrap().log),
        numbered(3)
    );

    // An end written again (the match was already over) keeps the log the first wrote.
    store.abandon("m-a").await.unwrap();
    assert_eq!(store.get_match("m-a").await.unwrap().unwrap().log.len(), 4);

    // After a restart only m-c is read back, and its end gathers every row it appended.
    store.close().await;
    let store = Store::connect(&db.url).await.unwrap();
    let resumed = store.running_matches().await.unwrap();
    assert_eq!(resumed.len(), 1);
    assert_eq!(actions_of(&resumed[0].log), numbered(3));
    let text = json!({"n": 3}).to_string();
    store
        .append(append("m-c", 3, 0, &text, ActionSource::Bot))
        .await
        .unwrap();
    store.finish("m-c", &outcome()).await.unwrap();
    let ended = store.get_match("m-c").await.unwrap().unwrap();
    assert_eq!(actions_of(&ended.log), numbered(4));
    assert!(store.running_matches().await.unwrap().is_empty());
    store.close().await;
}
on_both_stores!(an_ended_match_s_log_moves_into_its_row_in_the_transaction_that_ends_it);

/// A match that ends without an action has an empty log; a match started after many rows were
/// appended reads only its own.
async fn a_match_s_log_holds_its_own_actions_only(db: &TestDb) {
    let store = Store::connect(&db.url).await.unwrap();
    for id in ["m-busy", "m-none"] {
        store.start_match(&new_match(id, "demos", 1)).await.unwrap();
    }
    let text = json!({"type": "pass"}).to_string();
    for index in 0..300u64 {
        store
            .append(append("m-busy", index, 0, &text, ActionSource::Bot))
            .await
            .unwrap();
    }
    store.abandon("m-none").await.unwrap();
    assert_eq!(log_column_of(&db.url, "m-none").await, Some(json!([])));
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
    assert_eq!(actions_of(late_log), numbered(1));
    let busy = store.get_match("m-busy").await.unwrap().unwrap();
    assert_eq!(busy.log.len(), 300);
    store.close().await;
}
on_both_stores!(a_match_s_log_holds_its_own_actions_only);

/// An ended match's log is sealed in its row: a late append for it is refused, and its log
/// stays as its end wrote it.
async fn an_append_for_an_ended_match_is_refused(db: &TestDb) {
    let store = Store::connect(&db.url).await.unwrap();
    store
        .start_match(&new_match("m", "demos", 1))
        .await
        .unwrap();
    let text = json!({"n": 0}).to_string();
    store
        .append(append("m", 0, 0, &text, ActionSource::Player))
        .await
        .unwrap();
    store.finish("m", &outcome()).await.unwrap();
    store.close().await;
    // A fresh writer, which knows no rows of the ended match.
    let store = Store::connect(&db.url).await.unwrap();
    let late = json!({"n": 1}).to_string();
    assert!(
        store
            .append(append("m", 1, 0, &late, ActionSource::Player))
            .await
            .is_err()
    );
    assert_eq!(
        actions_of(&store.get_match("m").await.unwrap().unwrap().log),
        numbered(1)
    );
    store.close().await;
}
on_both_stores!(an_append_for_an_ended_match_is_refused);

/// On SQLite the rows an ended match leaves in `running_actions` (it has no index, so they
/// are not deleted one by one when the match ends) are deleted from the front of the table
/// between batches, once no running match can own them: not while a match that started
/// before them still runs.
#[tokio::test]
async fn rows_ended_matches_leave_behind_are_deleted_once_no_running_match_can_own_them() {
    let (db, store) = sqlite_with_matches(&["m-long"]).await;
    let text = json!({"type": "pass"}).to_string();
    for index in 0..2u64 {
        store
            .append(append("m-long", index, 0, &text, ActionSource::Bot))
            .await
            .unwrap();
    }
    store
        .start_match(&new_match("m-old", "demos", 2))
        .await
        .unwrap();
    for index in 0..10u64 {
        store
            .append(append("m-old", index, 0, &text, ActionSource::Bot))
            .await
            .unwrap();
    }
    store.finish("m-old", &outcome()).await.unwrap();
    store
        .start_match(&new_match("m-new", "demos", 3))
        .await
        .unwrap();
    // Enough commits, one at a time, for the writer to prune and checkpoint while idle.
    let mut next = 0u64;
    let mut commit_new = async |store: &Store, commits: u64| {
        for _ in 0..commits {
            store
                .append(append("m-new", next, 0, &text, ActionSource::Bot))
                .await
                .unwrap();
            next += 1;
        }
    };
    commit_new(&store, 600).await;
    assert_eq!(
        rows_per_match(&db.url, "running_actions").await,
        counts(&[("m-long", 2), ("m-new", 600), ("m-old", 10)]),
        "m-long started before m-old's rows: they are kept while it runs"
    );
    store.finish("m-long", &outcome()).await.unwrap();
    commit_new(&store, 600).await;
    assert_eq!(
        rows_per_match(&db.url, "running_actions").await,
        counts(&[("m-new", 1200)]),
        "both ended matches' rows are gone, the running match's all kept"
    );
    for (id, n) in [("m-long", 2), ("m-old", 10)] {
        assert_eq!(
            store.get_match(id).await.unwrap().unwrap().log.len(),
            n,
            "{id}"
        );
    }
    assert_eq!(store.running_matches().await.unwrap()[0].log.len(), 1200);
    store.close().await;
    db.drop_database().await;
}

/// The migrations up to `version` only: a database as an older server left it. They are
/// copied from the backend's folder into one of their own, which sqlx reads as a migration
/// source.
async fn migrated_up_to(db: &TestDb, version: u32) {
    let postgres = db.url.starts_with("postgres");
    let all = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../migrations")
        .join(if postgres { "postgres" } else { "sqlite" });
    let older = std::env::temp_dir().join(format!(
        "pandemonium-migrations-{version}-{}",
        uuid::Uuid::new_v4()
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
    let url = match postgres {
        true => db.url.clone(),
        false => format!("{}?mode=rwc", db.url),
    };
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    migrator.run(&pool).await.unwrap();
    pool.close().await;
    std::fs::remove_dir_all(&older).unwrap();
}

/// Inserts a match row into a database of an older layout, with `extra` columns set.
async fn insert_old_match(
    conn: &mut sqlx::AnyConnection,
    id: &str,
    status: &str,
    extra: &[(&str, Option<String>)],
) {
    let room = serde_json::to_string(&new_match("m", "demos", 1).room).unwrap();
    let names: String = extra.iter().map(|(c, _)| format!(", {c}")).collect();
    let places: String = (0..extra.len()).map(|i| format!(", ${}", i + 5)).collect();
    let sql = format!(
        "INSERT INTO matches (id, room_code, game, config, seats, room, seed, seed_hash, \
         status, outcome, started_at, finished_at, rematch_of{names}) \
         VALUES ($1, 'ACDEFG', 'demos', '{{}}', '[]', $2, $3, 'h', $4, NULL, 1, NULL, NULL\
         {places})"
    );
    let mut query = sqlx::query(&sql)
        .bind(id.to_string())
        .bind(room)
        .bind("00".repeat(32))
        .bind(status.to_string());
    for (_, value) in extra {
        query = query.bind(value.clone());
    }
    query.execute(conn).await.unwrap();
}

/// Inserts actions `indexes` of `id` into `table` of an older layout; each action is
/// `{"n": index}`, its seq `index + 10`.
async fn insert_old_actions(
    conn: &mut sqlx::AnyConnection,
    table: &str,
    id: &str,
    indexes: std::ops::Range<i64>,
) {
    for index in indexes {
        sqlx::query(&format!(
            "INSERT INTO {table} (match_id, idx, seat, action, source, seq, at) \
             VALUES ($1, $2, 0, $3, 'player', $4, 1)"
        ))
        .bind(id.to_string())
        .bind(index)
        .bind(json!({"n": index}).to_string())
        .bind(index + 10)
        .execute(&mut *conn)
        .await
        .unwrap();
    }
}

/// Whether `table` still exists.
async fn has_table(url: &str, table: &str) -> bool {
    use sqlx::Connection;
    let mut conn = connect_any(url).await;
    let found = sqlx::query(&format!("SELECT COUNT(*) FROM {table}"))
        .fetch_one(&mut conn)
        .await
        .is_ok();
    conn.close().await.unwrap();
    found
}

/// A database as the last release left it (migration 0008): on SQLite a running match with
/// two actions in `actions` (from before 0005) and two in `actions_by_arrival`, an ended match
/// whose rows are in `actions_by_arrival` (found by its `log_rows`), one whose log is in
/// `actions`, and one that ended with no action; on PostgreSQL the same matches, every log in
/// `actions`. After the upgrade every ended log is in its row, the running match's rows are in
/// `running_actions` and its log goes on where it stood; the old tables are gone.
async fn a_database_made_by_the_last_release_keeps_every_log_after_the_upgrade(db: &TestDb) {
    use sqlx::Connection;
    migrated_up_to(db, 8).await;
    let postgres = db.url.starts_with("postgres");
    let mut conn = connect_any(&db.url).await;
    if postgres {
        for (id, status) in [
            ("m-up", "running"),
            ("m-arrived", "finished"),
            ("m-old", "finished"),
            ("m-none", "abandoned"),
        ] {
            insert_old_match(&mut conn, id, status, &[]).await;
        }
        insert_old_actions(&mut conn, "actions", "m-up", 0..4).await;
        insert_old_actions(&mut conn, "actions", "m-arrived", 0..3).await;
        insert_old_actions(&mut conn, "actions", "m-old", 0..2).await;
    } else {
        let rows = |list: &str| vec![("log_rows", Some(list.to_string()))];
        insert_old_match(
            &mut conn,
            "m-up",
            "running",
            &[("log_from", Some("0".into()))],
        )
        .await;
        insert_old_match(&mut conn, "m-arrived", "finished", &rows("[2,4,6]")).await;
        insert_old_match(&mut conn, "m-old", "finished", &rows("[]")).await;
        insert_old_match(&mut conn, "m-none", "abandoned", &rows("[]")).await;
        insert_old_actions(&mut conn, "actions", "m-up", 0..2).await;
        insert_old_actions(&mut conn, "actions", "m-old", 0..2).await;
        // Interleaved as rooms append: rowids 1..=6, m-up's at 1, 3, 5 (one a copy in both).
        for (id, index) in [("m-up", 1), ("m-arrived", 0), ("m-up", 2), ("m-arrived", 1)] {
            insert_old_actions(&mut conn, "actions_by_arrival", id, index..index + 1).await;
        }
        insert_old_actions(&mut conn, "actions_by_arrival", "m-up", 3..4).await;
        insert_old_actions(&mut conn, "actions_by_arrival", "m-arrived", 2..3).await;
    }
    conn.close().await.unwrap();

    let store = Store::connect(&db.url).await.expect("the upgrade runs");
    for table in ["actions", "actions_by_arrival"] {
        assert!(!has_table(&db.url, table).await, "{table} is gone");
    }
    assert_eq!(
        rows_per_match(&db.url, "running_actions").await,
        counts(&[("m-up", 4)]),
        "only the running match's rows are left to read at a restart"
    );
    for (id, n) in [("m-arrived", 3), ("m-old", 2), ("m-none", 0)] {
        let ended = store.get_match(id).await.unwrap().unwrap();
        assert_eq!(actions_of(&ended.log), numbered(n), "{id}");
        assert!(
            log_column_of(&db.url, id).await.is_some(),
            "{id}'s log is in its row"
        );
    }
    assert_eq!(
        store.get_match("m-arrived").await.unwrap().unwrap().log[2].seq,
        Some(12)
    );
    let running = store.running_matches().await.unwrap();
    assert_eq!(running.len(), 1);
    assert_eq!(actions_of(&running[0].log), numbered(4));
    assert_eq!(running[0].log[1].seq, Some(11));
    let taken = json!({"n": 1}).to_string();
    assert!(
        store
            .append(append("m-up", 1, 0, &taken, ActionSource::Bot))
            .await
            .is_err(),
        "an index the old layout holds is taken"
    );
    store.reopen_log("m-up").await.unwrap();
    let text = json!({"n": 4}).to_string();
    store
        .append(append("m-up", 4, 0, &text, ActionSource::Bot))
        .await
        .unwrap();
    store.abandon("m-up").await.unwrap();
    let ended = store.get_match("m-up").await.unwrap().unwrap();
    assert_eq!(actions_of(&ended.log), numbered(5));
    store.close().await;
}
on_both_stores!(a_database_made_by_the_last_release_keeps_every_log_after_the_upgrade);

/// A database as the writer that moved ended logs into `actions` left it (migration 0007):
/// a match running with two actions in `actions` and two pending, an ended match whose rows
/// were still to move, and an ended one moved but not yet deleted. Through both upgrades
/// every log reads whole.
#[tokio::test]
async fn a_database_whose_ended_logs_were_moved_reads_every_log_after_the_upgrade() {
    use sqlx::Connection;
    let db = TestDb::new(crate::support::Backend::Sqlite)
        .await
        .expect("sqlite");
    migrated_up_to(&db, 7).await;
    let mut conn = connect_any(&db.url).await;
    for (id, status, log_pending) in [
        ("m-up", "running", "0"),
        ("m-unmoved", "finished", "1"),
        ("m-moved", "finished", "0"),
    ] {
        insert_old_match(
            &mut conn,
            id,
            status,
            &[("log_pending", Some(log_pending.into()))],
        )
        .await;
    }
    for (table, id, indexes) in [
        ("actions", "m-up", 0..2),
        ("pending_actions", "m-up", 2..4),
        ("pending_actions", "m-unmoved", 0..3),
        ("actions", "m-moved", 0..3),
        ("pending_actions", "m-moved", 0..3),
    ] {
        insert_old_actions(&mut conn, table, id, indexes).await;
    }
    conn.close().await.unwrap();

    let store = quick_sqlite_store(&db).await;
    assert_eq!(
        rows_per_match(&db.url, "running_actions").await,
        counts(&[("m-up", 4)]),
    );
    for (id, n) in [("m-unmoved", 3), ("m-moved", 3)] {
        let ended = store.get_match(id).await.unwrap().unwrap();
        assert_eq!(actions_of(&ended.log), numbered(n), "{id}");
    }
    let running = store.running_matches().await.unwrap();
    assert_eq!(running.len(), 1);
    assert_eq!(actions_of(&running[0].log), numbered(4));
    assert_eq!(running[0].log[1].seq, Some(11));
    let text = json!({"n": 4}).to_string();
    store
        .append(append("m-up", 4, 0, &text, ActionSource::Bot))
        .await
        .unwrap();
    store.abandon("m-up").await.unwrap();
    let ended = store.get_match("m-up").await.unwrap().unwrap();
    assert_eq!(actions_of(&ended.log), numbered(5));
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
