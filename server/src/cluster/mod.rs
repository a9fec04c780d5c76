//! Cluster mode: several servers (nodes) share one PostgreSQL, and each room belongs to one
//! node at a time by a lease row in it (room → node, epoch, expiry).
//!
//! A node takes a room's lease when it opens the room ([`Node::take`]): a new code is
//! inserted, an existing one is taken only once it has expired or been released (or was this
//! node's already), and every take raises the room's epoch. The node's `heartbeat` renews
//! every lease it holds once a second and learns from the same statement which ones it no
//! longer holds; the room then stops ([`Lease::lost`]). Every append of a room's actions
//! carries its (room, epoch), and the store's writer refuses it in the very transaction that
//! would write it once the lease is no longer (this node, that epoch), so a node that was
//! paused or cut off past its lease can never write again (see `store::postgres_writer`).
//! Expiry is judged by PostgreSQL's clock (`now()`), never by two machines' clocks.
//!
//! `held` keeps the leases this node holds in memory; `leases` is their SQL. [`directory`] is
//! the lobby as every node sees it.

pub mod directory;
mod heartbeat;
mod held;
mod leases;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sqlx::AnyPool;
use tokio::sync::watch;

use crate::metrics::ClusterCounters;

use directory::Directory;
use held::Held;
pub use held::Lease;

/// How long a lease lasts unless renewed, by default: a node that stops (killed, paused, cut
/// off) leaves its rooms to the others this long after its last heartbeat.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(3);
/// How often a node renews its leases, by default: three renewals per lease, so one slow or
/// lost heartbeat does not cost a node its rooms.
pub const DEFAULT_RENEW_EVERY: Duration = Duration::from_secs(1);

/// Who this node is and how it keeps its leases.
#[derive(Debug, Clone)]
pub struct ClusterOptions {
    /// Unique among the nodes, and the same across this node's restarts: a node that starts
    /// again under its name takes its rooms back at once instead of waiting for them to
    /// expire.
    pub node: String,
    /// Where the other nodes reach this one.
    pub internal_address: String,
    pub lease: Duration,
    pub renew_every: Duration,
    /// Rooms owned, leases taken over, fenced appends.
    pub counters: Arc<ClusterCounters>,
}

/// This node in the cluster. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Node {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    options: ClusterOptions,
    pool: AnyPool,
    held: Held,
    /// Flips to true to stop the heartbeat.
    stop: watch::Sender<bool>,
    /// The heartbeat's task, awaited when it is stopped.
    heartbeat: std::sync::Mutex<Option<tokio::task::JoinHandle<()>>>,
    /// The node has left: every lease was released at once, and the rooms still closing
    /// have nothing left to give back (the pool may be closed by then).
    left: AtomicBool,
    /// The lobby across the nodes.
    directory: Directory,
}

impl Node {
    /// Writes this node's row, frees the leases a previous run under this name left (that
    /// run is over: names are unique), and starts the heartbeat.
    pub(crate) async fn join(pool: AnyPool, options: ClusterOptions) -> Result<Node, sqlx::Error> {
        leases::join(&pool, &options.node, &options.internal_address).await?;
        let freed = leases::release_all(&pool, &options.node).await?;
        if freed > 0 {
            tracing::info!(
                node = %options.node,
                freed,
                "freed the room leases of this node's previous run"
            );
        }
        let (stop, stopped) = watch::channel(false);
        let node = Node {
            inner: Arc::new(Inner {
                held: Held::new(options.counters.clone()),
                directory: Directory::new(&options.node, options.lease, pool.clone()),
                options,
                pool,
                stop,
                left: AtomicBool::new(false),
                heartbeat: std::sync::Mutex::default(),
            }),
        };
        let task = heartbeat::spawn(node.clone(), stopped);
        *node.inner.heartbeat.lock().expect("heartbeat lock") = Some(task);
        Ok(node)
    }

    pub fn name(&self) -> &str {
        &self.inner.options.node
    }

    /// The lobby across the nodes.
    pub fn directory(&self) -> &Directory {
        &self.inner.directory
    }

    pub fn counters(&self) -> &Arc<ClusterCounters> {
        &self.inner.options.counters
    }

    /// Takes `room`'s lease for this node: `None` while another node holds it.
    pub async fn take(&self, room: &str) -> Result<Option<Lease>, sqlx::Error> {
        let inner = &self.inner;
        let Some(taken) =
            leases::take(&inner.pool, room, &inner.options.node, inner.options.lease).await?
        else {
            return Ok(None);
        };
        if taken.from_another_node {
            inner
                .options
                .counters
                .leases_taken_over
                .fetch_add(1, Ordering::Relaxed);
            tracing::info!(room, epoch = taken.epoch, "took over the lease of a room");
        }
        Ok(Some(inner.held.insert(room, taken.epoch)))
    }

    /// Takes `room`'s lease for a new room under a code a client proposed: only a code no
    /// node ever held. `None`: the code is or was in use.
    pub async fn take_unused(&self, room: &str) -> Result<Option<Lease>, sqlx::Error> {
        let inner = &self.inner;
        let taken =
            leases::take_unused(&inner.pool, room, &inner.options.node, inner.options.lease)
                .await?;
        Ok(taken.map(|epoch| inner.held.insert(room, epoch)))
    }

    /// Where `room` is served now: here, at another node (by its internal address), or
    /// nowhere (its lease is free: released, expired, or never taken).
    pub async fn locate(&self, room: &str) -> Result<Whereabouts, sqlx::Error> {
        Ok(match leases::holder(&self.inner.pool, room).await? {
            None => Whereabouts::Free,
            Some((node, _)) if node == self.inner.options.node => Whereabouts::Here,
            Some((node, address)) => Whereabouts::Elsewhere { node, address },
        })
    }

    /// How long a lease lasts unless renewed.
    pub fn lease_duration(&self) -> Duration {
        self.inner.options.lease
    }

    /// Gives `lease` back (its room closed): any node may take the room from now on.
    pub async fn release(&self, lease: &Lease) -> Result<(), sqlx::Error> {
        let inner = &self.inner;
        inner.held.remove(lease.room(), lease.epoch());
        if inner.left.load(Ordering::Acquire) {
            return Ok(());
        }
        leases::release(
            &inner.pool,
            lease.room(),
            &inner.options.node,
            lease.epoch(),
        )
        .await
    }

    /// Stops renewing the leases: to the other nodes this node looks paused or cut off, and
    /// its rooms are theirs to take once the leases expire. Resolves once no renewal is in
    /// flight any more (one under way when asked is finished first). Part of
    /// [`Node::leave`]; tests use it alone.
    pub async fn stop_heartbeat(&self) {
        let _ = self.inner.stop.send(true);
        let task = self.inner.heartbeat.lock().expect("heartbeat lock").take();
        if let Some(task) = task {
            let _ = task.await;
        }
    }

    /// Leaves the cluster (the server is stopping): stops the heartbeat, releases every lease
    /// and removes this node's row.
    pub async fn leave(&self) -> Result<(), sqlx::Error> {
        self.inner.directory.stop().await;
        self.stop_heartbeat().await;
        let inner = &self.inner;
        inner.left.store(true, Ordering::Release);
        inner.held.clear();
        leases::release_all(&inner.pool, &inner.options.node).await?;
        leases::remove_node(&inner.pool, &inner.options.node).await
    }

    /// One heartbeat: refreshes this node's row and renews its leases; the rooms of those it
    /// no longer holds are told so. Returns how many were lost.
    pub(crate) async fn beat(&self) -> Result<usize, sqlx::Error> {
        let inner = &self.inner;
        // Judged: only the leases held before the statement runs (a lease taken meanwhile
        // may be missing from its answer without being lost).
        let judged = inner.held.snapshot();
        let renewed = leases::renew(&inner.pool, &inner.options.node, inner.options.lease).await?;
        let mut lost = 0;
        for (room, epoch) in judged {
            if !renewed.contains(&(room.clone(), epoch)) && inner.held.lose(&room, epoch) {
                tracing::warn!(room, epoch, "this node no longer holds the room's lease");
                lost += 1;
            }
        }
        Ok(lost)
    }
}

/// Where a room is served, by its lease.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Whereabouts {
    /// This node holds the lease.
    Here,
    /// Another node holds it; `address` is where the other nodes reach it (`None` if that
    /// node's row is gone: it left, and the lease will be free soon).
    Elsewhere {
        node: String,
        address: Option<String>,
    },
    /// Nobody holds it: the room is any node's to take.
    Free,
}

/// Why a server cannot run in cluster mode.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error(
        "cluster mode needs PostgreSQL: SQLite is the single-node store (one server, one \
         file). Give --database-url postgres://…, or run without --cluster"
    )]
    NeedsPostgres,
}
