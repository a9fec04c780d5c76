//! The SQLite writer: one connection on a thread of its own, calling SQLite directly.
//!
//! Through the pool, every statement of a commit (begin, insert, update, commit) is a round
//! trip between the runtime and the connection's worker thread. Here the whole batch is one
//! hand-over: the thread takes the queued writes, runs the transaction with statements
//! prepared once and kept, and answers each write.
//!
//! A running match's actions are appended to `pending_actions`, a table in arrival order with
//! no index, and move into `actions` (ordered by match) once the match's end has committed,
//! one match at a time between batches and at a pace ([`MOVE_SPACING`]); the moved rows are
//! deleted with the checkpoints, a slice at a time ([`PRUNE_SLACK`]). Appended to `actions`
//! directly, every commit wrote a leaf of its index for each match in the batch, and split
//! them often: ~3 pages per move, against the one last page of `pending_actions` shared by
//! the whole batch.
//!
//! Checkpoints are off the ack path: SQLite's automatic checkpoint would run inside the commit
//! that crosses its threshold, before that batch is answered. Instead the writer checkpoints
//! between batches, after answering one, when nothing is queued ([`CHECKPOINT_AFTER`]).
//! Rarely, because a checkpoint copies each page once however many commits rewrote it: the
//! index leaf of a match and the table's last leaf are rewritten by commit after commit, so
//! the longer between checkpoints, the fewer times each is copied.
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
use tokio::time::Instant;

use super::pending::{PendingChange, PendingRows};
use super::writer::{
    self, Commit, CommitFailure, INSERT_MATCH, INSERT_PLAYER, Tidied, Write, WriterOptions,
};
use super::{StoreError, Synchronous};
use sqlx::Row;

/// The WAL is cut back to this size whenever a checkpoint has emptied it: 32 MiB.
const WAL_SIZE_LIMIT: i64 = 32 * 1024 * 1024;
/// The writer checkpoints at the first moment nothing is queued once this much was committed
/// since the last checkpoint: this many batches (each writes at least a few pages: under
/// light load the WAL is then ~2 MiB)...
const CHECKPOINT_AFTER: Since = Since {
    batches: 500,
    rows: 2_000,
};
/// ...or this many rows (a move adds ~2.5 pages of 1 KiB under load: a WAL of ~5 MiB); and
/// at these, whatever is queued, so the WAL stays bounded under any load.
const CHECKPOINT_AT_THE_LATEST: Since = Since {
    batches: 1_250,
    rows: 5_000,
};

/// Rows of ended matches between rows of running ones are deleted from `pending_actions` in
/// runs of at least this many (~15 pages): shorter runs share their pages with rows that stay.
const PRUNE_RUNS_FROM: i64 = 64;
/// A prune deletes at most as many rows as were committed since the last one, plus this
/// many: so it keeps up with the appends and works off a backlog (the rows of many tables
/// that ended together) a slice at a time, rather than holding every room's acks behind one
/// long delete (the kit's 250 ends, ~24,000 rows, took 60 ms at once).
const PRUNE_SLACK: usize = 1_000;

/// Moving an ended match's log (~150 rows: a millisecond or so, and a sync of its own) holds
/// up the batch behind it, and tables that started together end together: moved as fast as
/// the writer could go, the kit's 250 ends took 80% of its time for a second and held acks
/// for up to 50-100 ms. So the moves are paced: after one that took `d`, the next waits `MOVE_SPACING * d`, which keeps
/// them to a tenth of the writer's time...
const MOVE_SPACING: u32 = 9;
/// ...unless this many ended matches wait: then one moves after every batch, so that under
/// any load the moves keep up and what waits stays bounded.
const MOVE_BACKLOG: usize = 1_000;

/// When the next move of an ended match's log is due.
#[derive(Debug)]
struct MovePace {
    next: Instant,
}

impl MovePace {
    fn new(now: Instant) -> Self {
        MovePace { next: now }
    }

    fn due(&self, now: Instant, waiting: usize) -> bool {
        waiting >= MOVE_BACKLOG || now >= self.next
    }

    /// Records a move (or a failed try) that ran from `started` to `finished`.
    fn moved(&mut self, started: Instant, finished: Instant) {
        self.next = finished + finished.saturating_duration_since(started) * MOVE_SPACING;
    }
}

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
/// whole, and a batch of moves touches the table's last leaf and one index leaf per match,
/// each gaining a row of ~120 bytes: with SQLite's default 4 KiB pages a move cost ~11 KB
/// of writes, with 1 KiB pages ~4 KB (docs/performance.md, "Pages"). Smaller pages still make
/// the trees deeper and splits more frequent, and cost more CPU than they save in bytes.
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
    syncing: Syncing,
    uncheckpointed: Since,
    pending: PendingRows,
    moves: MovePace,
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
        // The one reference among the tables the writer writes, `actions` to `matches`, is
        // checked by the writer itself: a match's first append is refused unless the match
        // has a row ([`first_index`]), matches are never deleted, and `actions` is filled
        // only from `pending_actions`. With the check on, SQLite looked the match up again
        // for each of the ~150 rows of every log it moved.
        conn.pragma_update(None, "foreign_keys", "OFF")?;
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        conn.pragma_update(None, "journal_size_limit", WAL_SIZE_LIMIT)?;
        let pending = read_pending(&conn)?;
        Ok(SqliteWriter {
            conn,
            syncing: Syncing::new(synchronous),
            uncheckpointed: Since::default(),
            pending,
            moves: MovePace::new(Instant::now()),
        })
    }

    /// Copies the WAL into the database (passive: it never waits for readers). Run by the
    /// only writer between its transactions, it copies everything, unless a reader still
    /// needs old frames; the next transaction then writes the WAL from its beginning again.
    fn checkpoint(&mut self) -> Result<(), rusqlite::Error> {
        // Synced as configured: the checkpoint syncs the WAL before it copies it, and the
        // database after, before the WAL may start over.
        self.synced()?;
        self.conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
    }

    /// The connection set to sync as configured again, if an upkeep transaction relaxed it
    /// and could not restore it.
    fn synced(&mut self) -> Result<(), rusqlite::Error> {
        self.syncing.restore(&self.conn)
    }

    fn commit_now(&mut self, batch: &[Write]) -> Result<(), rusqlite::Error> {
        self.synced()?;
        let SqliteWriter { conn, pending, .. } = self;
        let mut change = PendingChange::default();
        immediate(conn, |conn| write_batch(conn, pending, &mut change, batch))?;
        pending.commit(change);
        Ok(())
    }

    /// Moves the rows of the ended match that waited longest into `actions`, in one
    /// transaction that also clears its `log_pending`. A row already there is the same action
    /// (the writer appends each match's next index only, counting from `actions`): a match
    /// that was marked running again after its rows moved. Returns whether there was one.
    fn move_one(&mut self) -> Result<bool, rusqlite::Error> {
        let Some((match_id, rowids)) = self.pending.to_move() else {
            return Ok(false);
        };
        self.syncing.upkeep(&self.conn, |conn| {
            let mut to_log = conn.prepare_cached(
                "INSERT OR IGNORE INTO actions (match_id, idx, seat, action, source, seq, at) \
                 SELECT match_id, idx, seat, action, source, seq, at \
                 FROM pending_actions WHERE rowid = ?1",
            )?;
            for rowid in rowids {
                to_log.execute([rowid])?;
            }
            conn.prepare_cached("UPDATE matches SET log_pending = 0 WHERE id = ?1")?
                .execute([match_id])?;
            Ok(())
        })?;
        self.pending.moved();
        Ok(true)
    }

    /// Moves one ended match if one is due ([`MovePace`]), logging a failure (the match stays
    /// to move, and is tried again).
    fn move_when_due(&mut self) -> Tidied {
        let waiting = self.pending.waiting_to_move();
        if waiting == 0 {
            return Tidied::Nothing;
        }
        let started = Instant::now();
        if !self.moves.due(started, waiting) {
            return Tidied::Until(self.moves.next);
        }
        let moved = self.move_one();
        self.moves.moved(started, Instant::now());
        match moved {
            Ok(true) => Tidied::Piece,
            Ok(false) => Tidied::Nothing,
            Err(error) => {
                tracing::warn!(%error, "moving an ended match's actions into the log failed");
                Tidied::Nothing
            }
        }
    }

    /// Deletes rows of ended matches from `pending_actions` (their copies are in `actions`),
    /// in one transaction: the front of the table, and long runs of them further up, at most
    /// `budget` rows. The ranges come from this writer's record of the rows.
    fn prune_pending(&mut self, budget: usize) -> Result<(), rusqlite::Error> {
        let ranges = self.pending.prunable(PRUNE_RUNS_FROM);
        self.syncing.upkeep(&self.conn, |conn| {
            delete_moved(conn, &ranges, budget).map(drop)
        })
    }
}

/// Deletes rows of ended matches in `ranges` of rowids, the lowest first, at most `budget`;
/// returns how many. Each row's match is checked to be no longer running (nor waiting to
/// move), so rows appended by another process on the same file (which this writer knows
/// nothing of) are never lost.
fn delete_moved(
    conn: &Connection,
    ranges: &[(i64, i64)],
    budget: usize,
) -> Result<usize, rusqlite::Error> {
    let mut delete = conn.prepare_cached(
        "DELETE FROM pending_actions WHERE rowid IN \
         (SELECT rowid FROM pending_actions WHERE rowid BETWEEN ?1 AND ?2 \
          AND match_id NOT IN \
          (SELECT id FROM matches WHERE status = 'running' OR log_pending = 1) \
          ORDER BY rowid LIMIT ?3)",
    )?;
    let mut deleted = 0;
    for &(first, last) in ranges {
        if deleted == budget {
            break;
        }
        let left = i64::try_from(budget - deleted).unwrap_or(i64::MAX);
        deleted += delete.execute(params![first, last, left])?;
    }
    Ok(deleted)
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

/// How the writer's connection syncs its commits: as configured, except inside an upkeep
/// transaction ([`Syncing::upkeep`]).
#[derive(Debug)]
struct Syncing {
    /// How the writer's commits of writes are synced.
    configured: Synchronous,
    /// Whether the connection is set to `configured`: an upkeep transaction relaxes it, and
    /// nothing else is committed until it is set again.
    set: bool,
}

impl Syncing {
    fn new(configured: Synchronous) -> Self {
        Syncing {
            configured,
            set: true,
        }
    }

    /// Runs an upkeep transaction (an ended match's log moved, moved rows deleted) with its
    /// commit not synced (`synchronous = NORMAL`, which in WAL mode syncs at checkpoints
    /// only): nobody waits for it, and nothing it does has to survive a power loss on its
    /// own. Undone by one, it leaves the rows where they were and `log_pending` set, which
    /// readers and the writer's start read as before the move (a move is then done again).
    /// The WAL is replayed in order, up to the first frame that did not reach the disk, so no
    /// later transaction can survive without it, and the next synced commit (the next
    /// batch's) or checkpoint makes it durable with its own. Synced alone, each move was a
    /// sync, and two I/O completions, per ended match. The connection's own setting is
    /// restored before anything else is committed or checkpointed ([`SqliteWriter::synced`]).
    fn upkeep(
        &mut self,
        conn: &Connection,
        write: impl FnOnce(&Connection) -> Result<(), rusqlite::Error>,
    ) -> Result<(), rusqlite::Error> {
        if self.configured == Synchronous::Normal {
            return immediate(conn, write);
        }
        self.set = false;
        conn.prepare_cached(Synchronous::Normal.pragma())?
            .execute([])?;
        let written = immediate(conn, write);
        self.restore(conn)?;
        written
    }

    /// Sets the connection's `synchronous` again, if an upkeep transaction left it relaxed.
    fn restore(&mut self, conn: &Connection) -> Result<(), rusqlite::Error> {
        if !self.set {
            conn.prepare_cached(self.configured.pragma())?.execute([])?;
            self.set = true;
        }
        Ok(())
    }
}

/// The index a match without pending rows appends next: after its actions in `actions`, if
/// it has any (a database upgraded mid-match, a match marked running again). `pending_actions`
/// has no foreign key (checking one cost an index lookup per move), so this, once per match,
/// is where an append for a match without a row is refused, as the key refused it.
fn first_index(conn: &Connection, match_id: &str) -> Result<i64, rusqlite::Error> {
    let (known, next): (bool, i64) = conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM matches WHERE id = ?1), \
             (SELECT COALESCE(MAX(idx) + 1, 0) FROM actions WHERE match_id = ?1)",
        )?
        .query_row([match_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    if !known {
        return Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY),
            Some(format!("match {match_id} has no row")),
        ));
    }
    Ok(next)
}

/// An append at an index other than its match's next one: refused as the primary key of
/// `actions` refuses a duplicate.
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
    pending: &PendingRows,
    change: &mut PendingChange<'b>,
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
        }
    }
    if batch.iter().any(|write| write.row().is_some()) {
        // One prepared single-row INSERT, run per row: SQLite runs it without parsing
        // again, which is what a multi-row statement would save, and needs no statement
        // per batch size.
        let mut insert = conn.prepare_cached(
            "INSERT INTO pending_actions (match_id, idx, seat, action, source, seq, at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for row in batch.iter().filter_map(Write::row) {
            // `actions` refused an index already taken by its primary key; here the
            // writer does, the match's next index kept with its pending rows.
            let next = match pending.next_index(&row.match_id, change) {
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
        // action. Its rows move into `actions` later, in a transaction of their own
        // ([`SqliteWriter::move_one`]); until then `log_pending` tells readers to look in
        // `pending_actions` too.
        let mut status = conn.prepare_cached(
            "UPDATE matches SET status = ?1, outcome = ?2, finished_at = ?3, log_pending = 1 \
             WHERE id = ?4",
        )?;
        for (match_id, new_status, outcome, at) in batch.iter().filter_map(Write::status_change) {
            change.end(match_id);
            status.execute(params![new_status, outcome, at, match_id])?;
        }
    }
    Ok(())
}

/// The pending rows of running matches and of ended matches still to move, as the writer
/// starts.
fn read_pending(conn: &Connection) -> Result<PendingRows, rusqlite::Error> {
    let mut rows = conn.prepare(
        "SELECT p.rowid, p.match_id, p.idx FROM pending_actions p \
         JOIN matches m ON m.id = p.match_id \
         WHERE m.status = 'running' OR m.log_pending = 1",
    )?;
    let running = rows
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
        .collect::<Result<Vec<(i64, String, i64)>, _>>()?;
    let mut ended = conn.prepare(
        "SELECT id FROM matches WHERE status <> 'running' AND log_pending = 1 \
         ORDER BY finished_at",
    )?;
    let unmoved = ended
        .query_map([], |row| row.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    let last = conn.query_row(
        "SELECT COALESCE(MAX(rowid), 0) FROM pending_actions",
        [],
        |row| row.get(0),
    )?;
    Ok(PendingRows::from_rows(running, unmoved, last))
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
        // Ended matches move at their pace after batches, and while the writer is idle
        // ([`Commit::tidy_up`]).
        self.move_when_due();
        let due = (idle && self.uncheckpointed.reached(CHECKPOINT_AFTER))
            || self.uncheckpointed.reached(CHECKPOINT_AT_THE_LATEST);
        if !due {
            return;
        }
        let budget = self.uncheckpointed.rows + PRUNE_SLACK;
        self.uncheckpointed = Since::default();
        // Before the checkpoint, so that it copies the pages the delete freed too.
        if let Err(error) = self.prune_pending(budget) {
            tracing::warn!(%error, "deleting the moved rows of ended matches failed");
        }
        if let Err(error) = self.checkpoint() {
            tracing::warn!(%error, "WAL checkpoint failed");
        }
    }

    fn tidy_up(&mut self) -> Tidied {
        self.move_when_due()
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

    /// The two tables a prune reads, with the columns it reads and `pending_actions` whole.
    fn pending_tables() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        pending_tables_in(&conn);
        conn
    }

    fn pending_tables_in(conn: &Connection) {
        conn.execute_batch(
            "CREATE TABLE matches (id TEXT PRIMARY KEY, status TEXT NOT NULL, \
                log_pending BIGINT NOT NULL DEFAULT 0, finished_at BIGINT); \
             CREATE TABLE pending_actions (match_id TEXT NOT NULL, idx BIGINT NOT NULL, \
                seat BIGINT NOT NULL, action TEXT NOT NULL, source TEXT NOT NULL, \
                seq BIGINT, at BIGINT NOT NULL); \
             INSERT INTO matches VALUES ('ended', 'finished', 0, 1), \
                ('running', 'running', 0, NULL), ('unmoved', 'finished', 1, 2);",
        )
        .unwrap();
    }

    fn append(conn: &Connection, match_id: &str, rows: i64) {
        let mut insert = conn
            .prepare("INSERT INTO pending_actions VALUES (?1, ?2, 0, '{}', 'bot', NULL, 0)")
            .unwrap();
        for idx in 0..rows {
            insert.execute(params![match_id, idx]).unwrap();
        }
    }

    fn rows_of(conn: &Connection, match_id: &str) -> i64 {
        conn.query_row(
            "SELECT COUNT(*) FROM pending_actions WHERE match_id = ?1",
            [match_id],
            |row| row.get(0),
        )
        .unwrap()
    }

    #[test]
    fn a_prune_deletes_no_more_rows_than_its_budget_the_lowest_first() {
        let conn = pending_tables();
        append(&conn, "ended", 3_000); // rowids 1..=3000
        append(&conn, "running", 10); // 3001..=3010
        append(&conn, "unmoved", 10); // 3011..=3020
        let everything = [(i64::MIN, 5_000)];
        assert_eq!(delete_moved(&conn, &everything, 1_200).unwrap(), 1_200);
        assert_eq!(rows_of(&conn, "ended"), 1_800);
        let lowest: i64 = conn
            .query_row("SELECT MIN(rowid) FROM pending_actions", [], |r| r.get(0))
            .unwrap();
        assert_eq!(lowest, 1_201, "the front of the table goes first");
        // The budget carries over from range to range.
        let two = [(1, 2_000), (2_001, 5_000)];
        assert_eq!(delete_moved(&conn, &two, 1_000).unwrap(), 1_000);
        assert_eq!(rows_of(&conn, "ended"), 800);
        assert_eq!(delete_moved(&conn, &everything, 5_000).unwrap(), 800);
        assert_eq!(
            (rows_of(&conn, "running"), rows_of(&conn, "unmoved")),
            (10, 10),
            "rows of running matches and of matches still to move stay"
        );
    }

    fn synchronous_of(conn: &Connection) -> i64 {
        conn.query_row("PRAGMA synchronous", [], |row| row.get(0))
            .unwrap()
    }

    #[test]
    fn an_upkeep_transaction_commits_unsynced_and_what_follows_it_is_synced_again() {
        let conn = pending_tables();
        conn.execute_batch(Synchronous::Full.pragma()).unwrap();
        let mut syncing = Syncing::new(Synchronous::Full);
        let mut during = None;
        syncing
            .upkeep(&conn, |conn| {
                during = Some(synchronous_of(conn));
                append(conn, "ended", 1);
                Ok(())
            })
            .unwrap();
        assert_eq!(
            during,
            Some(1),
            "NORMAL: in WAL mode, synced at checkpoints only"
        );
        assert_eq!(synchronous_of(&conn), 2, "FULL again once it has committed");
        assert!(syncing.set);
        assert_eq!(rows_of(&conn, "ended"), 1);

        let failed = syncing.upkeep(&conn, |conn| {
            append(conn, "ended", 1);
            conn.execute_batch("INSERT INTO nowhere VALUES (1)")
        });
        assert!(failed.is_err());
        assert_eq!(
            synchronous_of(&conn),
            2,
            "FULL again after a failed one too"
        );
        assert_eq!(rows_of(&conn, "ended"), 1, "the failed one rolled back");

        conn.execute_batch(Synchronous::Normal.pragma()).unwrap();
        Syncing::new(Synchronous::Normal)
            .upkeep(&conn, |_| Ok(()))
            .unwrap();
        assert_eq!(
            synchronous_of(&conn),
            1,
            "a store configured NORMAL stays so"
        );
    }

    #[test]
    fn a_writer_whose_setting_was_left_relaxed_sets_it_again_before_it_commits() {
        let path = std::env::temp_dir().join(format!(
            "pandemonium-relaxed-{}-{:?}.db",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_file(&path);
        pending_tables_in(&Connection::open(&path).unwrap());
        let mut writer = SqliteWriter::open(&path, Synchronous::Full).unwrap();
        assert_eq!(synchronous_of(&writer.conn), 2);
        // As if an upkeep transaction could not restore it.
        let relax = |writer: &mut SqliteWriter| {
            let normal = Synchronous::Normal.pragma();
            writer.conn.execute_batch(normal).unwrap();
            writer.syncing.set = false;
        };
        relax(&mut writer);
        writer.commit_now(&[]).unwrap();
        assert_eq!(synchronous_of(&writer.conn), 2);
        relax(&mut writer);
        writer.checkpoint().unwrap();
        assert_eq!(
            synchronous_of(&writer.conn),
            2,
            "checkpoints sync as configured"
        );
        drop(writer);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }

    #[test]
    fn moves_of_ended_matches_take_a_tenth_of_the_writer_s_time_until_a_backlog_forms() {
        let start = Instant::now();
        let at = |micros: u64| start + Duration::from_micros(micros);
        let mut pace = MovePace::new(start);
        assert!(pace.due(start, 1), "the first move is due at once");
        pace.moved(at(0), at(1_000));
        assert!(!pace.due(at(9_999), 1));
        assert!(
            pace.due(at(10_000), 1),
            "nine times the last move's length after it"
        );
        assert!(
            pace.due(at(1_000), MOVE_BACKLOG),
            "with a backlog, one after every batch"
        );
        pace.moved(at(10_000), at(10_100));
        assert!(pace.due(at(11_000), 1), "a quick move, a short wait");
    }
}
