//! The lobby across nodes (cluster mode): the public room list, any room's summary by its
//! code and the "N people online" line are the same whichever node answers.
//!
//! Each node **publishes** its side of the lobby to PostgreSQL: its rooms' summaries (public
//! and private, so that `GET /api/rooms/{code}` answers on any node) in `lobby_rooms`, and
//! the ids of the people connected to it in `lobby_people`. A task compares the lobby with
//! what it last wrote every [`PUBLISH_EVERY`] and writes only what changed, in one statement
//! that ends with `NOTIFY pandemonium_lobby` (see `diff` and `sql`): an idle node writes
//! nothing, and a busy one at most four times a second, however many rooms change.
//!
//! Each node **follows** the others: it LISTENs on that channel (on a connection of its own,
//! a `PgListener`) and reloads the other nodes' rows when one of them wrote, and at least
//! every [`RELOAD_EVERY`] whatever happens (a notification missed while the listener was
//! reconnecting, a node that died without a word). A change is seen by every node within
//! [`PUBLISH_EVERY`] plus a round trip or two, well under a second. Requests read the loaded
//! `view` and this node's lobby, live, never the database; a node that cannot reach the
//! database keeps serving the view it last loaded.
//!
//! Only live nodes count. A room's row is read only while the room's lease is its node's and
//! unexpired (so a room that moved is shown as its new owner has it, and a dead node's rooms
//! leave the list once their leases expire, until a node that takes them over writes them
//! again); a person's row only while its node's heartbeat is younger than its lease. A node
//! that leaves deletes its row in `nodes`, and its lobby rows go with it.
//!
//! Why reload the other nodes' rows whole rather than apply each node's changes: the rows
//! are small (a summary is a few hundred bytes, 1,000 rooms about 0.4 MB), the reload is one
//! statement, and a view rebuilt from the database cannot drift from it (no change applied
//! twice or missed). At three nodes each writing four times a second under constant change,
//! a node reloads at most nine times a second: about 3.6 MB/s with 1,000 rooms, nothing when
//! idle beyond the one reload a second. The publisher's own cost is a copy of this node's
//! summaries and people ids every 250 ms, compared in memory; nothing is sent unless they
//! changed.
//!
//! Rooms are judged live by their lease rather than by their node's heartbeat (the same
//! clock: the heartbeat renews the leases): the lease also says which of two rows is the
//! room's owner's while a room moves, and a room released as it closes leaves the lists at
//! once, before its row is deleted. The write is fenced the same way: a node writes a room's
//! row only while it holds the room's lease, so a node that lost a room without knowing it
//! yet cannot take the row back from the new owner.

mod diff;
mod sql;
mod view;

use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use pandemonium_protocol::{RoomCode, RoomSummary};
use sqlx::AnyPool;
use sqlx::postgres::PgListener;
use tokio::sync::{Notify, watch};
use tokio::task::JoinHandle;
use tokio::time::MissedTickBehavior;

pub use diff::Local;
use diff::Published;
use view::View;

use crate::online::Online;

/// How often a node compares its lobby with what it last published.
pub const PUBLISH_EVERY: Duration = Duration::from_millis(250);
/// How often a node reloads the others' rows without being told to.
pub const RELOAD_EVERY: Duration = Duration::from_secs(1);
/// A write or a reload that takes longer than this is abandoned and tried again.
const DEADLINE: Duration = Duration::from_secs(2);
/// How long the listener waits before connecting again after a failure.
const RECONNECT_AFTER: Duration = Duration::from_secs(1);

/// The lobby as all the nodes see it. Cheap to read; filled in once [`Directory::start`]ed.
#[derive(Debug)]
pub struct Directory {
    shared: Arc<Shared>,
    /// The running publisher and follower, and how they are told to stop.
    tasks: Mutex<Option<Tasks>>,
}

#[derive(Debug)]
struct Shared {
    node: String,
    lease: Duration,
    pool: AnyPool,
    view: RwLock<Arc<View>>,
}

#[derive(Debug)]
struct Tasks {
    stop: watch::Sender<bool>,
    handles: Vec<JoinHandle<()>>,
}

impl Directory {
    pub(super) fn new(node: &str, lease: Duration, pool: AnyPool) -> Directory {
        Directory {
            shared: Arc::new(Shared {
                node: node.to_owned(),
                lease,
                pool,
                view: RwLock::default(),
            }),
            tasks: Mutex::default(),
        }
    }

    fn view(&self) -> Arc<View> {
        self.shared.view.read().expect("lobby view lock").clone()
    }

    /// `here` (this node's public rooms, live) with every other live node's, unordered.
    pub fn public_rooms(&self, here: Vec<RoomSummary>) -> Vec<RoomSummary> {
        self.view().public_rooms(here)
    }

    /// Another node's room, public or private.
    pub fn room(&self, code: &RoomCode) -> Option<RoomSummary> {
        self.view().room(code)
    }

    /// The people connected here or to any other live node, each counted once.
    pub fn online(&self, here: &Online) -> u32 {
        self.view().online(here)
    }

    /// Starts publishing this node's side of the lobby (`local` reads it) and following the
    /// other nodes'. Once only; [`Directory::stop`] ends both.
    pub fn start(&self, local: impl Fn() -> Local + Send + Sync + 'static) {
        let mut tasks = self.tasks.lock().expect("lobby tasks lock");
        if tasks.is_some() {
            return;
        }
        let (stop, stopped) = watch::channel(false);
        let wake = Arc::new(Notify::new());
        let handles = vec![
            tokio::spawn(publish(self.shared.clone(), local, stopped.clone())),
            tokio::spawn(listen(self.shared.clone(), wake.clone(), stopped.clone())),
            tokio::spawn(reload(self.shared.clone(), wake, stopped)),
        ];
        *tasks = Some(Tasks { stop, handles });
    }

    /// Stops publishing and following (the node is leaving: its rows go with its row).
    pub async fn stop(&self) {
        let tasks = self.tasks.lock().expect("lobby tasks lock").take();
        if let Some(tasks) = tasks {
            let _ = tasks.stop.send(true);
            for handle in tasks.handles {
                let _ = handle.await;
            }
        }
    }
}

/// The publisher: every [`PUBLISH_EVERY`], writes what changed in this node's lobby since its
/// last write. A write that fails or times out may or may not have committed: what the
/// database holds is read again before the next one.
async fn publish(
    shared: Arc<Shared>,
    local: impl Fn() -> Local,
    mut stopped: watch::Receiver<bool>,
) {
    let mut ticks = tokio::time::interval(PUBLISH_EVERY);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut published: Option<Published> = None;
    let mut failing = false;
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            _ = stopped.wait_for(|stop| *stop) => return,
        }
        let work = async {
            let last = match published.take() {
                Some(last) => last,
                None => timed(sql::claim(&shared.pool, &shared.node, shared.lease)).await?,
            };
            let now = local();
            let changes = last.changes(&now);
            if changes.is_empty() {
                return Ok(last);
            }
            timed(sql::publish(&shared.pool, &shared.node, &changes)).await?;
            Ok::<_, sqlx::Error>(Published::written(now))
        };
        let result = tokio::select! {
            result = work => result,
            // The node is leaving: a write in flight no longer matters (its rows go with it).
            _ = stopped.wait_for(|stop| *stop) => return,
        };
        match result {
            Ok(now) => {
                if failing {
                    tracing::info!("this node's lobby is published again");
                }
                failing = false;
                published = Some(now);
            }
            Err(error) => {
                if !failing {
                    tracing::warn!(%error, "could not publish this node's lobby; trying again");
                }
                failing = true;
            }
        }
    }
}

/// The listener: wakes the reloader when another node has written, and when the listener
/// (re)connects (notifications sent while it was away are lost).
async fn listen(shared: Arc<Shared>, wake: Arc<Notify>, mut stopped: watch::Receiver<bool>) {
    let url = shared.pool.connect_options().database_url.to_string();
    loop {
        let connected = async {
            let mut listener = PgListener::connect(&url).await?;
            listener.listen(sql::CHANNEL).await?;
            Ok::<_, sqlx::Error>(listener)
        };
        let connected = tokio::select! {
            connected = connected => connected,
            _ = stopped.wait_for(|stop| *stop) => return,
        };
        let mut listener = match connected {
            Ok(listener) => listener,
            Err(error) => {
                tracing::debug!(%error, "the lobby's listener could not connect");
                tokio::select! {
                    _ = tokio::time::sleep(RECONNECT_AFTER) => continue,
                    _ = stopped.wait_for(|stop| *stop) => return,
                }
            }
        };
        wake.notify_one();
        loop {
            let received = tokio::select! {
                received = listener.try_recv() => received,
                _ = stopped.wait_for(|stop| *stop) => return,
            };
            match received {
                Ok(Some(notification)) if notification.payload() == shared.node => {}
                // Another node wrote, or the connection was lost and made again.
                Ok(_) => wake.notify_one(),
                Err(error) => {
                    tracing::debug!(%error, "the lobby's listener lost its connection");
                    break;
                }
            }
        }
    }
}

/// The reloader: loads the other nodes' rows when woken, and every [`RELOAD_EVERY`] anyway.
/// Wakes that come during a reload make one more reload, not one each.
async fn reload(shared: Arc<Shared>, wake: Arc<Notify>, mut stopped: watch::Receiver<bool>) {
    let mut ticks = tokio::time::interval(RELOAD_EVERY);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut failing = false;
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            _ = wake.notified() => {}
            _ = stopped.wait_for(|stop| *stop) => return,
        }
        let loaded = tokio::select! {
            loaded = timed(sql::others(&shared.pool, &shared.node, shared.lease)) => loaded,
            _ = stopped.wait_for(|stop| *stop) => return,
        };
        match loaded {
            Ok((rooms, people)) => {
                if failing {
                    tracing::info!("the other nodes' lobby is loaded again");
                }
                failing = false;
                *shared.view.write().expect("lobby view lock") = Arc::new(View::new(rooms, people));
                ticks.reset();
            }
            Err(error) => {
                if !failing {
                    tracing::warn!(
                        %error,
                        "could not load the other nodes' lobby; serving the last one loaded"
                    );
                }
                failing = true;
            }
        }
    }
}

/// `query`, abandoned after [`DEADLINE`].
async fn timed<T>(query: impl Future<Output = Result<T, sqlx::Error>>) -> Result<T, sqlx::Error> {
    tokio::time::timeout(DEADLINE, query)
        .await
        .unwrap_or_else(|_| {
            Err(sqlx::Error::Io(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the database did not answer in time",
            )))
        })
}

/// A DēmoS table's summary, for the directory's unit tests.
#[cfg(test)]
fn test_room(code: &str, public: bool, seated: u8) -> RoomSummary {
    RoomSummary {
        code: RoomCode(code.into()),
        game: "demos".into(),
        seats: 4,
        seated,
        status: pandemonium_protocol::RoomStatus::Waiting,
        spectators: 0,
        public,
        host: None,
        options: serde_json::json!({}),
        players: Vec::new(),
    }
}
