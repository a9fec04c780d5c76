//! Group commit: one task owns every write on the action path. It takes whatever has queued
//! while the previous transaction was committing and commits it all in one transaction, so
//! under load the number of commits stays flat while the number of actions grows.

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use super::StoreError;

/// Rows per multi-row INSERT; well under both databases' parameter limits.
const ROWS_PER_INSERT: usize = 100;
/// How many queued writes one transaction takes at most.
const MAX_BATCH: usize = 1_000;

pub(super) enum Write {
    Append {
        match_id: String,
        index: i64,
        seat: i64,
        action: String,
        source: &'static str,
        at: i64,
        done: oneshot::Sender<Result<(), StoreError>>,
    },
    Status {
        match_id: String,
        status: &'static str,
        outcome: Option<String>,
        at: i64,
        done: oneshot::Sender<Result<(), StoreError>>,
    },
    /// Resolves once everything queued before it is committed.
    Flush { done: oneshot::Sender<()> },
}

pub(super) fn spawn(pool: AnyPool) -> mpsc::Sender<Write> {
    // Bounded: if the database stalls, rooms wait here rather than queueing without limit.
    let (tx, rx) = mpsc::channel(4_096);
    tokio::spawn(run(pool, rx));
    tx
}

async fn run(pool: AnyPool, mut rx: mpsc::Receiver<Write>) {
    let mut batch = Vec::with_capacity(64);
    while let Some(first) = rx.recv().await {
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(write) => batch.push(write),
                Err(_) => break,
            }
        }
        let result = commit(&pool, &batch).await;
        for write in batch.drain(..) {
            // sqlx errors are not Clone; every writer of the batch gets the same sentence.
            let outcome = match &result {
                Ok(()) => Ok(()),
                Err(error) => Err(StoreError::Commit(error.to_string())),
            };
            match write {
                Write::Append { done, .. } | Write::Status { done, .. } => {
                    let _ = done.send(outcome);
                }
                Write::Flush { done } => {
                    let _ = done.send(());
                }
            }
        }
        if let Err(error) = result {
            tracing::error!(%error, "a group commit failed; its writers were told");
        }
    }
}

async fn commit(pool: &AnyPool, batch: &[Write]) -> Result<(), sqlx::Error> {
    let appends: Vec<&Write> = batch
        .iter()
        .filter(|w| matches!(w, Write::Append { .. }))
        .collect();
    let has_status = batch.iter().any(|w| matches!(w, Write::Status { .. }));
    if appends.is_empty() && !has_status {
        return Ok(());
    }
    let mut tx = pool.begin().await?;
    for chunk in appends.chunks(ROWS_PER_INSERT) {
        let mut sql =
            String::from("INSERT INTO actions (match_id, idx, seat, action, source, at) VALUES ");
        for i in 0..chunk.len() {
            let p = i * 6;
            if i > 0 {
                sql.push_str(", ");
            }
            sql.push_str(&format!(
                "(${}, ${}, ${}, ${}, ${}, ${})",
                p + 1,
                p + 2,
                p + 3,
                p + 4,
                p + 5,
                p + 6
            ));
        }
        let mut query = sqlx::query(&sql);
        for write in chunk {
            if let Write::Append {
                match_id,
                index,
                seat,
                action,
                source,
                at,
                ..
            } = write
            {
                query = query
                    .bind(match_id.as_str())
                    .bind(*index)
                    .bind(*seat)
                    .bind(action.as_str())
                    .bind(*source)
                    .bind(*at);
            }
        }
        query.execute(&mut *tx).await?;
    }
    // Status changes after the appends, so a match is never finished ahead of its last action.
    for write in batch {
        if let Write::Status {
            match_id,
            status,
            outcome,
            at,
            ..
        } = write
        {
            sqlx::query(
                "UPDATE matches SET status = $1, outcome = $2, finished_at = $3 WHERE id = $4",
            )
            .bind(*status)
            .bind(outcome.as_deref())
            .bind(*at)
            .bind(match_id.as_str())
            .execute(&mut *tx)
            .await?;
        }
    }
    tx.commit().await
}
