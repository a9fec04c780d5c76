//! Cluster mode, its foundation: nodes sharing one PostgreSQL, room leases, appends fenced by
//! the lease's epoch, and which node resumes which match at start. Two nodes are two stores
//! (or two apps) in this process on one database, with their own names. Leases are expired by
//! SQL rather than waited out.

mod config;
mod failover;
mod front;
mod leases;
mod lobby;
mod outage;
mod recovery;
mod rooms;
mod split_brain;

use std::sync::Arc;
use std::time::Duration;

use pandemonium_server::cluster::ClusterOptions;
use pandemonium_server::metrics::ClusterCounters;
use pandemonium_server::store::{Store, StoreOptions};

use crate::support::{Backend, TestDb};

/// The cluster's tests need PostgreSQL: `None` (the test says it was skipped) where there is
/// none, a failure in CI.
async fn postgres() -> Option<TestDb> {
    TestDb::new(Backend::Postgres).await
}

/// A node's options: heartbeats every 50 ms, leases of the default three seconds.
fn node_options(name: &str) -> ClusterOptions {
    ClusterOptions {
        node: name.into(),
        internal_address: format!("{name}.internal:8080"),
        lease: Duration::from_secs(3),
        renew_every: Duration::from_millis(50),
        counters: Arc::new(ClusterCounters::default()),
    }
}

/// The store of node `name` on the test's database.
async fn node_store(db: &TestDb, name: &str) -> Store {
    Store::connect_with(
        &db.url,
        StoreOptions {
            cluster: Some(node_options(name)),
            ..StoreOptions::default()
        },
    )
    .await
    .expect("the node joins")
}

/// Runs `sql` on the test's database through a connection of its own.
async fn sql(db: &TestDb, sql: &str) {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(&db.url).await.unwrap();
    sqlx::query(sql).execute(&mut conn).await.unwrap();
    conn.close().await.unwrap();
}

/// Every lease has expired, as if its node had stopped renewing it long enough ago.
async fn expire_every_lease(db: &TestDb) {
    sql(
        db,
        "UPDATE room_leases SET expires_at = now() - interval '1 second'",
    )
    .await;
}

/// A room's lease row: (node, epoch).
async fn lease_row(db: &TestDb, room: &str) -> Option<(Option<String>, i64)> {
    use sqlx::{Connection, Row};
    let mut conn = sqlx::PgConnection::connect(&db.url).await.unwrap();
    let row = sqlx::query("SELECT node, epoch FROM room_leases WHERE room_code = $1")
        .bind(room)
        .fetch_optional(&mut conn)
        .await
        .unwrap()
        .map(|row| (row.get(0), row.get(1)));
    conn.close().await.unwrap();
    row
}
