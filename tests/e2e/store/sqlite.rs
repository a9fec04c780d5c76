//! SQLite's own file: its write-ahead log, its page size, and a guest prune that does not
//! hold its write lock.

use serde_json::json;
use std::time::Duration;

use pandemonium_protocol::ActionSource;
use pandemonium_server::store::{Append, Store};

use super::{append, new_match};
use crate::support::TestDb;

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
        tokio::time::sleep(Duration::from_millis(50)).await;
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
pub(super) async fn quick_sqlite_store(db: &TestDb) -> Store {
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
pub(super) async fn sqlite_with_matches(matches: &[&str]) -> (TestDb, Store) {
    let db = TestDb::new(crate::support::Backend::Sqlite)
        .await
        .expect("sqlite");
    let store = quick_sqlite_store(&db).await;
    for id in matches {
        store.start_match(&new_match(id, "demos", 1)).await.unwrap();
    }
    (db, store)
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
