//! Every read the history serves is answered off an index: SQLite's plan for each statement
//! names an index for every table it reads and sorts nothing, whatever the history's size.
//! (The e2e suite times the same reads over 100,000 matches on both databases.)

use sqlx::Row;

use super::Store;
use super::reads::{history_sql, page_rows_sql, record_sql};

/// SQLite's plan for `sql`, one line per step.
async fn plan(store: &Store, sql: &str) -> Vec<String> {
    sqlx::query(&format!("EXPLAIN QUERY PLAN {sql}"))
        .fetch_all(&store.pool)
        .await
        .expect("a plan")
        .iter()
        .map(|row| row.get::<String, _>(3))
        .collect()
}

/// A step that reads a table row by row, or sorts what it read. `history_counts` has a row
/// per game: reading it whole is bounded.
fn is_unbounded(step: &str) -> bool {
    let scan = step.starts_with("SCAN") && !step.contains("INDEX");
    (scan && step != "SCAN history_counts") || step.contains("TEMP B-TREE")
}

async fn assert_indexed(store: &Store, what: &str, sql: &str) {
    let steps = plan(store, sql).await;
    assert!(
        !steps.iter().any(|step| is_unbounded(step)),
        "{what} reads or sorts the whole table: {steps:#?}"
    );
}

#[tokio::test]
async fn every_history_read_is_answered_off_an_index() {
    let dir = std::env::temp_dir().join(format!("pdm-plans-{}", uuid::Uuid::new_v4()));
    let store = Store::connect(&format!("sqlite://{}/plans.db", dir.display()))
        .await
        .expect("a store");
    for by_game in [false, true] {
        let (count, ids) = history_sql(by_game);
        assert_indexed(&store, &format!("the count (by game: {by_game})"), count).await;
        assert_indexed(&store, &format!("a page's ids (by game: {by_game})"), &ids).await;
        let steps = plan(&store, &ids).await;
        assert!(
            steps.iter().any(|step| step.contains("COVERING INDEX")),
            "a page's ids are read off the index alone: {steps:#?}"
        );
    }
    assert_indexed(&store, "a page's rows", &page_rows_sql(20)).await;
    let record = record_sql();
    assert_indexed(&store, "a match's record", &record).await;
    let steps = plan(&store, &record).await;
    assert!(
        steps
            .iter()
            .any(|step| step.contains("USING INDEX matches_by_rematch_of")),
        "the rematch that followed is found by its index: {steps:#?}"
    );
    store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_plan_that_scans_or_sorts_is_told_from_one_that_searches() {
    assert!(is_unbounded("SCAN matches"));
    assert!(is_unbounded("USE TEMP B-TREE FOR ORDER BY"));
    assert!(!is_unbounded(
        "SCAN matches USING COVERING INDEX matches_by_finish"
    ));
    assert!(!is_unbounded(
        "SEARCH matches USING INDEX matches_by_finish (status=?)"
    ));
}
