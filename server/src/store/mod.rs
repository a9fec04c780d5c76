//! Persistence: guests, matches and their action logs, in SQLite (the default, a file) or
//! PostgreSQL (production), through one set of queries.
//!
//! Both databases hold one log model: a running match's actions are rows of
//! `running_actions`, in arrival order; the transaction that ends a match writes its whole
//! log into its own row (`matches.log`). Every write goes through [`writer`]: one task that
//! commits everything queued in a single transaction (group commit), so rooms never pay a
//! round trip each on the hot path and never wait on another writer's lock; it runs on
//! [`sqlite_writer`] or [`postgres_writer`]. What requests read is in [`reads`], each read
//! off an index and bounded by [`READ_DEADLINE`]. The SQL is the same for both wherever
//! their dialects agree (TEXT, BIGINT, `$n` parameters), so one `AnyPool` serves both; the
//! migrations are kept in a folder per database.
//!
//! In cluster mode (PostgreSQL only) the store is one node's: it holds the node's
//! [`crate::cluster::Node`], and the appends a room queues under its lease
//! ([`Store::queue_leased_append`]) are refused with [`StoreError::LeaseLost`] once the lease
//! has moved on.

mod commit_watch;
mod guests;
mod postgres_writer;
#[cfg(test)]
mod query_plans;
mod reads;
mod records;
mod running_rows;
mod sqlite_writer;
mod writer;

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Row};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

pub use reads::READ_DEADLINE;
pub use records::{MatchStatus, NewMatch, RoomSettings, StoredMatch, StoredSeat};
use writer::{ActionRow, MatchRow, PlayerRow, Write};
pub use writer::{MAX_LINGER, WriterOptions};

use pandemonium_protocol::{ActionSource, Outcome, Seat};

use crate::cluster::{ClusterError, ClusterOptions, Lease, Node};

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
    /// Cluster mode: the room's lease is no longer this node's (another node took the room
    /// over); nothing of the write was stored.
    #[error("the room's lease has moved to another node; nothing was written")]
    LeaseLost,
    /// Cluster mode: another node holds the room's lease.
    #[error("another node holds the room's lease")]
    LeaseHeld,
    #[error(transparent)]
    Cluster(#[from] ClusterError),
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
    /// Cluster mode: this node's name and lease timings (PostgreSQL only).
    pub cluster: Option<ClusterOptions>,
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
    /// This node, in cluster mode.
    node: Option<Node>,
}

impl Store {
    /// Connects (creating a SQLite file and its folder if needed), runs the migrations and
    /// starts the group-commit writer.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        Store::connect_with(url, StoreOptions::default()).await
    }

    /// [`Store::connect`] with the writer's and SQLite's options.
    pub async fn connect_with(url: &str, options: StoreOptions) -> Result<Store, StoreError> {
        let StoreOptions {
            writer,
            sqlite,
            cluster,
        } = options;
        install_default_drivers();
        let backend = Backend::of(url).ok_or_else(|| {
            StoreError::Unsupported(format!(
                "unsupported database URL `{url}`: use sqlite://PATH or postgres://…"
            ))
        })?;
        if cluster.is_some() && backend == Backend::Sqlite {
            return Err(ClusterError::NeedsPostgres.into());
        }
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
            None => {
                let fencing = cluster.as_ref().map(|c| postgres_writer::Fencing {
                    node: c.node.clone(),
                    counters: c.counters.clone(),
                });
                postgres_writer::spawn(pool.clone(), writer, fencing)
            }
        };
        let node = match cluster {
            Some(options) => Some(Node::join(pool.clone(), options).await?),
            None => None,
        };
        Ok(Store {
            pool,
            writes,
            backend,
            node,
        })
    }

    /// This node, in cluster mode.
    pub fn node(&self) -> Option<&Node> {
        self.node.as_ref()
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Whether the database answers (for `/readyz`).
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Waits until everything queued so far is committed, then (in cluster mode) leaves the
    /// cluster, giving back every room lease, and closes the pool.
    pub async fn close(&self) {
        let (done, committed) = oneshot::channel();
        if self.writes.send(Write::Flush { done }).await.is_ok() {
            let _ = committed.await;
        }
        if let Some(node) = &self.node
            && let Err(error) = node.leave().await
        {
            tracing::warn!(%error, "could not release this node's room leases on the way out");
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
        self.start(m, None).await
    }

    /// [`Store::start_match`] under the room's lease (cluster mode): refused unwritten, with
    /// [`StoreError::LeaseLost`], once the lease has moved on.
    pub async fn start_leased_match(&self, m: &NewMatch, lease: &Lease) -> Result<(), StoreError> {
        self.start(m, Some(fence_of(lease))).await
    }

    async fn start(&self, m: &NewMatch, fence: Option<writer::Fence>) -> Result<(), StoreError> {
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
        self.through_writer(|done| Write::Start { row, fence, done })
            .await
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
        self.queue(action, None).await
    }

    /// [`Store::queue_append`] under a room's lease (cluster mode): the append is refused
    /// unwritten, with [`StoreError::LeaseLost`], if the lease is no longer this node's at
    /// its epoch when the writer's transaction checks it.
    pub async fn queue_leased_append(
        &self,
        action: Append<'_>,
        lease: &Lease,
    ) -> Result<Committing, StoreError> {
        self.queue(action, Some(fence_of(lease))).await
    }

    async fn queue(
        &self,
        action: Append<'_>,
        fence: Option<writer::Fence>,
    ) -> Result<Committing, StoreError> {
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
            fence,
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
        self.set_status(match_id, MatchStatus::Finished, Some(outcome), None)
            .await
    }

    /// Marks a match nobody will finish (its room closed empty).
    pub async fn abandon(&self, match_id: &str) -> Result<(), StoreError> {
        self.set_status(match_id, MatchStatus::Abandoned, None, None)
            .await
    }

    /// [`Store::abandon`] under the room's lease (cluster mode): refused unwritten, with
    /// [`StoreError::LeaseLost`], once the lease has moved on (the match is another node's).
    pub async fn abandon_leased(&self, match_id: &str, lease: &Lease) -> Result<(), StoreError> {
        self.set_status(
            match_id,
            MatchStatus::Abandoned,
            None,
            Some(fence_of(lease)),
        )
        .await
    }

    async fn set_status(
        &self,
        match_id: &str,
        status: MatchStatus,
        outcome: Option<&Outcome>,
        fence: Option<writer::Fence>,
    ) -> Result<(), StoreError> {
        self.through_writer(|done| Write::Status {
            match_id: match_id.to_string(),
            status: status.as_str(),
            outcome: outcome.map(to_json),
            at: now_ms(),
            fence,
            done,
        })
        .await
    }
}

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
    /// An append answered already: durable, or refused with `result`'s error.
    pub fn answered(result: Result<(), StoreError>) -> Committing {
        let (done, committed) = oneshot::channel();
        let _ = done.send(result);
        Committing(committed)
    }

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

/// What the writer checks a leased write against.
fn fence_of(lease: &Lease) -> writer::Fence {
    writer::Fence {
        room: lease.room().to_owned(),
        epoch: lease.epoch(),
    }
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
