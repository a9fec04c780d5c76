//! Persistence: guests, matches and their action logs, in SQLite (the default, a file) or
//! PostgreSQL (production), through one set of queries.
//!
//! Both databases speak the same SQL here (TEXT, BIGINT, `$n` parameters), so one `AnyPool`
//! and one migration folder serve both. Every write goes through [`writer`]: one task that
//! commits everything queued in a single transaction (group commit), so rooms never pay a
//! round trip each on the hot path and never wait on another writer's lock.

mod guests;
#[cfg(test)]
mod query_plans;
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
    #[error("the database did not answer in time")]
    TimedOut,
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

/// The two databases' migrations: the same schema, in each one's dialect where they differ
/// (`0009_one_log.sql` moves existing logs with each database's JSON functions, and gives
/// PostgreSQL's `running_actions` the primary key SQLite's goes without).
static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/postgres");

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
                    } else {
                        // Reads end at their deadline on the server too, not only in the
                        // request that gave up on them ([`READ_DEADLINE`]); the writer's own
                        // connection and the migrations lift it ([`unbounded`]).
                        sqlx::query(&postgres_statement_timeout(READ_DEADLINE))
                            .execute(&mut *conn)
                            .await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await?;
        migrate(&pool, backend).await?;
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
    /// Only running matches' rows are read: an ended match's log is in its own row.
    pub async fn running_matches(&self) -> Result<Vec<StoredMatch>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {MATCH_FIELDS} FROM matches WHERE status = 'running'"
        ))
        .fetch_all(&self.pool)
        .await?;
        let mut matches = rows
            .iter()
            .map(records::match_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        let logged = sqlx::query(&format!(
            "SELECT {LOG_COLUMNS}, match_id FROM running_actions \
             WHERE match_id IN (SELECT id FROM matches WHERE status = 'running') \
             ORDER BY match_id, idx"
        ))
        .fetch_all(&self.pool)
        .await?;
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
    /// (nobody is shown a running match's log). Bounded by [`READ_DEADLINE`].
    pub async fn match_record(&self, id: &str) -> Result<Option<StoredMatch>, StoreError> {
        within_deadline(self.read_match(id, false)).await
    }

    async fn read_match(
        &self,
        id: &str,
        running_log: bool,
    ) -> Result<Option<StoredMatch>, StoreError> {
        let row = sqlx::query(&record_sql())
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let mut m = records::match_from_row(&row)?;
        match row.try_get::<Option<String>, _>(MATCH_FIELD_COUNT)? {
            Some(log) => m.log = records::ended_log(&log)?,
            None if running_log && m.status == MatchStatus::Running => {
                m.log = self.running_log(id).await?;
            }
            None => {}
        }
        Ok(Some(m))
    }

    /// A running match's log, from `running_actions`.
    async fn running_log(&self, id: &str) -> Result<Vec<LoggedAction>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {LOG_COLUMNS} FROM running_actions WHERE match_id = $1 ORDER BY idx"
        ))
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .enumerate()
            .map(|(expected, row)| records::action_from_row(row, expected as i64))
            .collect()
    }

    /// Finished matches, newest first, optionally of one game; and how many there are. Each
    /// page is read off an index (`matches_by_finish`, `matches_by_game_finish`), whatever
    /// the history's size, and bounded by [`READ_DEADLINE`].
    pub async fn finished_matches(
        &self,
        game: Option<&str>,
        page: u32,
        per_page: u32,
    ) -> Result<(Vec<MatchSummary>, i64), StoreError> {
        within_deadline(async {
            let (count, ids) = history_sql(game.is_some());
            let (mut count, mut ids) = (sqlx::query(count), sqlx::query(&ids));
            if let Some(game) = game {
                count = count.bind(game);
                ids = ids.bind(game);
            }
            let total: i64 = count.fetch_one(&self.pool).await?.get(0);
            let ids: Vec<String> = ids
                .bind(i64::from(per_page))
                .bind(i64::from(page) * i64::from(per_page))
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|row| row.try_get(0))
                .collect::<Result<_, _>>()?;
            if ids.is_empty() {
                return Ok((Vec::new(), total));
            }
            let rows_sql = page_rows_sql(ids.len());
            let mut rows = sqlx::query(&rows_sql);
            for id in &ids {
                rows = rows.bind(id);
            }
            let mut matches: HashMap<String, StoredMatch> = rows
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|row| records::match_from_row(row).map(|m| (m.id.clone(), m)))
                .collect::<Result<_, _>>()?;
            let summaries = ids
                .iter()
                .filter_map(|id| matches.remove(id))
                .map(|m| m.summary())
                .collect();
            Ok((summaries, total))
        })
        .await
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

/// Every column of a match but its log, and the rematch that followed it (an abandoned one
/// does not count), found through `matches_by_rematch_of`.
const MATCH_FIELDS: &str = "id, room_code, game, config, seats, room, seed, seed_hash, \
                            status, outcome, started_at, finished_at, rematch_of, \
                            (SELECT MIN(next.id) FROM matches next \
                             WHERE next.rematch_of = matches.id AND next.status <> 'abandoned')";
/// How many columns [`MATCH_FIELDS`] names: a column selected after them is at this index.
const MATCH_FIELD_COUNT: usize = 14;

/// The history's statements: how many finished matches there are, of one game (`$1`) or of
/// every game, kept in `history_counts`; and the ids of a page of them, newest first, read off
/// the index `matches_by_finish` (or `matches_by_game_finish`) alone, whose rows are then read
/// by id ([`page_rows_sql`]). The page's size and offset come last. Two statements rather than
/// one with `($1 = '' OR game = $1)`: a condition that may or may not name the game keeps the
/// database from choosing its index.
fn history_sql(by_game: bool) -> (&'static str, String) {
    let (count, filter, page_from) = match by_game {
        true => (
            "SELECT CAST(COALESCE(SUM(finished), 0) AS BIGINT) FROM history_counts \
             WHERE game = $1",
            "status = 'finished' AND game = $1",
            2,
        ),
        false => (
            "SELECT CAST(COALESCE(SUM(finished), 0) AS BIGINT) FROM history_counts",
            "status = 'finished'",
            1,
        ),
    };
    let ids = format!(
        "SELECT id FROM matches WHERE {filter} \
         ORDER BY finished_at DESC, id DESC LIMIT ${page_from} OFFSET ${}",
        page_from + 1
    );
    (count, ids)
}

/// The rows of `count` matches named by id (`$1` …): a page of the history once its ids are
/// known.
fn page_rows_sql(count: usize) -> String {
    let places: Vec<String> = (1..=count).map(|n| format!("${n}")).collect();
    format!(
        "SELECT {MATCH_FIELDS} FROM matches WHERE id IN ({})",
        places.join(", ")
    )
}

/// One match and its log (an ended match's; a running match's is in `running_actions`).
fn record_sql() -> String {
    format!("SELECT {MATCH_FIELDS}, log FROM matches WHERE id = $1")
}

/// How long a read that a request is waiting for may take. Past it the request is answered
/// that the server is busy, and the read is dropped: it stops at its next row (and on
/// PostgreSQL the server cancels it at the same deadline, its `statement_timeout`). Every
/// history read uses an index, so only a database in trouble comes near it; a server that is
/// stopping never waits longer than this for a read in flight.
pub const READ_DEADLINE: Duration = Duration::from_secs(5);

/// `fut`, or [`StoreError::TimedOut`] once [`READ_DEADLINE`] has passed.
async fn within_deadline<T>(
    fut: impl std::future::Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    tokio::time::timeout(READ_DEADLINE, fut)
        .await
        .map_err(|_| StoreError::TimedOut)?
}

/// PostgreSQL's `SET statement_timeout` for `deadline` (0: none).
fn postgres_statement_timeout(deadline: Duration) -> String {
    format!("SET statement_timeout = {}", deadline.as_millis())
}

/// Lifts the read deadline on a PostgreSQL connection that writes: the writer's and the
/// migrations' statements must finish, however long a large database makes them.
pub(super) async fn unbounded(conn: &mut sqlx::AnyConnection) -> Result<(), sqlx::Error> {
    sqlx::query(&postgres_statement_timeout(Duration::ZERO))
        .execute(conn)
        .await
        .map(drop)
}

/// Runs the backend's migrations, on PostgreSQL without the read deadline (moving the logs of
/// a large history takes a while once).
async fn migrate(pool: &AnyPool, backend: Backend) -> Result<(), StoreError> {
    let mut conn = pool.acquire().await?;
    match backend {
        Backend::Sqlite => SQLITE_MIGRATIONS.run(&mut *conn).await?,
        Backend::Postgres => {
            unbounded(&mut conn).await?;
            POSTGRES_MIGRATIONS.run(&mut *conn).await?;
            // Closed, not given back: the pool's next connection has the read deadline.
            conn.close().await?;
        }
    }
    Ok(())
}

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
