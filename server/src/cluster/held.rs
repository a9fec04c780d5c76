//! The leases this node holds, in memory: what the heartbeat judges against its renewals, and
//! how a room hears that its lease is gone.
//!
//! A std mutex: it is taken when a room opens or closes and once per heartbeat, never on the
//! action path (an append carries its room's epoch from the room's own [`Lease`]).

use std::collections::HashMap;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use crate::metrics::ClusterCounters;

/// A room's lease, held by the room's task: its epoch goes with every append of the room's
/// actions.
#[derive(Debug)]
pub struct Lease {
    room: String,
    epoch: i64,
    lost: watch::Receiver<bool>,
}

impl Lease {
    pub fn room(&self) -> &str {
        &self.room
    }

    pub fn epoch(&self) -> i64 {
        self.epoch
    }

    /// Resolves once this node is found no longer to hold the lease (another node took the
    /// room); never while it does, nor once it was released or the node left.
    pub async fn lost(&mut self) {
        if self.lost.wait_for(|lost| *lost).await.is_err() {
            std::future::pending::<()>().await;
        }
    }

    /// A lease held by nobody but the test, which may declare it lost.
    #[cfg(test)]
    pub fn for_tests(room: &str, epoch: i64) -> (Lease, watch::Sender<bool>) {
        let (lose, lost) = watch::channel(false);
        let lease = Lease {
            room: room.to_owned(),
            epoch,
            lost,
        };
        (lease, lose)
    }
}

#[derive(Debug)]
pub(super) struct Held {
    /// Room code → (epoch, how its room is told it is lost).
    leases: Mutex<HashMap<String, (i64, watch::Sender<bool>)>>,
    counters: Arc<ClusterCounters>,
}

impl Held {
    pub fn new(counters: Arc<ClusterCounters>) -> Self {
        Held {
            leases: Mutex::default(),
            counters,
        }
    }

    fn leases(&self) -> std::sync::MutexGuard<'_, HashMap<String, (i64, watch::Sender<bool>)>> {
        self.leases.lock().expect("held leases lock")
    }

    fn count(&self, leases: &HashMap<String, (i64, watch::Sender<bool>)>) {
        self.counters
            .rooms_owned
            .store(leases.len() as i64, Relaxed);
    }

    /// Records a lease just taken.
    pub fn insert(&self, room: &str, epoch: i64) -> Lease {
        let (lose, lost) = watch::channel(false);
        let mut leases = self.leases();
        leases.insert(room.to_owned(), (epoch, lose));
        self.count(&leases);
        Lease {
            room: room.to_owned(),
            epoch,
            lost,
        }
    }

    /// Forgets a lease given back.
    pub fn remove(&self, room: &str, epoch: i64) {
        let mut leases = self.leases();
        if leases.get(room).is_some_and(|(held, _)| *held == epoch) {
            leases.remove(room);
        }
        self.count(&leases);
    }

    /// Forgets a lease found gone and tells its room; false if it was not held (any more).
    pub fn lose(&self, room: &str, epoch: i64) -> bool {
        let mut leases = self.leases();
        let held = leases.get(room).is_some_and(|(held, _)| *held == epoch);
        let lost = if held { leases.remove(room) } else { None };
        // Counted before the room hears of it: whoever the room tells sees it counted.
        self.count(&leases);
        if let Some((_, lose)) = lost {
            let _ = lose.send(true);
        }
        held
    }

    /// Every lease held now, as (room, epoch).
    pub fn snapshot(&self) -> Vec<(String, i64)> {
        self.leases()
            .iter()
            .map(|(room, (epoch, _))| (room.clone(), *epoch))
            .collect()
    }

    /// Forgets every lease (the node is leaving; its rooms are closing).
    pub fn clear(&self) {
        let mut leases = self.leases();
        leases.clear();
        self.count(&leases);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_lease_found_gone_tells_its_room_and_a_stale_epoch_tells_nobody() {
        let counters = Arc::new(ClusterCounters::default());
        let held = Held::new(counters.clone());
        let mut lease = held.insert("ROOM", 3);
        assert_eq!(counters.rooms_owned.load(Relaxed), 1);
        assert!(
            !held.lose("ROOM", 2),
            "another epoch of the room is not this lease"
        );
        assert!(held.lose("ROOM", 3));
        lease.lost().await;
        assert_eq!(counters.rooms_owned.load(Relaxed), 0);
        assert!(held.snapshot().is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn a_released_lease_is_never_reported_lost() {
        let held = Held::new(Arc::default());
        let mut lease = held.insert("ROOM", 1);
        held.remove("ROOM", 1);
        assert!(!held.lose("ROOM", 1));
        let waited = tokio::time::timeout(std::time::Duration::from_secs(60), lease.lost()).await;
        assert!(waited.is_err(), "still waiting: nothing was lost");
    }
}
