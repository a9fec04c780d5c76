//! Persistence: guests, matches and their action logs, in SQLite (the default, a file) or
//! PostgreSQL (production), through one set of queries.
//!
//! Both databases speak the same SQL here (TEXT, BIGINT, `$n` parameters), so one `AnyPool`
//! and one migration folder serve both. Every write goes through [`writer`]: one task that
//! commits everything queued in a single transaction (group commit), so rooms never pay a
//! round trip each on the hot path and never wait on another writer's lock.

mod guests;
mod records;
mod running_rows;
mod sqlite_writer;
mod writer;

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Row};
use std::collections::HashMap;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

pub use records::{MatchStatus, NewMatch, RoomSettings, StoredMatch, StoredSeat};
use writer::{ActionRow, MatchRow, PlayerRow, Write};
pub use writer::{MAX_LINGER, WriterOptions};

use pandemonium_protocol::{ActionSource, LoggedAction, MatchSummary, Outcome, Seat};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration failed: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    #[error("could not prepare the database file: {0}")]
    File(#[from] std::io::Error),
    #[error("{0}")]
    Unsupported(String),
    #[error("could not open the writer's connection: {0}")]
    Writer(#[from] rusqlite::Error),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    #[error("the write could not be committed: {0}")]
    Commit(String),
    #[error("the store is shutting down")]
    Closed,
}

/// Which database a URL names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn of(url: &str) -> Option<Backend> {
        if url.starts_with("sqlite:") {
            Some(Backend::Sqlite)
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Some(Backend::Postgres)
        } else {
            None
        }
    }
}

/// How SQLite makes a commit durable (`PRAGMA synchronous`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Synchronous {
    /// Every commit is synced to disk before it is acknowledged: an acked action survives a
    /// power loss as well as a killed process.
    #[default]
    Full,
    /// Commits are synced at checkpoints only: an acked action survives a killed process, but
    /// a power loss or OS crash may lose the commits since the last checkpoint.
    Normal,
}

impl Synchronous {
    fn pragma(self) -> &'static str {
        match self {
            Synchronous::Full => "PRAGMA synchronous = FULL",
            Synchronous::Normal => "PRAGMA synchronous = NORMAL",
        }
    }
}

/// SQLite's durability and WAL upkeep (ignored for PostgreSQL).
#[derive(Debug, Clone, Copy)]
pub struct SqliteOptions {
    pub synchronous: Synchronous,
    /// How often the WAL is checkpointed and truncated, away from the commit path.
    pub checkpoint_every: Duration,
}

impl Default for SqliteOptions {
    fn default() -> Self {
        SqliteOptions {
            synchronous: Synchronous::default(),
            checkpoint_every: Duration::from_secs(60),
        }
    }
}

/// Everything [`Store::connect_with`] can be told.
#[derive(Debug, Clone, Default)]
pub struct StoreOptions {
    pub writer: WriterOptions,
    pub sqlite: SqliteOptions,
}

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

/// A handle to the database. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    writes: mpsc::Sender<Write>,
    backend: Backend,
}

impl Store {
    /// Connects (creating a SQLite file and its folder if needed), runs the migrations and
    /// starts the group-commit writer.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        Store::connect_with(url, StoreOptions::default()).await
    }

    /// [`Store::connect`] with the writer's and SQLite's options.
    pub async fn connect_with(url: &str, options: StoreOptions) -> Result<Store, StoreError> {
        let StoreOptions { writer, sqlite } = options;
        install_default_drivers();
        let backend = Backend::of(url).ok_or_else(|| {
            StoreError::Unsupported(format!(
                "unsupported database URL `{url}`: use sqlite://PATH or postgres://…"
            ))
        })?;
        let (url, sqlite_path) = match backend {
            Backend::Sqlite => {
                let (url, path) = prepare_sqlite(url)?;
                (url, Some(path))
            }
            Backend::Postgres => (url.to_string(), None),
        };
        let pool = AnyPoolOptions::new()
            .max_connections(match backend {
                // One writer plus a few readers; SQLite serialises writers anyway.
                Backend::Sqlite => 4,
                Backend::Postgres => 8,
            })
            .acquire_timeout(Duration::from_secs(10))
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // First, while a new file is still empty: the page size is fixed when
                        // the first page is written (switching to WAL writes it). On an
                        // existing database this does nothing.
                        sqlx::query(&sqlite_writer::page_size())
                            .execute(&mut *conn)
                            .await?;
                        // WAL survives a killed process with every committed transaction, and
                        // lets readers run beside the writer.
                        sqlx::query("PRAGMA journal_mode = WAL")
                            .execute(&mut *conn)
                            .await?;
                        sqlx::query(sqlite.synchronous.pragma())
                            .execute(&mut *conn)
                            .await?;
                        // After a checkpoint has moved the WAL into the database, the next
                        // writer cuts the file back to this size instead of keeping its
                        // high-water mark.
                        sqlx::query(&sqlite_writer::journal_size_limit())
                            .execute(&mut *conn)
                            .await?;
                        sqlx::query("PRAGMA foreign_keys = ON")
                            .execute(&mut *conn)
                            .await?;
                        sqlx::query("PRAGMA busy_timeout = 5000")
                            .execute(&mut *conn)
                            .await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await?;
        MIGRATOR.run(&pool).await?;
        let writes = match &sqlite_path {
            Some(path) => {
                sqlite_writer::checkpoints(pool.clone(), sqlite.checkpoint_every);
                sqlite_writer::spawn(path, sqlite.synchronous, writer)?
            }
            None => writer::spawn_on_pool(pool.clone(), writer),
        };
        Ok(Store {
            pool,
            writes,
            backend,
        })
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Whether the database answers (for `/readyz`).
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Waits until everything queued so far is committed, then closes the pool.
    pub async fn close(&self) {
        let (done, committed) = oneshot::channel();
        if self.writes.send(Write::Flush { done }).await.is_ok() {
            let _ = committed.await;
        }
        self.pool.close().await;
    }

    pub async fn insert_player(
        &self,
        id: &str,
        name: &str,
        token_hash: &str,
    ) -> Result<(), StoreError> {
        let row = PlayerRow {
            id: id.to_string(),
            name: name.to_string(),
            token_hash: token_hash.to_string(),
            created_at: now_ms(),
        };
        self.through_writer(|done| Write::Player { row, done })
            .await
    }

    /// The guest whose token hashes to `token_hash`: `(id, name)`.
    pub async fn player_by_token_hash(
        &self,
        token_hash: &str,
    ) -> Result<Option<(String, String)>, StoreError> {
        let row = sqlx::query("SELECT id, name FROM players WHERE token_hash = $1")
            .bind(token_hash)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| (r.get::<String, _>(0), r.get::<String, _>(1))))
    }

    /// Records the start of a match. Awaited before the match is announced, so every later
    /// append has its row to refer to.
    pub async fn start_match(&self, m: &NewMatch) -> Result<(), StoreError> {
        let row = MatchRow {
            id: m.id.clone(),
            room_code: m.room_code.clone(),
            game: m.game.clone(),
            config: m.config.to_string(),
            seats: to_json(&m.seats),
            room: to_json(&m.room),
            seed: m.seed.clone(),
            seed_hash: m.seed_hash.clone(),
            started_at: m.started_at,
            rematch_of: m.rematch_of.clone(),
        };
        self.through_writer(|done| Write::Start { row, done }).await
    }

    /// Appends one accepted action; resolves once it is committed (group commit).
    pub async fn append(&self, action: Append<'_>) -> Result<(), StoreError> {
        self.queue_append(action).await?.wait().await
    }

    /// Queues one accepted action for the group-commit writer and returns at once with a
    /// handle that resolves when the append is durable. A room keeps playing meanwhile and
    /// tells people of the action only once it is. Appends of one match commit in the order
    /// they were queued.
    pub async fn queue_append(&self, action: Append<'_>) -> Result<Committing, StoreError> {
        let (done, committed) = oneshot::channel();
        let write = Write::Append {
            row: ActionRow {
                match_id: action.match_id.to_string(),
                index: action.index as i64,
                seat: action.seat as i64,
                action: action.action.to_string(),
                source: records::source_name(action.source),
                seq: action.seq.map(|s| s as i64),
                at: now_ms(),
            },
            finish: action.finish.map(to_json),
            done,
        };
        self.writes
            .send(write)
            .await
            .map_err(|_| StoreError::Closed)?;
        Ok(Committing(committed))
    }

    /// After an append of `match_id` failed, the store refuses that match's appends already
    /// queued behind it (so the log never has a gap) until its room, rolled back to the last
    /// durable action, calls this. Appends queued after this call are taken again.
    pub async fn reopen_log(&self, match_id: &str) -> Result<(), StoreError> {
        self.writes
            .send(Write::Reopen {
                match_id: match_id.to_string(),
            })
            .await
            .map_err(|_| StoreError::Closed)
    }

    /// Queues a write for the group-commit writer and waits for its commit.
    async fn through_writer(
        &self,
        write: impl FnOnce(oneshot::Sender<Result<(), StoreError>>) -> Write,
    ) -> Result<(), StoreError> {
        let (done, committed) = oneshot::channel();
        self.writes
            .send(write(done))
            .await
            .map_err(|_| StoreError::Closed)?;
        committed.await.map_err(|_| StoreError::Closed)?
    }

    /// Marks a match finished with its outcome, after every action queued before it.
    pub async fn finish(&self, match_id: &str, outcome: &Outcome) -> Result<(), StoreError> {
        self.set_status(match_id, MatchStatus::Finished, Some(outcome))
            .await
    }

    /// Marks a match nobody will finish (its room closed empty).
    pub async fn abandon(&self, match_id: &str) -> Result<(), StoreError> {
        self.set_status(match_id, MatchStatus::Abandoned, None)
            .await
    }

    async fn set_status(
        &self,
        match_id: &str,
        status: MatchStatus,
        outcome: Option<&Outcome>,
    ) -> Result<(), StoreError> {
        self.through_writer(|done| Write::Status {
            match_id: match_id.to_string(),
            status: status.as_str(),
            outcome: outcome.map(to_json),
            at: now_ms(),
            done,
        })
        .await
    }

    /// Matches that were running when the server stopped, with their logs, to be rebuilt.
    pub async fn running_matches(&self) -> Result<Vec<StoredMatch>, StoreError> {
        let rows = sqlx::query(&format!("{MATCH_COLUMNS} WHERE status = 'running'"))
            .fetch_all(&self.pool)
            .await?;
        let mut matches = rows
            .iter()
            .map(records::match_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        // Every running match's log in one read: on SQLite one scan of the unindexed
        // `actions_by_arrival`, from the lowest rowid a running match may have appended.
        const RUNNING: &str = "SELECT id FROM matches WHERE status = 'running'";
        let in_actions =
            format!("SELECT {LOG_COLUMNS}, match_id FROM actions WHERE match_id IN ({RUNNING})");
        let sql = match self.backend {
            Backend::Sqlite => format!(
                "{in_actions} UNION SELECT {LOG_COLUMNS}, match_id FROM actions_by_arrival \
                 WHERE rowid >= (SELECT MIN(log_from) FROM matches WHERE status = 'running') \
                 AND match_id IN ({RUNNING}) ORDER BY match_id, idx"
            ),
            Backend::Postgres => format!("{in_actions} ORDER BY match_id, idx"),
        };
        let logged = sqlx::query(&sql).fetch_all(&self.pool).await?;
        let mut logs: HashMap<String, Vec<LoggedAction>> = HashMap::new();
        for row in &logged {
            let log = logs.entry(row.try_get(LOG_COLUMN_COUNT)?).or_default();
            log.push(records::action_from_row(row, log.len() as i64)?);
        }
        for m in &mut matches {
            m.log = logs.remove(&m.id).unwrap_or_default();
        }
        Ok(matches)
    }

    /// One match with its log.
    pub async fn get_match(&self, id: &str) -> Result<Option<StoredMatch>, StoreError> {
        self.read_match(id, true).await
    }

    /// One match as the API serves it: with its log once it has ended, without while it runs
    /// (nobody is shown a running match's log, and on SQLite reading it scans the unindexed
    /// `actions_by_arrival` from the match's start, which a request that anyone can repeat
    /// should not do).
    pub async fn match_record(&self, id: &str) -> Result<Option<StoredMatch>, StoreError> {
        self.read_match(id, false).await
    }

    async fn read_match(
        &self,
        id: &str,
        running_log: bool,
    ) -> Result<Option<StoredMatch>, StoreError> {
        let row = sqlx::query(&format!("{MATCH_COLUMNS} WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let mut m = records::match_from_row(&row)?;
        if running_log || m.status != MatchStatus::Running {
            m.log = self.log(&m).await?;
        }
        Ok(Some(m))
    }

    /// Finished matches, newest first, optionally of one game; and how many there are.
    pub async fn finished_matches(
        &self,
        game: Option<&str>,
        page: u32,
        per_page: u32,
    ) -> Result<(Vec<MatchSummary>, i64), StoreError> {
        let filter = "status = 'finished' AND ($1 = '' OR game = $1)";
        let game = game.unwrap_or("");
        let total: i64 = sqlx::query(&format!("SELECT COUNT(*) FROM matches WHERE {filter}"))
            .bind(game)
            .fetch_one(&self.pool)
            .await?
            .get(0);
        let rows = sqlx::query(&format!(
            "{MATCH_COLUMNS} WHERE {filter} ORDER BY finished_at DESC, id LIMIT $2 OFFSET $3"
        ))
        .bind(game)
        .bind(per_page as i64)
        .bind(page as i64 * per_page as i64)
        .fetch_all(&self.pool)
        .await?;
        let summaries = rows
            .iter()
            .map(|row| records::match_from_row(row).map(|m| m.summary()))
            .collect::<Result<_, _>>()?;
        Ok((summaries, total))
    }

    /// A match's log: its rows in `actions` (PostgreSQL's log; on SQLite, actions from
    /// before the database was upgraded to `actions_by_arrival`) and, on SQLite, its rows in
    /// `actions_by_arrival`: by the rowids its end recorded once it has ended, while it runs
    /// by a scan from the rowid it started at. The two are joined with `UNION`, which keeps
    /// one of two identical rows.
    async fn log(&self, m: &StoredMatch) -> Result<Vec<LoggedAction>, StoreError> {
        let in_actions = format!("SELECT {LOG_COLUMNS} FROM actions WHERE match_id = $1");
        // With the rows of `actions_by_arrival` that `condition` picks.
        let by_arrival = |condition: &str| {
            format!(
                "{in_actions} UNION SELECT {LOG_COLUMNS} FROM actions_by_arrival \
                 WHERE {condition} ORDER BY idx"
            )
        };
        let sql;
        let query = match (&m.log_rows, m.log_from) {
            (Some(rowids), _) if m.status != MatchStatus::Running => {
                sql = by_arrival("rowid IN (SELECT value FROM json_each($2))");
                sqlx::query(&sql).bind(&m.id).bind(rowids.as_str())
            }
            (_, Some(from)) => {
                sql = by_arrival("rowid >= $2 AND match_id = $3");
                sqlx::query(&sql).bind(&m.id).bind(from).bind(&m.id)
            }
            _ => {
                sql = format!("{in_actions} ORDER BY idx");
                sqlx::query(&sql).bind(&m.id)
            }
        };
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter()
            .enumerate()
            .map(|(expected, row)| records::action_from_row(row, expected as i64))
            .collect()
    }
}

/// The columns [`records::action_from_row`] reads, in its order.
const LOG_COLUMNS: &str = "idx, seat, action, source, seq";
const LOG_COLUMN_COUNT: usize = 5;

/// One accepted action for the log.
#[derive(Debug, Clone, Copy)]
pub struct Append<'a> {
    pub match_id: &'a str,
    pub index: u64,
    pub seat: Seat,
    /// The canonical action, as JSON text.
    pub action: &'a str,
    pub source: ActionSource,
    /// The client's sequence number, for an action a player sent.
    pub seq: Option<u64>,
    /// The match ends with this action: the result is written in the same transaction.
    pub finish: Option<&'a Outcome>,
}

/// An append on its way to the database.
#[derive(Debug)]
pub struct Committing(oneshot::Receiver<Result<(), StoreError>>);

impl Committing {
    /// Resolves once the append is durable, or with why it is not.
    pub async fn wait(self) -> Result<(), StoreError> {
        self.await
    }
}

impl std::future::Future for Committing {
    type Output = Result<(), StoreError>;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        std::pin::Pin::new(&mut self.0)
            .poll(cx)
            .map(|answer| answer.map_err(|_| StoreError::Closed)?)
    }
}

/// Every column of a match, and the rematch that followed it (an abandoned one does not count).
const MATCH_COLUMNS: &str = "SELECT id, room_code, game, config, seats, room, seed, seed_hash, \
                             status, outcome, started_at, finished_at, rematch_of, \
                             (SELECT MIN(next.id) FROM matches next \
                              WHERE next.rematch_of = matches.id AND next.status <> 'abandoned'), \
                             log_rows, log_from \
                             FROM matches";

/// `sqlite://data/pandemonium.db` → the same with `mode=rwc`, after creating `data/`; and the
/// file's path. An in-memory database is refused: the writer has a connection of its own,
/// which would see a database of its own.
fn prepare_sqlite(url: &str) -> Result<(String, std::path::PathBuf), StoreError> {
    let rest = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:");
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    if path.is_empty() || path == ":memory:" || query.contains("mode=memory") {
        return Err(StoreError::Unsupported(format!(
            "`{url}` is not a file: an in-memory database would lose every match; \
             use sqlite://PATH"
        )));
    }
    if let Some(dir) = std::path::Path::new(path).parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir)?;
    }
    let query = if query.contains("mode=") {
        query.to_string()
    } else if query.is_empty() {
        "mode=rwc".to_string()
    } else {
        format!("{query}&mode=rwc")
    };
    Ok((format!("sqlite://{path}?{query}"), path.into()))
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("records serialise")
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
