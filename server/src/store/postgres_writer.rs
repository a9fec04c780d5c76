//! The PostgreSQL writer: a task on the runtime with one connection of the pool, held for
//! good (taken again if it breaks). Each batch is one transaction of ordinary statements;
//! PostgreSQL's own locks and keys do what SQLite's writer does by hand (a primary key refuses
//! an index already taken, a trigger an action for a match that is not running).

use sqlx::AnyPool;
use sqlx::pool::PoolConnection;
use tokio::sync::mpsc;

use super::writer::{
    self, ActionRow, Commit, CommitFailure, INSERT_MATCH, INSERT_PLAYER, Write, WriterOptions,
};

/// Rows per multi-row INSERT; well under PostgreSQL's parameter limit.
const ROWS_PER_INSERT: usize = 100;

/// The writer of a PostgreSQL database: a task on the runtime, with one connection taken from
/// the pool for good (taken again if it breaks).
pub(super) fn spawn(pool: AnyPool, options: WriterOptions) -> mpsc::Sender<Write> {
    let (tx, rx) = writer::queue();
    tokio::spawn(async move {
        let writer = PoolWriter { pool, conn: None };
        writer::run(writer, rx, options).await;
    });
    tx
}

/// The action path's PostgreSQL writer: one connection of the pool, held for good.
struct PoolWriter {
    pool: AnyPool,
    conn: Option<PoolConnection<sqlx::Any>>,
}

impl Commit for PoolWriter {
    fn release(&mut self) {
        self.conn = None;
    }

    async fn commit(&mut self, batch: &[Write]) -> Result<(), CommitFailure> {
        let conn = match &mut self.conn {
            Some(conn) => conn,
            None => {
                let mut conn = self.pool.acquire().await?;
                // A commit must finish however long it takes: the pool's deadline is for
                // reads. Closed when released, so it never serves a read unbounded.
                super::unbounded(&mut conn).await?;
                conn.close_on_drop();
                self.conn.insert(conn)
            }
        };
        let outcome = commit_on(conn, batch).await;
        if outcome.is_err() {
            // The connection may be what broke: the next batch takes a fresh one.
            self.conn = None;
        }
        Ok(outcome?)
    }
}

async fn commit_on(
    conn: &mut PoolConnection<sqlx::Any>,
    batch: &[Write],
) -> Result<(), sqlx::Error> {
    use sqlx::Connection;
    let rows: Vec<&ActionRow> = batch.iter().filter_map(Write::row).collect();
    let mut tx = conn.begin().await?;
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
    for start in batch.iter().filter_map(Write::start) {
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
    for (match_id, status, outcome, at) in batch.iter().filter_map(Write::status_change) {
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
    tx.commit().await
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
