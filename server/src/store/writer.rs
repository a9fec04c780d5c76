//! Group commit: one writer owns every write (guests, matches, actions, results). It takes
//! whatever has queued while the previous transaction was committing and commits it all in
//! one transaction, so under load the number of commits stays flat while the number of
//! actions grows. When what it takes shows it is loaded (writes arriving faster than commits
//! finish), it first waits a little (the linger) for more to join: a commit costs about the
//! same whatever it holds, and at a light load there is nothing to wait for.
//!
//! The writer is one dedicated connection: for SQLite a thread of its own that calls the
//! database directly ([`super::sqlite_writer`]), so an append costs one hand-over in and one
//! answer out rather than a round trip per statement; for PostgreSQL one connection held
//! for good ([`super::postgres_writer`]).
//!
//! Nothing on the way of play writes beside it (only the hourly guest prune and SQLite's
//! periodic WAL truncation do, briefly). A second writer would race this one (an action
//! committed ahead of its match's row) and, on SQLite, the two would wait out each other's
//! lock in the busy handler's sleeps, with every room's actions queued behind.
//!
//! Rooms do not wait for their appends: they keep applying actions while earlier appends are
//! in flight and hold back what they would tell people until each append is durable. That
//! makes two promises matter here:
//! - **Isolation.** A batch holds many rooms' writes. If it fails, each match's writes are
//!   committed again on their own, so one room's bad write fails that room only. When no
//!   connection can be had at all (the database is down), nothing is tried again: every write
//!   of the batch is refused at once, and its rooms tell their players `storage_unavailable`
//!   within a connection deadline rather than one deadline per room.
//! - **No gaps.** Once an append of a match fails, every later append of that match already
//!   queued behind it is failed too, unwritten, until the room says it has rolled back to its
//!   last durable action ([`Write::Reopen`]) and appends from there again.

use std::collections::HashSet;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use super::StoreError;
use super::commit_watch::CommitWatch;
use crate::metrics::Histogram;

/// How many queued writes one transaction takes at most.
const MAX_BATCH: usize = 1_000;
/// The writer lingers for more only while writes keep arriving at least this fast (per
/// second): then several more arrive during a linger of a millisecond to share the next
/// commit, whose cost hardly depends on what it holds. At a table's pace batches are small
/// anyway and lingering only adds latency (docs/performance.md, "A commit's fixed costs").
const LOADED_RATE: u64 = 3_000;
/// The rate is counted over windows this long, so a burst (a table's four players committing
/// at once) is not taken for load.
const RATE_WINDOW: Duration = Duration::from_millis(10);

pub(super) type Done = oneshot::Sender<Result<(), StoreError>>;

pub(super) enum Write {
    /// A new guest.
    Player { row: PlayerRow, done: Done },
    /// A match's row, written before any of its actions.
    Start {
        row: MatchRow,
        /// Cluster mode: the room lease the match is started under.
        fence: Option<Fence>,
        done: Done,
    },
    Append {
        row: ActionRow,
        /// The match ends with this action: its status and outcome are written in the same
        /// transaction, so a crash can never keep the last action and lose the result.
        finish: Option<String>,
        /// Cluster mode: the room lease the action is written under.
        fence: Option<Fence>,
        done: Done,
    },
    Status {
        match_id: String,
        status: &'static str,
        outcome: Option<String>,
        at: i64,
        /// Cluster mode: the room lease the match is ended under.
        fence: Option<Fence>,
        done: Done,
    },
    /// The match's room has rolled back after a failed append: its appends are taken again.
    Reopen { match_id: String },
    /// Resolves once everything queued before it is committed. Sent as the store closes, so
    /// the writer then also gives back a connection it holds.
    Flush { done: oneshot::Sender<()> },
}

pub(super) struct PlayerRow {
    pub id: String,
    pub name: String,
    pub token_hash: String,
    pub created_at: i64,
}

pub(super) struct MatchRow {
    pub id: String,
    pub room_code: String,
    pub game: String,
    pub config: String,
    pub seats: String,
    pub room: String,
    pub seed: String,
    pub seed_hash: String,
    pub started_at: i64,
    pub rematch_of: Option<String>,
}

/// The statements both writers run, in `$n` parameters (SQLite numbers `$n` in order of
/// appearance, which is their order here).
pub(super) const INSERT_PLAYER: &str =
    "INSERT INTO players (id, name, token_hash, created_at) VALUES ($1, $2, $3, $4)";
pub(super) const INSERT_MATCH: &str = "INSERT INTO matches \
    (id, room_code, game, config, seats, room, seed, seed_hash, \
     status, outcome, started_at, finished_at, rematch_of) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'running', NULL, $9, NULL, $10)";

/// The room lease a write of a match (its start, an action, its end) is made under, in cluster
/// mode: the write is refused, unwritten, unless the room's lease is still this node's at this
/// epoch when the transaction that would make it checks.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Fence {
    pub room: String,
    pub epoch: i64,
}

/// The fences a commit found lost: the writes made under them were left out of it.
pub(super) type Lost = HashSet<Fence>;

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
            Write::Start { row, .. } => Some(&row.id),
            Write::Status { match_id, .. } | Write::Reopen { match_id } => Some(match_id),
            Write::Player { .. } | Write::Flush { .. } => None,
        }
    }
}

/// How the writer behaves beyond committing.
#[derive(Debug, Clone, Default)]
pub struct WriterOptions {
    /// How long the writer waits for more writes to join a batch when it is loaded (writes
    /// arrived at [`LOADED_RATE`] a second or more over the last [`RATE_WINDOW`]). Zero always
    /// commits at once.
    pub linger: Duration,
    /// Test hook: end the process the moment a match's finishing write has committed, the
    /// way `kill -9` would, so a test can show that the result was written with the action.
    pub abort_after_finish: bool,
    /// Where the time each commit took is counted.
    pub commit_times: Arc<Histogram>,
}

/// The longest linger the writer accepts: beyond it, waiting costs more than it saves.
pub const MAX_LINGER: Duration = Duration::from_millis(1);

/// Why a batch could not be committed.
#[derive(Debug, thiserror::Error)]
pub(super) enum CommitFailure {
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    /// No connection to the database could be had (it is down, restarting or cut off):
    /// nothing was tried, and no other grouping of the writes would fare better until it is
    /// back, so they are all refused at once.
    #[error("the database is unreachable: {0}")]
    Unreachable(sqlx::Error),
}

/// One database connection that commits a batch of writes in one transaction.
pub(super) trait Commit {
    fn commit(&mut self, batch: &[Write]) -> impl Future<Output = Result<(), CommitFailure>>;

    /// Housekeeping after a batch, once its writes are answered (so no ack waits on it).
    /// `idle` says nothing else is queued: work that would hold up the next batch waits for
    /// such a moment.
    fn after_batch(&mut self, _idle: bool) {}

    /// The room leases the last commit found lost (only a PostgreSQL writer in cluster mode
    /// checks them): the writes made under them were left out of it, and are refused.
    fn take_lost(&mut self) -> Lost {
        Lost::new()
    }

    /// The store is closing: give back any connection held for good, or closing the pool
    /// would wait for it forever.
    fn release(&mut self) {}
}

/// The queue rooms hand their writes to. Bounded: if the database stalls, rooms wait here
/// rather than queueing without limit.
pub(super) fn queue() -> (mpsc::Sender<Write>, mpsc::Receiver<Write>) {
    mpsc::channel(4_096)
}

pub(super) async fn run<C: Commit>(
    mut db: C,
    mut rx: mpsc::Receiver<Write>,
    options: WriterOptions,
) {
    let mut batch = Vec::with_capacity(64);
    // Matches whose appends are refused after a failure, until their room reopens them.
    let mut fences: HashSet<String> = HashSet::new();
    let linger = options.linger.min(MAX_LINGER);
    let mut load = Load::new(Instant::now());
    let mut watch = CommitWatch::new(options.commit_times.clone());
    while let Some(first) = rx.recv().await {
        batch.push(first);
        take_queued(&mut rx, &mut batch);
        let now = Instant::now();
        if !linger.is_zero() && load.loaded(now) && batch.len() < MAX_BATCH {
            let until = now + linger;
            while batch.len() < MAX_BATCH {
                match tokio::time::timeout_at(until, rx.recv()).await {
                    Ok(Some(write)) => {
                        batch.push(write);
                        take_queued(&mut rx, &mut batch);
                    }
                    Ok(None) | Err(_) => break,
                }
            }
        }
        load.count(batch.len());
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
        let closing = writable.iter().any(|w| matches!(w, Write::Flush { .. }));
        match commit_if_needed(&mut db, &writable, &mut watch).await {
            Ok(()) => {
                let lost = db.take_lost();
                for write in writable {
                    answer_committed(write, &lost);
                }
            }
            Err(error @ CommitFailure::Unreachable(_)) => {
                tracing::warn!(%error, "refusing every write of the batch");
                refuse(writable, &mut fences, &error.to_string());
            }
            Err(error) => {
                tracing::warn!(%error, "a group commit failed; committing each match alone");
                commit_each_match(&mut db, writable, &mut fences, &mut watch).await;
            }
        }
        if finishing && options.abort_after_finish {
            tracing::warn!("test hook: stopping the process after a finishing write");
            std::process::abort();
        }
        if closing {
            db.release();
        }
        db.after_batch(rx.is_empty());
    }
}

/// How fast writes have been arriving: counted per window of [`RATE_WINDOW`], judged when a
/// window has passed.
#[derive(Debug)]
struct Load {
    since: Instant,
    writes: u64,
    loaded: bool,
}

impl Load {
    fn new(now: Instant) -> Self {
        Load {
            since: now,
            writes: 0,
            loaded: false,
        }
    }

    /// Counts the writes of a batch.
    fn count(&mut self, writes: usize) {
        self.writes += writes as u64;
    }

    /// Whether the last window saw writes at [`LOADED_RATE`] or more. A window ends at the
    /// first batch after it has lasted [`RATE_WINDOW`]: after a quiet spell it is a long one,
    /// and its rate low.
    fn loaded(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.since);
        if elapsed >= RATE_WINDOW {
            let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
            self.loaded =
                self.writes.saturating_mul(1_000_000) >= LOADED_RATE.saturating_mul(micros);
            self.since = now;
            self.writes = 0;
        }
        self.loaded
    }
}

/// Moves what is already queued into the batch, up to its size limit.
fn take_queued(rx: &mut mpsc::Receiver<Write>, batch: &mut Vec<Write>) {
    while batch.len() < MAX_BATCH {
        match rx.try_recv() {
            Ok(write) => batch.push(write),
            Err(_) => break,
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
/// matches whose writes really fail are told so. Once the database is found unreachable, the
/// matches not tried yet are refused without trying: during an outage each try would wait out
/// the connection deadline in turn, and the last room would hear of it only after all of them.
async fn commit_each_match<C: Commit>(
    db: &mut C,
    writes: Vec<Write>,
    fences: &mut HashSet<String>,
    watch: &mut CommitWatch,
) {
    let mut groups: Vec<(Option<String>, Vec<Write>)> = Vec::new();
    for write in writes {
        let id = write.match_id().map(str::to_string);
        match groups.iter_mut().find(|(g, _)| *g == id) {
            Some((_, group)) => group.push(write),
            None => groups.push((id, vec![write])),
        }
    }
    let mut unreachable: Option<String> = None;
    for (id, group) in groups {
        if let Some(sentence) = &unreachable {
            refuse(group, fences, sentence);
            continue;
        }
        match commit_if_needed(db, &group, watch).await {
            Ok(()) => {
                let lost = db.take_lost();
                group.into_iter().for_each(|w| answer_committed(w, &lost));
            }
            Err(error) => {
                tracing::error!(match_id = ?id, %error, "a match's writes could not be committed");
                let sentence = error.to_string();
                if matches!(error, CommitFailure::Unreachable(_)) {
                    unreachable = Some(sentence.clone());
                }
                refuse(group, fences, &sentence);
            }
        }
    }
}

/// Refuses writes that were not committed, and fences the matches they appended to: what is
/// queued behind a refused append is refused too, until its room reopens the log.
fn refuse(writes: Vec<Write>, fences: &mut HashSet<String>, sentence: &str) {
    for write in writes {
        if let Write::Append { row, .. } = &write {
            fences.insert(row.match_id.clone());
        }
        answer(write, Err(StoreError::Commit(sentence.to_owned())));
    }
}

/// Answers a write of a batch that committed: done, unless the commit left it out because its
/// room's lease was lost.
fn answer_committed(write: Write, lost: &Lost) {
    let fenced = write.fence().is_some_and(|fence| lost.contains(fence));
    if fenced {
        answer(write, Err(StoreError::LeaseLost));
    } else {
        answer(write, Ok(()));
    }
}

fn answer(write: Write, outcome: Result<(), StoreError>) {
    match write {
        Write::Player { done, .. }
        | Write::Start { done, .. }
        | Write::Append { done, .. }
        | Write::Status { done, .. } => {
            let _ = done.send(outcome);
        }
        Write::Flush { done } => {
            let _ = done.send(());
        }
        Write::Reopen { .. } => {}
    }
}

/// Commits a batch unless it holds nothing to write (only flushes and reopens), and has the
/// time the commit took counted.
async fn commit_if_needed<C: Commit>(
    db: &mut C,
    batch: &[Write],
    watch: &mut CommitWatch,
) -> Result<(), CommitFailure> {
    if batch.iter().any(|w| {
        w.status_change().is_some()
            || matches!(
                w,
                Write::Player { .. } | Write::Start { .. } | Write::Append { .. }
            )
    }) {
        let started = Instant::now();
        let committed = db.commit(batch).await;
        // A batch refused for want of a connection never reached the database: its wait (the
        // connection deadline) is no commit time, and would read as a slow commit.
        if !matches!(committed, Err(CommitFailure::Unreachable(_))) {
            watch.took(started, Instant::now());
        }
        committed
    } else {
        Ok(())
    }
}

impl Write {
    /// The status this write gives its match, if any: `(match, status, outcome, at)`. A
    /// finishing append finishes its match in the same transaction.
    pub(super) fn status_change(&self) -> Option<(&str, &'static str, Option<&str>, i64)> {
        match self {
            Write::Status {
                match_id,
                status,
                outcome,
                at,
                ..
            } => Some((match_id, status, outcome.as_deref(), *at)),
            Write::Append {
                row,
                finish: Some(outcome),
                ..
            } => Some((&row.match_id, "finished", Some(outcome), row.at)),
            _ => None,
        }
    }

    /// The guest this write adds, if any.
    pub(super) fn player(&self) -> Option<&PlayerRow> {
        match self {
            Write::Player { row, .. } => Some(row),
            _ => None,
        }
    }

    /// The match this write starts, if any.
    pub(super) fn start(&self) -> Option<&MatchRow> {
        match self {
            Write::Start { row, .. } => Some(row),
            _ => None,
        }
    }

    /// The room lease this write is fenced by, if any.
    pub(super) fn fence(&self) -> Option<&Fence> {
        match self {
            Write::Start { fence, .. }
            | Write::Append { fence, .. }
            | Write::Status { fence, .. } => fence.as_ref(),
            Write::Player { .. } | Write::Reopen { .. } | Write::Flush { .. } => None,
        }
    }

    /// The action row this write appends, if any.
    pub(super) fn row(&self) -> Option<&ActionRow> {
        match self {
            Write::Append { row, .. } => Some(row),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database whose commits fail: the first with `first`, every later one unreachable.
    /// Counts its tries where the test can read them once the writer has finished.
    struct Failing {
        first: Option<CommitFailure>,
        tries: Arc<std::sync::atomic::AtomicUsize>,
    }

    impl Commit for Failing {
        async fn commit(&mut self, _: &[Write]) -> Result<(), CommitFailure> {
            self.tries
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Err(self
                .first
                .take()
                .unwrap_or(CommitFailure::Unreachable(sqlx::Error::PoolTimedOut)))
        }
    }

    fn append(match_id: &str) -> (Write, oneshot::Receiver<Result<(), StoreError>>) {
        let (done, answered) = oneshot::channel();
        let row = ActionRow {
            match_id: match_id.into(),
            index: 0,
            seat: 0,
            action: "{}".into(),
            source: "player",
            seq: Some(1),
            at: 0,
        };
        let write = Write::Append {
            row,
            finish: None,
            fence: None,
            done,
        };
        (write, answered)
    }

    /// Three matches' appends in one batch, on a database whose first commit fails with
    /// `first` and which is unreachable after that: how many commits the writer tried, and
    /// how many it counted as commits. Every append is refused.
    async fn tries_for_three_matches(first: Option<CommitFailure>) -> (usize, u64) {
        let (tx, rx) = queue();
        let mut answers = Vec::new();
        for id in ["m1", "m2", "m3"] {
            let (write, answered) = append(id);
            tx.send(write).await.unwrap();
            answers.push(answered);
        }
        drop(tx);
        let tries = Arc::default();
        let db = Failing {
            first,
            tries: Arc::clone(&tries),
        };
        let options = WriterOptions::default();
        let commit_times = Arc::clone(&options.commit_times);
        run(db, rx, options).await;
        for answered in answers {
            assert!(matches!(answered.await, Ok(Err(StoreError::Commit(_)))));
        }
        let tries = tries.load(std::sync::atomic::Ordering::Relaxed);
        (tries, commit_times.count())
    }

    #[tokio::test]
    async fn a_batch_the_database_cannot_be_reached_for_is_refused_whole_in_one_try() {
        assert_eq!(
            tries_for_three_matches(None).await,
            (1, 0),
            "one try, and no commit time"
        );
    }

    #[tokio::test]
    async fn after_a_broken_connection_one_unreachable_match_refuses_the_others_untried() {
        let broken =
            CommitFailure::Database(sqlx::Error::Io(std::io::ErrorKind::BrokenPipe.into()));
        // The batch, then the first match alone on a new connection, which cannot be had:
        // only the batch reached the database.
        assert_eq!(tries_for_three_matches(Some(broken)).await, (2, 1));
    }

    /// A writer's view of the load, on a clock the test moves.
    struct Writer {
        load: Load,
        now: Instant,
    }

    impl Writer {
        fn new() -> Self {
            let now = Instant::now();
            Writer {
                load: Load::new(now),
                now,
            }
        }

        /// Takes batches of `writes` every `every`, for three windows.
        fn steady(&mut self, writes: usize, every: Duration) {
            let end = self.now + RATE_WINDOW * 3;
            while self.now < end {
                self.now += every;
                self.load.loaded(self.now);
                self.load.count(writes);
            }
        }

        /// Whether the writer lingers over the batch it takes `after` the last one.
        fn lingers(&mut self, after: Duration) -> bool {
            self.now += after;
            self.load.loaded(self.now)
        }
    }

    #[test]
    fn writes_arriving_at_3000_a_second_or_more_make_the_writer_linger() {
        let mut writer = Writer::new();
        // 4 writes every millisecond: 4,000 a second.
        writer.steady(4, Duration::from_millis(1));
        assert!(writer.lingers(Duration::from_millis(1)));
        // 2 every millisecond: 2,000 a second.
        writer.steady(2, Duration::from_millis(1));
        assert!(!writer.lingers(Duration::from_millis(1)));
    }

    #[test]
    fn a_burst_is_not_taken_for_load() {
        let mut writer = Writer::new();
        // 1,000 writes a second, in bursts of four (a table committing at once).
        writer.steady(4, Duration::from_millis(4));
        assert!(!writer.lingers(Duration::from_micros(300)));
    }

    #[test]
    fn a_quiet_spell_ends_the_load() {
        let mut writer = Writer::new();
        writer.steady(10, Duration::from_millis(1));
        assert!(writer.lingers(Duration::ZERO));
        // The first write after a second of silence closes a window of one write.
        assert!(!writer.lingers(Duration::from_secs(1)));
    }
}
