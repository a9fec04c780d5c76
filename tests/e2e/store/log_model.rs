//! One log model on both databases: a running match's rows, an ended match's log in its own
//! row, and the rows ended matches leave behind on SQLite.

use serde_json::json;

use pandemonium_protocol::ActionSource;
use pandemonium_server::store::{Append, MatchStatus, Store};

use super::sqlite::sqlite_with_matches;
use super::{append, new_match, outcome};
use crate::on_both_stores;
use crate::support::TestDb;

/// A connection of its own to the test's database, whichever it is.
pub(super) async fn connect_any(url: &str) -> sqlx::AnyConnection {
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    sqlx::AnyConnection::connect(url).await.unwrap()
}

/// Rows per match in `table`, read through a connection of its own.
pub(super) async fn rows_per_match(url: &str, table: &str) -> Vec<(String, i64)> {
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

pub(super) fn counts(rows: &[(&str, i64)]) -> Vec<(String, i64)> {
    rows.iter().map(|(m, n)| (m.to_string(), *n)).collect()
}

/// A match's `log` column as the store's end wrote it (`None` while it runs), read through a
/// connection of its own.
pub(super) async fn log_column_of(url: &str, match_id: &str) -> Option<serde_json::Value> {
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
pub(super) fn actions_of(log: &[pandemonium_protocol::LoggedAction]) -> Vec<serde_json::Value> {
    log.iter().map(|a| a.action.clone()).collect()
}

pub(super) fn numbered(n: i64) -> Vec<serde_json::Value> {
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
