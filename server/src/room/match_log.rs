//! Where a room writes its matches: the store, or (for the room's own tests) memory. The room
//! needs four writes of it — a match's start, its actions, reopening its log after a failed
//! append, and marking it abandoned — and nothing else.

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
    pub async fn start_match(&self, record: &NewMatch) -> Result<(), StoreError> {
        match self {
            MatchLog::Store(store) => store.start_match(record).await,
            #[cfg(test)]
            MatchLog::Memory(memory) => {
                memory.lock().started.push(record.clone());
                Ok(())
            }
        }
    }

    /// Queues one action; the handle resolves once it is durable.
    pub async fn queue_append(&self, append: Append<'_>) -> Result<Committing, StoreError> {
        match self {
            MatchLog::Store(store) => store.queue_append(append).await,
            #[cfg(test)]
            MatchLog::Memory(memory) => Ok(Committing::answered(memory.append(append))),
        }
    }

    pub async fn reopen_log(&self, match_id: &str) -> Result<(), StoreError> {
        match self {
            MatchLog::Store(store) => store.reopen_log(match_id).await,
            #[cfg(test)]
            MatchLog::Memory(_) => Ok(()),
        }
    }

    pub async fn abandon(&self, match_id: &str) -> Result<(), StoreError> {
        match self {
            MatchLog::Store(store) => store.abandon(match_id).await,
            #[cfg(test)]
            MatchLog::Memory(memory) => {
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
