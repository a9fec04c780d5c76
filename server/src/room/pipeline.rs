//! Pipelined commits: the room applies the next action while earlier appends are in flight;
//! what an action changes for people (the ack, the new states) waits here until its append is
//! durable, and goes out in order. A failed append rolls the match back to its last durable
//! action: the acts it held are refused, their states never sent.

use std::collections::VecDeque;
use std::time::Instant as StdInstant;

use super::{ConnId, Frame};
use crate::store::{Committing, StoreError};

/// Something to tell one connection once the match's version `after` is durable.
pub(super) struct Held {
    pub after: u64,
    pub conn: ConnId,
    pub frame: Frame,
    /// The ack of this act, turned into a refusal if its version is rolled back.
    pub ack_of: Option<u64>,
}

/// Appends in flight and what waits on them.
#[derive(Default)]
pub(super) struct Pipeline {
    /// The version each append makes durable, in order, and when its action arrived.
    in_flight: VecDeque<(u64, Committing, StdInstant)>,
    /// Versions known durable in the store.
    durable: u64,
    held: VecDeque<Held>,
}

impl Pipeline {
    /// The next append's result (appends of one match commit in order); never resolves while
    /// nothing is in flight.
    pub async fn next_commit(&mut self) -> Result<(), StoreError> {
        match self.in_flight.front_mut() {
            Some((_, committing, _)) => committing.await,
            None => std::future::pending().await,
        }
    }

    /// A new match (or one resumed): everything in its log is durable.
    pub fn restart_at(&mut self, durable: u64) {
        self.in_flight.clear();
        self.held.clear();
        self.durable = durable;
    }

    /// Whether `conn` may be told something that needs `after` durable right now (nothing
    /// queued ahead of it, and durable already).
    pub fn clear_for(&self, after: u64) -> bool {
        self.held.is_empty() && after <= self.durable
    }

    pub fn hold(&mut self, after: u64, conn: ConnId, frame: Frame, ack_of: Option<u64>) {
        self.held.push_back(Held {
            after,
            conn,
            frame,
            ack_of,
        });
    }

    /// An append of the version `version` is in flight; its action arrived at `started`.
    pub fn queued(&mut self, version: u64, committing: Committing, started: StdInstant) {
        self.in_flight.push_back((version, committing, started));
    }

    pub fn idle(&self) -> bool {
        self.in_flight.is_empty()
    }

    /// The oldest append in flight has an answer: which version it was, and when its action
    /// arrived.
    pub fn answered(&mut self) -> Option<(u64, StdInstant)> {
        self.in_flight
            .pop_front()
            .map(|(version, _, started)| (version, started))
    }

    pub fn durable(&self) -> u64 {
        self.durable
    }

    /// `version` is durable: what waited on it (and on the versions before it) is due, in
    /// order.
    pub fn made_durable(&mut self, version: u64) -> Vec<Held> {
        self.durable = version;
        let mut due = Vec::new();
        while self.held.front().is_some_and(|h| h.after <= self.durable) {
            due.extend(self.held.pop_front());
        }
        due
    }

    /// An append failed: every append in flight is dropped, and everything held is handed
    /// back (what waits on a durable version still goes out; the rest never will).
    pub fn roll_back(&mut self) -> VecDeque<Held> {
        self.in_flight.clear();
        std::mem::take(&mut self.held)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(text: &str) -> Frame {
        text.to_string().into()
    }

    #[test]
    fn what_waits_on_a_version_goes_out_in_order_once_it_is_durable() {
        let mut pipeline = Pipeline::default();
        pipeline.restart_at(3);
        assert!(pipeline.clear_for(3));
        assert!(!pipeline.clear_for(4));
        pipeline.hold(4, 1, frame("ack 4"), Some(9));
        pipeline.hold(0, 2, frame("chat"), None);
        assert!(!pipeline.clear_for(0), "behind what is held");
        pipeline.hold(5, 1, frame("state 5"), None);
        let due: Vec<_> = pipeline
            .made_durable(4)
            .into_iter()
            .map(|h| h.frame)
            .collect();
        assert_eq!(due, vec![frame("ack 4"), frame("chat")]);
        let rest = pipeline.roll_back();
        assert_eq!(rest.len(), 1);
        assert_eq!(rest[0].after, 5);
        assert!(pipeline.clear_for(4));
    }
}
