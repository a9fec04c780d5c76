//! Databases made by older releases: every log reads whole after the upgrade, and the
//! matches that were running go on where they stood.

use serde_json::json;

use pandemonium_protocol::ActionSource;
use pandemonium_server::store::Store;

use super::log_model::{actions_of, connect_any, counts, log_column_of, numbered, rows_per_match};
use super::sqlite::quick_sqlite_store;
use super::{append, new_match};
use crate::on_both_stores;
use crate::support::TestDb;

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
    the_running_match_goes_on_where_it_stood(&store).await;
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
    the_running_match_goes_on_where_it_stood(&store).await;
    store.close().await;
    db.drop_database().await;
}

/// The upgraded database's running match, `m-up`, takes its fifth action at index 4 and ends
/// with all five in its log.
async fn the_running_match_goes_on_where_it_stood(store: &Store) {
    let text = json!({"n": 4}).to_string();
    store
        .append(append("m-up", 4, 0, &text, ActionSource::Bot))
        .await
        .unwrap();
    store.abandon("m-up").await.unwrap();
    let ended = store.get_match("m-up").await.unwrap().unwrap();
    assert_eq!(actions_of(&ended.log), numbered(5));
}
