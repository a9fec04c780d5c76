//! Group commit: one task owns every write on the action path. It takes whatever has queued
//! while the previous transaction was committing and commits it all in one transaction, so
//! under load the number of commits stays flat while the number of actions grows.
//!
//! Rooms do not wait for their appends: they keep applying actions while earlier appends are
//! in flight and hold back what they would tell people until each append is durable. That
//! makes two promises matter here:
//! - **Isolation.** A batch holds many rooms' writes. If it fails, each match's writes are
//!   committed again on their own, so one room's bad write fails that room only.
//! - **No gaps.** Once an append of a match fails, every later append of that match already
//!   queued behind it is failed too, unwritten, until the room says it has rolled back to its
//!   last durable action ([`Write::Reopen`]) and appends from there again.

use sqlx::AnyPool;
use std::collections::HashSet;
use tokio::sync::{mpsc, oneshot};

use super::StoreError;

/// Rows per multi-row INSERT; well under both databases' parameter limits.
const ROWS_PER_INSERT: usize = 100;
/// How many queued writes one transaction takes at most.
const MAX_BATCH: usize = 1_000;

pub(super) type Done = oneshot::Sender<Result<(), StoreError>>;

pub(super) enum Write {
    Append {
        row: ActionRow,
        /// The match ends with this action: its status and outcome are written in the same
        /// transaction, so a crash can never keep the last action and lose the result.
        finish: Option<String>,
        done: Done,
    },
    Status {
        match_id: String,
        status: &'static str,
        outcome: Option<String>,
        at: i64,
        done: Done,
    },
    /// The match's room has rolled back after a failed append: its appends are taken again.
    Reopen { match_id: String },
    /// Resolves once everything queued before it is committed.
    Flush { done: oneshot::Sender<()> },
}

pub(super) struct ActionRow {
    pub match_id: String,
    pub index: i64,
    pub seat: i64,
    pub action: String,
    pub source: &'static str,
    pub seq: Option<i64>,
    pub at: i64,
}

impl Write {
    fn match_id(&self) -> Option<&str> {
        match self {
            Write::Append { row, .. } => Some(&row.match_id),
            Write::Status { match_id, .. } | Write::Reopen { match_id } => Some(match_id),
            Write::Flush { .. } => None,
        }
    }
}

/// How the writer behaves beyond committing.
#[derive(Debug, Clone, Copy, Default)]
pub struct WriterOptions {
    /// Test hook: end the process the moment a match's finishing write has committed, the
    /// way `kill -9` would, so a test can show that the result was written with the action.
    pub abort_after_finish: bool,
}

pub(super) fn spawn(pool: AnyPool, options: WriterOptions) -> mpsc::Sender<Write> {
    // Bounded: if the database stalls, rooms wait here rather than queueing without limit.
    let (tx, rx) = mpsc::channel(4_096);
    tokio::spawn(run(pool, rx, options));
    tx
}

async fn run(pool: AnyPool, mut rx: mpsc::Receiver<Write>, options: WriterOptions) {
    let mut batch = Vec::with_capacity(64);
    // Matches whose appends are refused after a failure, until their room reopens them.
    let mut fences: HashSet<String> = HashSet::new();
    while let Some(first) = rx.recv().await {
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(write) => batch.push(write),
                Err(_) => break,
            }
        }
        let (fenced, writable) = split_fenced(std::mem::take(&mut batch), &mut fences);
        for write in fenced {
            answer(
                write,
                Err(StoreError::Commit(
                    "an earlier action of this match could not be saved".into(),
                )),
            );
        }
        let finishing = writable.iter().any(|w| {
            matches!(
                w,
                Write::Append {
                    finish: Some(_),
                    ..
                }
            )
        });
        match commit(&pool, &writable).await {
            Ok(()) => {
                for write in writable {
                    answer(write, Ok(()));
                }
            }
            Err(error) => {
                tracing::warn!(%error, "a group commit failed; committing each match alone");
                commit_each_match(&pool, writable, &mut fences).await;
            }
        }
        if finishing && options.abort_after_finish {
            tracing::warn!("test hook: stopping the process after a finishing write");
            std::process::abort();
        }
    }
}

/// Separates the appends of fenced matches (refused unwritten) from everything else, in
/// queue order: a `Reopen` lifts its match's fence for what follows it.
fn split_fenced(batch: Vec<Write>, fences: &mut HashSet<String>) -> (Vec<Write>, Vec<Write>) {
    let mut fenced = Vec::new();
    let mut writable = Vec::with_capacity(batch.len());
    for write in batch {
        match &write {
            Write::Reopen { match_id } => {
                fences.remove(match_id);
            }
            Write::Append { row, .. } if fences.contains(&row.match_id) => fenced.push(write),
            _ => writable.push(write),
        }
    }
    (fenced, writable)
}

/// After a failed batch: each match's writes in a transaction of their own, so only the
/// matches whose writes really fail are told so.
async fn commit_each_match(pool: &AnyPool, writes: Vec<Write>, fences: &mut HashSet<String>) {
    let mut groups: Vec<(Option<String>, Vec<Write>)> = Vec::new();
    for write in writes {
        let id = write.match_id().map(str::to_string);
        match groups.iter_mut().find(|(g, _)| *g == id) {
            Some((_, group)) => group.push(write),
            None => groups.push((id, vec![write])),
        }
    }
    for (id, group) in groups {
        match commit(pool, &group).await {
            Ok(()) => group.into_iter().for_each(|w| answer(w, Ok(()))),
            Err(error) => {
                tracing::error!(match_id = ?id, %error, "a match's writes could not be committed");
                let appended = group.iter().any(|w| matches!(w, Write::Append { .. }));
                if let (Some(id), true) = (id, appended) {
                    fences.insert(id);
                }
                let sentence = error.to_string();
                for write in group {
                    answer(write, Err(StoreError::Commit(sentence.clone())));
                }
            }
        }
    }
}

fn answer(write: Write, outcome: Result<(), StoreError>) {
    match write {
        Write::Append { done, .. } | Write::Status { done, .. } => {
            let _ = done.send(outcome);
        }
        Write::Flush { done } => {
            let _ = done.send(());
        }
        Write::Reopen { .. } => {}
    }
}

async fn commit(pool: &AnyPool, batch: &[Write]) -> Result<(), sqlx::Error> {
    let rows: Vec<&ActionRow> = batch
        .iter()
        .filter_map(|w| match w {
            Write::Append { row, .. } => Some(row),
            _ => None,
        })
        .collect();
    let has_status = batch.iter().any(|w| {
        matches!(
            w,
            Write::Status { .. }
                | Write::Append {
                    finish: Some(_),
                    ..
                }
        )
    });
    if rows.is_empty() && !has_status {
        return Ok(());
    }
    let mut tx = pool.begin().await?;
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        insert_rows(&mut tx, chunk).await?;
    }
    // Status changes after the appends, so a match is never finished ahead of its last action.
    for write in batch {
        let (match_id, status, outcome, at) = match write {
            Write::Status {
                match_id,
                status,
                outcome,
                at,
                ..
            } => (match_id.as_str(), *status, outcome.as_deref(), *at),
            Write::Append {
                row,
                finish: Some(outcome),
                ..
            } => (
                row.match_id.as_str(),
                "finished",
                Some(outcome.as_str()),
                row.at,
            ),
            _ => continue,
        };
        sqlx::query("UPDATE matches SET status = $1, outcome = $2, finished_at = $3 WHERE id = $4")
            .bind(status)
            .bind(outcome)
            .bind(at)
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
    let mut sql =
        String::from("INSERT INTO actions (match_id, idx, seat, action, source, seq, at) VALUES ");
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
