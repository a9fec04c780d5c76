//! The SQLite writer: one connection on a thread of its own, calling SQLite directly.
//!
//! Through the pool, every statement of a commit (begin, insert, update, commit) is a round
//! trip between the runtime and the connection's worker thread. Here the whole batch is one
//! hand-over: the thread takes the queued writes, runs the transaction with statements
//! prepared once and kept, and answers each write.
//!
//! Actions are appended to `running_actions`, a table in arrival order with no index: a
//! commit writes the table's last page, shared by the whole batch, where a table ordered by
//! match has every commit write a leaf of its index for each match in the batch, and split
//! them often. The writer keeps each running match's rowids ([`RunningRows`]); the
//! transaction that ends a match gathers its rows by them into `matches.log`, where an ended
//! match's log is read from. Rows left behind by ended matches are deleted from the front of
//! the table in bulk, between batches ([`prune`]).
//!
//! Checkpoints are off the ack path: SQLite's automatic checkpoint would run inside the commit
//! that crosses its threshold, before that batch is answered. Instead the writer checkpoints
//! between batches, after answering one, when nothing is queued ([`CHECKPOINT_AFTER`]).
//! Rarely, because a checkpoint copies each page once however many commits rewrote it: the
//! table's last leaf is rewritten by commit after commit, so the longer between checkpoints,
//! the fewer times it is copied.
//! It has to be the writer: a checkpoint run beside it (by another connection) never catches
//! up with a writer that keeps appending, so the WAL could never start over from its
//! beginning and grew without bound, every commit writing into fresh blocks of the file
//! (which the file system must allocate, zero and journal on each sync). [`checkpoints`]
//! also truncates the WAL now and then from a pool connection, so the file stays bounded
//! whatever happened.

use rusqlite::{Connection, OpenFlags, params};
use std::path::Path;
use std::time::Duration;
use tokio::sync::mpsc;

use super::running_rows::{RowsChange, RunningRows};
use super::writer::{
    self, Commit, CommitFailure, INSERT_MATCH, INSERT_PLAYER, Write, WriterOptions,
};
use super::{StoreError, Synchronous};
use sqlx::Row;

/// The WAL is cut back to this size whenever a checkpoint has emptied it: 32 MiB.
const WAL_SIZE_LIMIT: i64 = 32 * 1024 * 1024;
/// The writer checkpoints at the first moment nothing is queued once this much was committed
/// since the last checkpoint: this many batches (each writes at least a few pages, so under
/// light load the WAL stays a few MiB)...
const CHECKPOINT_AFTER: Since = Since {
    batches: 500,
    rows: 2_000,
};
/// ...or this many rows (a move adds a few pages under load); and at these, whatever is
/// queued, so the WAL stays bounded under any load (docs/performance.md, "Checkpoints").
const CHECKPOINT_AT_THE_LATEST: Since = Since {
    batches: 1_250,
    rows: 5_000,
};

/// What was committed since the last checkpoint.
#[derive(Debug, Clone, Copy, Default)]
struct Since {
    batches: usize,
    rows: usize,
}

impl Since {
    fn reached(self, limit: Since) -> bool {
        self.batches >= limit.batches || self.rows >= limit.rows
    }
}

/// When the writer finds the database locked (the hourly guest prune, the WAL truncation), it
/// tries again this often. SQLite's own busy timeout sleeps 1, 2, 5, 10, 15, 20, 25... ms in
/// turn, so a lock held for a few milliseconds could keep the writer, and every room's
/// actions queued behind it, asleep for tens of milliseconds after it was released.
const LOCKED_RETRY: Duration = Duration::from_micros(100);
/// ...and gives up (the batch fails, and is retried match by match) after this long.
const LOCKED_GIVE_UP: Duration = Duration::from_secs(5);

/// Whether the writer tries again after `attempts` tries found the database locked.
fn keeps_trying(attempts: i32) -> bool {
    u128::try_from(attempts).unwrap_or(0) * LOCKED_RETRY.as_micros() < LOCKED_GIVE_UP.as_micros()
}

/// SQLite's busy handler for the writer's connection: a short sleep, then try again.
fn wait_for_lock(attempts: i32) -> bool {
    if !keeps_trying(attempts) {
        return false;
    }
    std::thread::sleep(LOCKED_RETRY);
    true
}

/// The page size of a new database: 1 KiB. A commit writes every page it touched to the WAL
/// whole, though each gained only a row of an action: smaller pages write fewer bytes per
/// move, down to the point where deeper trees and more frequent splits cost more CPU than
/// they save in bytes (docs/performance.md, "Pages").
pub(super) const PAGE_SIZE: u32 = 1024;

/// The pragma every connection runs first (it matters only to the one that creates the file).
pub(super) fn page_size() -> String {
    format!("PRAGMA page_size = {PAGE_SIZE}")
}

/// The pragma every connection runs, so whichever one restarts the WAL cuts it back.
pub(super) fn journal_size_limit() -> String {
    format!("PRAGMA journal_size_limit = {WAL_SIZE_LIMIT}")
}

pub(super) struct SqliteWriter {
    conn: Connection,
    uncheckpointed: Since,
    running: RunningRows,
}

impl SqliteWriter {
    pub(super) fn open(path: &Path, synchronous: Synchronous) -> Result<Self, rusqlite::Error> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_handler(Some(wait_for_lock))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.execute_batch(synchronous.pragma())?;
        // The one reference among the tables the writer writes, `running_actions` to
        // `matches`, has no foreign key: the writer checks it itself, refusing a match's
        // first append unless the match has a row and runs ([`first_index`]); matches are
        // never deleted.
        conn.pragma_update(None, "foreign_keys", "OFF")?;
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        conn.pragma_update(None, "journal_size_limit", WAL_SIZE_LIMIT)?;
        let running = read_running(&conn)?;
        Ok(SqliteWriter {
            conn,
            uncheckpointed: Since::default(),
            running,
        })
    }

    /// Copies the WAL into the database (passive: it never waits for readers). Run by the
    /// only writer between its transactions, it copies everything, unless a reader still
    /// needs old frames; the next transaction then writes the WAL from its beginning again.
    fn checkpoint(&mut self) -> Result<(), rusqlite::Error> {
        self.conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
    }

    /// Deletes rows that ended matches left in `running_actions`, from the front of the table
    /// ([`prune`]).
    fn prune(&mut self) -> Result<(), rusqlite::Error> {
        immediate(&self.conn, |conn| prune(conn).map(drop))
    }

    fn commit_now(&mut self, batch: &[Write]) -> Result<(), rusqlite::Error> {
        let SqliteWriter { conn, running, .. } = self;
        let mut change = RowsChange::default();
        immediate(conn, |conn| write_batch(conn, running, &mut change, batch))?;
        running.commit(change);
        Ok(())
    }
}

/// Runs `write` in one transaction. IMMEDIATE: the write lock is taken up front, so the
/// transaction never has to upgrade from a read lock (which can fail outright rather than
/// wait). BEGIN and COMMIT are statements prepared once, like the writer's others
/// (`execute_batch`, which rusqlite's `Transaction` uses, parses them again every time). A
/// failed statement, or a COMMIT that could not finish, leaves the transaction open: it is
/// rolled back, so nothing of it stays.
fn immediate(
    conn: &Connection,
    write: impl FnOnce(&Connection) -> Result<(), rusqlite::Error>,
) -> Result<(), rusqlite::Error> {
    conn.prepare_cached("BEGIN IMMEDIATE")?.execute([])?;
    let written = write(conn).and_then(|()| conn.prepare_cached("COMMIT")?.execute([]).map(drop));
    if written.is_err() && !conn.is_autocommit() {
        let _ = conn.execute_batch("ROLLBACK");
    }
    written
}

/// The index a match without known rows appends next: its first, 0, if it runs.
/// `running_actions` has no foreign key (checking one cost an index lookup per move), so
/// this, once per match, is where an append for a match without a row is refused, as the key
/// refused it; and an append for a match that has ended, whose log is sealed in its row.
fn first_index(conn: &Connection, match_id: &str) -> Result<i64, rusqlite::Error> {
    let status: Option<String> = conn
        .prepare_cached("SELECT status FROM matches WHERE id = ?1")?
        .query_row([match_id], |r| r.get(0))
        .map(Some)
        .or_else(|error| match error {
            rusqlite::Error::QueryReturnedNoRows => Ok(None),
            error => Err(error),
        })?;
    match status.as_deref() {
        Some("running") => Ok(0),
        Some(ended) => Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT_CHECK),
            Some(format!("match {match_id} is {ended}: its log is closed")),
        )),
        None => Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY),
            Some(format!("match {match_id} has no row")),
        )),
    }
}

/// An append at an index other than its match's next one: refused as a primary key on
/// (match, index) would refuse a duplicate.
fn index_taken(match_id: &str, index: i64, next: i64) -> rusqlite::Error {
    rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY),
        Some(format!(
            "match {match_id} appends action {next} next, not {index}"
        )),
    )
}

/// The statements of one batch, inside its transaction. Each statement is looked up in the
/// connection's cache only when the batch has rows for it: most batches are appends alone.
fn write_batch<'b>(
    conn: &Connection,
    running: &RunningRows,
    change: &mut RowsChange<'b>,
    batch: &'b [Write],
) -> Result<(), rusqlite::Error> {
    // Guests and matches first: a match's actions refer to its row.
    if batch.iter().any(|write| write.player().is_some()) {
        let mut player = conn.prepare_cached(INSERT_PLAYER)?;
        for row in batch.iter().filter_map(Write::player) {
            player.execute(params![row.id, row.name, row.token_hash, row.created_at])?;
        }
    }
    if batch.iter().any(|write| write.start().is_some()) {
        let mut start = conn.prepare_cached(INSERT_MATCH)?;
        // Every row the match appends comes after the table's last row so far, so rows
        // below the lowest `log_from` of the running matches are ended matches' ([`prune`]).
        // The prune never deletes the last row, so SQLite's next rowid (the highest plus
        // one) only grows.
        let mut log_from = conn.prepare_cached(
            "UPDATE matches SET log_from = \
             (SELECT COALESCE(MAX(rowid), 0) + 1 FROM running_actions) WHERE id = ?1",
        )?;
        for row in batch.iter().filter_map(Write::start) {
            start.execute(params![
                row.id,
                row.room_code,
                row.game,
                row.config,
                row.seats,
                row.room,
                row.seed,
                row.seed_hash,
                row.started_at,
                row.rematch_of
            ])?;
            log_from.execute([&row.id])?;
        }
    }
    if batch.iter().any(|write| write.row().is_some()) {
        // One prepared single-row INSERT, run per row: SQLite runs it without parsing
        // again, which is what a multi-row statement would save, and needs no statement
        // per batch size.
        let mut insert = conn.prepare_cached(
            "INSERT INTO running_actions (match_id, idx, seat, action, source, seq, at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for row in batch.iter().filter_map(Write::row) {
            // With no primary key to refuse an index already taken, the writer does, the
            // match's next index kept with its rows.
            let next = match running.next_index(&row.match_id, change) {
                Some(next) => next,
                None => first_index(conn, &row.match_id)?,
            };
            if row.index != next {
                return Err(index_taken(&row.match_id, row.index, next));
            }
            insert.execute(params![
                row.match_id,
                row.index,
                row.seat,
                row.action,
                row.source,
                row.seq,
                row.at
            ])?;
            change.add(&row.match_id, conn.last_insert_rowid(), row.index);
        }
    }
    if batch.iter().any(|write| write.status_change().is_some()) {
        // Status changes after the appends, so a match is never finished ahead of its last
        // action, and its log is gathered with them: by the rowids of its rows, in index
        // order. A match the writer knows no rows of keeps what an earlier end wrote (an end
        // written twice), or has an empty log.
        let mut status = conn.prepare_cached(
            "UPDATE matches SET status = ?1, outcome = ?2, finished_at = ?3, \
             log = CASE WHEN ?4 IS NULL THEN COALESCE(log, '[]') ELSE \
                (SELECT json_group_array(json_object('seat', seat, 'action', json(action), \
                                                     'by', source, 'seq', seq) ORDER BY idx) \
                 FROM running_actions WHERE rowid IN (SELECT value FROM json_each(?4))) END \
             WHERE id = ?5",
        )?;
        for (match_id, new_status, outcome, at) in batch.iter().filter_map(Write::status_change) {
            let rowids = running.rowids(match_id, change);
            change.end(match_id);
            status.execute(params![new_status, outcome, at, rowids, match_id])?;
        }
    }
    Ok(())
}

/// How many rows one prune deletes at most: a prune runs between batches, and every room's
/// actions wait for it.
const PRUNE_AT_MOST: i64 = 10_000;

/// Deletes, from the front of `running_actions`, rows that ended matches left there: those
/// below the lowest `log_from` of the running matches (each running match's rows are at or
/// above its own), up to [`PRUNE_AT_MOST`] of them. The table's last row stays whatever it
/// is, so the next rowid never goes back below a running match's `log_from`.
fn prune(conn: &Connection) -> Result<usize, rusqlite::Error> {
    conn.prepare_cached(
        "DELETE FROM running_actions WHERE rowid < MIN( \
            COALESCE((SELECT MIN(log_from) FROM matches WHERE status = 'running'), \
                     9223372036854775807), \
            (SELECT MAX(rowid) FROM running_actions), \
            (SELECT MIN(rowid) FROM running_actions) + ?1)",
    )?
    .execute([PRUNE_AT_MOST])
}

/// The rows of running matches, as the writer starts: scanned from the lowest rowid any of
/// them may have appended (`log_from`), not from the table's start. Without a running match
/// there is nothing to scan.
fn read_running(conn: &Connection) -> Result<RunningRows, rusqlite::Error> {
    let mut rows = conn.prepare(
        "SELECT rowid, match_id, idx FROM running_actions \
         WHERE rowid >= (SELECT MIN(log_from) FROM matches WHERE status = 'running') \
         AND match_id IN (SELECT id FROM matches WHERE status = 'running')",
    )?;
    let running = rows
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
        .collect::<Result<Vec<(i64, String, i64)>, _>>()?;
    Ok(RunningRows::from_rows(running))
}

impl Commit for SqliteWriter {
    async fn commit(&mut self, batch: &[Write]) -> Result<(), CommitFailure> {
        // Blocking is this thread's job: nothing else runs on it.
        self.commit_now(batch)?;
        self.uncheckpointed.batches += 1;
        self.uncheckpointed.rows += batch.len();
        Ok(())
    }

    fn after_batch(&mut self, idle: bool) {
        let due = (idle && self.uncheckpointed.reached(CHECKPOINT_AFTER))
            || self.uncheckpointed.reached(CHECKPOINT_AT_THE_LATEST);
        if !due {
            return;
        }
        self.uncheckpointed = Since::default();
        // The prune first: the pages it frees are written to the WAL just before the
        // checkpoint copies it.
        if let Err(error) = self.prune() {
            tracing::warn!(%error, "could not delete ended matches' rows from the running log");
        }
        if let Err(error) = self.checkpoint() {
            tracing::warn!(%error, "WAL checkpoint failed");
        }
    }
}

/// Opens the writer's connection and starts its thread.
pub(super) fn spawn(
    path: &Path,
    synchronous: Synchronous,
    options: WriterOptions,
) -> Result<mpsc::Sender<Write>, StoreError> {
    let db = SqliteWriter::open(path, synchronous)?;
    let (tx, rx) = writer::queue();
    std::thread::Builder::new()
        .name("sqlite-writer".into())
        .spawn(move || {
            // A runtime of its own for the queue and the linger timer; the thread is the
            // writer's alone, so its blocking calls stall nobody.
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .build()
                .expect("a current-thread runtime starts");
            runtime.block_on(writer::run(db, rx, options));
        })?;
    Ok(tx)
}

/// Bounds the WAL file beside the writer's own checkpoints: every `truncate_every` a
/// truncating checkpoint empties the file, so it stays bounded even when readers kept the
/// WAL from starting over, and after a burst of writes that did not go through the writer.
/// A checkpoint that finds readers in the way simply tries again next time. Ends with the
/// pool.
pub(super) fn checkpoints(pool: sqlx::AnyPool, truncate_every: Duration) {
    tokio::spawn(async move {
        let mut ticks =
            tokio::time::interval_at(tokio::time::Instant::now() + truncate_every, truncate_every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            if pool.is_closed() {
                return;
            }
            match sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                .fetch_one(&pool)
                .await
            {
                // (busy, WAL frames, frames checkpointed): busy means readers were in the way.
                Ok(row) if row.try_get::<i64, _>(0).unwrap_or(0) != 0 => {
                    tracing::debug!("WAL truncation deferred: readers were busy");
                }
                Ok(_) => {}
                Err(sqlx::Error::PoolClosed) => return,
                Err(error) => tracing::warn!(%error, "WAL truncation failed"),
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_locked_database_is_tried_again_every_100_microseconds_for_5_seconds() {
        assert!(keeps_trying(0));
        assert!(keeps_trying(49_999));
        assert!(!keeps_trying(50_000));
        assert_eq!(LOCKED_RETRY, Duration::from_micros(100));
    }
}
