//! Where a room writes its matches: the store, or (for the room's own tests) memory. The room
//! needs four writes of it — a match's start, its actions, reopening its log after a failed
//! append, and marking it abandoned — and, in cluster mode, its room's lease: taken when the
//! room opens, carried by every append, given back when the room closes.

use crate::cluster::Lease;
use crate::store::{Append, Committing, NewMatch, Store, StoreError};

#[cfg(test)]
pub use memory::Memory;

#[derive(Debug, Clone)]
pub enum MatchLog {
    Store(Store),
    /// Every write kept in memory and durable at once, unless told to refuse appends.
    #[cfg(test)]
    Memory(std::sync::Arc<Memory>),
}

impl From<Store> for MatchLog {
    fn from(store: Store) -> Self {
        MatchLog::Store(store)
    }
}

impl MatchLog {
    /// Records a match's start, under the room's lease in cluster mode.
    pub async fn start_match(
        &self,
        record: &NewMatch,
        lease: Option<&Lease>,
    ) -> Result<(), StoreError> {
        match (self, lease) {
            (MatchLog::Store(store), Some(lease)) => store.start_leased_match(record, lease).await,
            (MatchLog::Store(store), None) => store.start_match(record).await,
            #[cfg(test)]
            (MatchLog::Memory(memory), _) => {
                memory.lock().started.push(record.clone());
                Ok(())
            }
        }
    }

    /// Queues one action, under the room's lease in cluster mode; the handle resolves once it
    /// is durable, or with [`StoreError::LeaseLost`] if the lease has moved on.
    pub async fn queue_append(
        &self,
        append: Append<'_>,
        lease: Option<&Lease>,
    ) -> Result<Committing, StoreError> {
        match (self, lease) {
            (MatchLog::Store(store), Some(lease)) => store.queue_leased_append(append, lease).await,
            (MatchLog::Store(store), None) => store.queue_append(append).await,
            #[cfg(test)]
            (MatchLog::Memory(memory), _) => Ok(Committing::answered(memory.append(append))),
        }
    }

    /// Takes the lease of the room `code` for this node, in cluster mode (`None` outside it).
    /// Refused with [`StoreError::LeaseHeld`] while another node holds it.
    pub async fn take_lease(&self, code: &str) -> Result<Option<Lease>, StoreError> {
        match self {
            MatchLog::Store(store) => match store.node() {
                Some(node) => match node.take(code).await? {
                    Some(lease) => Ok(Some(lease)),
                    None => Err(StoreError::LeaseHeld),
                },
                None => Ok(None),
            },
            #[cfg(test)]
            MatchLog::Memory(memory) => Ok(memory.lock().lease.take()),
        }
    }

    /// Gives the room's lease back as it closes.
    pub async fn release_lease(&self, lease: &Lease) -> Result<(), StoreError> {
        match self {
            MatchLog::Store(store) => match store.node() {
                Some(node) => Ok(node.release(lease).await?),
                None => Ok(()),
            },
            #[cfg(test)]
            MatchLog::Memory(_) => Ok(()),
        }
    }

    pub async fn reopen_log(&self, match_id: &str) -> Result<(), StoreError> {
        match self {
            MatchLog::Store(store) => store.reopen_log(match_id).await,
            #[cfg(test)]
            MatchLog::Memory(_) => Ok(()),
        }
    }

    /// Marks a match abandoned, under the room's lease in cluster mode.
    pub async fn abandon(&self, match_id: &str, lease: Option<&Lease>) -> Result<(), StoreError> {
        match (self, lease) {
            (MatchLog::Store(store), Some(lease)) => store.abandon_leased(match_id, lease).await,
            (MatchLog::Store(store), None) => store.abandon(match_id).await,
            #[cfg(test)]
            (MatchLog::Memory(memory), _) => {
                memory.lock().abandoned.push(match_id.to_owned());
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod memory {
    use std::sync::Mutex;

    use pandemonium_protocol::{ActionSource, Seat};

    use crate::store::{Append, NewMatch, StoreError};

    /// What a room wrote to memory.
    #[derive(Debug, Default)]
    pub struct Memory(Mutex<Written>);

    #[derive(Debug, Default)]
    pub struct Written {
        pub started: Vec<NewMatch>,
        /// Every durable action: (match, index, seat, canonical action, who chose it).
        pub actions: Vec<(String, u64, Seat, String, ActionSource)>,
        pub abandoned: Vec<String>,
        /// While set, every append fails at its commit (a store that cannot write).
        pub refuse_appends: bool,
        /// While set, every append is refused as a cluster's store refuses the appends of a
        /// room whose lease another node has taken.
        pub lease_lost: bool,
        /// The lease the next room to open takes (a test's, which it may declare lost).
        pub lease: Option<crate::cluster::Lease>,
    }

    impl Memory {
        pub fn lock(&self) -> std::sync::MutexGuard<'_, Written> {
            self.0.lock().expect("memory lock")
        }

        pub(super) fn append(&self, append: Append<'_>) -> Result<(), StoreError> {
            let mut written = self.lock();
            if written.refuse_appends {
                return Err(StoreError::Commit("refused by the test".into()));
            }
            if written.lease_lost {
                return Err(StoreError::LeaseLost);
            }
            written.actions.push((
                append.match_id.to_owned(),
                append.index,
                append.seat,
                append.action.to_owned(),
                append.source,
            ));
            Ok(())
        }
    }
}
