//! The PostgreSQL writer: a task on the runtime with one connection of the pool, held for
//! good (taken again if it breaks). Each batch is one transaction of ordinary statements;
//! PostgreSQL's own locks and keys do what SQLite's writer does by hand (a primary key refuses
//! an index already taken, a trigger an action for a match that is not running).
//!
//! In cluster mode the appends carry their room's lease (room, epoch), and the transaction
//! first reads the lease rows of the batch's rooms `FOR SHARE`: a room whose lease is no
//! longer this node's at that epoch has its writes (a match's start, actions and end) left out
//! (refused with `StoreError::LeaseLost`), while the other rooms' commit; and a node taking a lease over
//! waits for the transaction to commit, so no append of the old epoch lands after the
//! takeover. Without cluster mode nothing is read: an append costs what it did.

use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use sqlx::pool::PoolConnection;
use sqlx::{AnyPool, Row};
use tokio::sync::mpsc;

use super::writer::{
    self, ActionRow, Commit, CommitFailure, Fence, INSERT_MATCH, INSERT_PLAYER, Lost, Write,
    WriterOptions,
};
use crate::metrics::ClusterCounters;

/// Rows per multi-row INSERT; well under PostgreSQL's parameter limit.
const ROWS_PER_INSERT: usize = 100;
/// How long the writer waits for a connection when it has none (its own broke). A database
/// that is up hands one over in milliseconds; one that is down would have the pool retry for
/// its whole acquire timeout (10 s) on every batch, and every act waiting on the batch would
/// hear nothing for that long before its `storage_unavailable`.
const CONNECT_DEADLINE: Duration = Duration::from_secs(2);

/// The writer of a PostgreSQL database: a task on the runtime, with one connection taken from
/// the pool for good (taken again if it breaks).
pub(super) fn spawn(
    pool: AnyPool,
    options: WriterOptions,
    fencing: Option<Fencing>,
) -> mpsc::Sender<Write> {
    let (tx, rx) = writer::queue();
    tokio::spawn(async move {
        let writer = PoolWriter {
            pool,
            conn: None,
            fencing,
            lost: Lost::new(),
        };
        writer::run(writer, rx, options).await;
    });
    tx
}

/// Cluster mode: whose leases the appends are checked against.
pub(super) struct Fencing {
    pub node: String,
    pub counters: Arc<ClusterCounters>,
}

/// The action path's PostgreSQL writer: one connection of the pool, held for good.
struct PoolWriter {
    pool: AnyPool,
    conn: Option<PoolConnection<sqlx::Any>>,
    fencing: Option<Fencing>,
    /// The leases the last commit found lost.
    lost: Lost,
}

impl Commit for PoolWriter {
    fn release(&mut self) {
        self.conn = None;
    }

    fn take_lost(&mut self) -> Lost {
        std::mem::take(&mut self.lost)
    }

    async fn commit(&mut self, batch: &[Write]) -> Result<(), CommitFailure> {
        let conn = match &mut self.conn {
            Some(conn) => conn,
            None => {
                let conn = connect(&self.pool)
                    .await
                    .map_err(CommitFailure::Unreachable)?;
                self.conn.insert(conn)
            }
        };
        let node = self.fencing.as_ref().map(|f| f.node.as_str());
        let outcome = commit_on(conn, batch, node).await;
        match outcome {
            Ok(lost) => {
                if let Some(fencing) = &self.fencing {
                    let fenced = batch
                        .iter()
                        .filter(|w| w.fence().is_some_and(|f| lost.contains(f)))
                        .count();
                    fencing
                        .counters
                        .fenced_appends
                        .fetch_add(fenced as u64, Relaxed);
                }
                self.lost = lost;
                Ok(())
            }
            Err(error) => {
                // The connection may be what broke: the next batch takes a fresh one.
                self.conn = None;
                self.lost = Lost::new();
                Err(error.into())
            }
        }
    }
}

/// A connection of `pool` for the writer, within [`CONNECT_DEADLINE`].
async fn connect(pool: &AnyPool) -> Result<PoolConnection<sqlx::Any>, sqlx::Error> {
    let mut conn = tokio::time::timeout(CONNECT_DEADLINE, pool.acquire())
        .await
        .map_err(|_| sqlx::Error::PoolTimedOut)??;
    // A commit must finish however long it takes: the pool's deadline is for reads. Closed
    // when released, so it never serves a read unbounded.
    super::unbounded(&mut conn).await?;
    conn.close_on_drop();
    Ok(conn)
}

/// Commits `batch` in one transaction; with `node` (cluster mode), leaves out the writes
/// whose lease is no longer `node`'s and returns those leases.
async fn commit_on(
    conn: &mut PoolConnection<sqlx::Any>,
    batch: &[Write],
    node: Option<&str>,
) -> Result<Lost, sqlx::Error> {
    use sqlx::Connection;
    let mut tx = conn.begin().await?;
    let lost = match node {
        Some(node) => lost_leases(&mut tx, node, batch).await?,
        None => Lost::new(),
    };
    let kept = |w: &&Write| !w.fence().is_some_and(|f| lost.contains(f));
    let rows: Vec<&ActionRow> = batch.iter().filter(kept).filter_map(Write::row).collect();
    // Guests and matches first: a match's actions refer to its row.
    for player in batch.iter().filter_map(Write::player) {
        sqlx::query(INSERT_PLAYER)
            .bind(&player.id)
            .bind(&player.name)
            .bind(&player.token_hash)
            .bind(player.created_at)
            .execute(&mut *tx)
            .await?;
    }
    for start in batch.iter().filter(kept).filter_map(Write::start) {
        sqlx::query(INSERT_MATCH)
            .bind(&start.id)
            .bind(&start.room_code)
            .bind(&start.game)
            .bind(&start.config)
            .bind(&start.seats)
            .bind(&start.room)
            .bind(&start.seed)
            .bind(&start.seed_hash)
            .bind(start.started_at)
            .bind(start.rematch_of.as_deref())
            .execute(&mut *tx)
            .await?;
    }
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        insert_rows(&mut tx, chunk).await?;
    }
    // Status changes after the appends, so a match is never finished ahead of its last
    // action; its log moves into its row with them. A match without rows keeps what an
    // earlier end wrote (an end written twice), or has an empty log.
    for (match_id, status, outcome, at) in
        batch.iter().filter(kept).filter_map(Write::status_change)
    {
        sqlx::query(
            "UPDATE matches SET status = $1, outcome = $2, finished_at = $3, \
             log = COALESCE( \
                (SELECT json_agg(json_build_object('seat', seat, 'action', action::json, \
                                                   'by', source, 'seq', seq) ORDER BY idx)::text \
                 FROM running_actions WHERE match_id = $4), log, '[]') \
             WHERE id = $4",
        )
        .bind(status)
        .bind(outcome)
        .bind(at)
        .bind(match_id)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM running_actions WHERE match_id = $1")
            .bind(match_id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(lost)
}

/// The leases of the batch's writes that are no longer `node`'s at their epoch. The lease
/// rows are read `FOR SHARE`: a takeover of one of them waits until this transaction ends.
async fn lost_leases(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    node: &str,
    batch: &[Write],
) -> Result<Lost, sqlx::Error> {
    let fences: Lost = batch.iter().filter_map(Write::fence).cloned().collect();
    if fences.is_empty() {
        return Ok(fences);
    }
    let rooms: Vec<&str> = {
        let mut rooms: Vec<&str> = fences.iter().map(|f| f.room.as_str()).collect();
        rooms.sort_unstable();
        rooms.dedup();
        rooms
    };
    let mut sql =
        String::from("SELECT room_code, epoch FROM room_leases WHERE node = $1 AND room_code IN (");
    for i in 0..rooms.len() {
        if i > 0 {
            sql.push_str(", ");
        }
        sql.push_str(&format!("${}", i + 2));
    }
    // In code order, as every writer's transaction takes them: no two lock in opposite
    // orders.
    sql.push_str(") ORDER BY room_code FOR SHARE");
    let mut query = sqlx::query(&sql).bind(node);
    for room in &rooms {
        query = query.bind(*room);
    }
    let held: Lost = query
        .fetch_all(&mut **tx)
        .await?
        .iter()
        .map(|row| Fence {
            room: row.get(0),
            epoch: row.get(1),
        })
        .collect();
    Ok(fences.difference(&held).cloned().collect())
}

/// One multi-row INSERT of action rows.
async fn insert_rows(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    rows: &[&ActionRow],
) -> Result<(), sqlx::Error> {
    const COLUMNS: usize = 7;
    let mut sql = String::from(
        "INSERT INTO running_actions (match_id, idx, seat, action, source, seq, at) VALUES ",
    );
    for i in 0..rows.len() {
        if i > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        for c in 0..COLUMNS {
            if c > 0 {
                sql.push_str(", ");
            }
            sql.push_str(&format!("${}", i * COLUMNS + c + 1));
        }
        sql.push(')');
    }
    let mut query = sqlx::query(&sql);
    for row in rows {
        query = query
            .bind(row.match_id.as_str())
            .bind(row.index)
            .bind(row.seat)
            .bind(row.action.as_str())
            .bind(row.source)
            .bind(row.seq)
            .bind(row.at);
    }
    query.execute(&mut **tx).await?;
    Ok(())
}
