//! What a node last published and what changed since: the publisher writes only the rooms
//! whose summary changed, the rooms that closed, and the people who arrived or left.

use std::collections::{HashMap, HashSet};

use pandemonium_protocol::{RoomCode, RoomSummary};
use serde::Serialize;

/// This node's side of the lobby: its rooms and the people connected to it.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Local {
    pub rooms: HashMap<RoomCode, RoomSummary>,
    pub people: HashSet<String>,
}

impl Local {
    pub fn new(rooms: Vec<RoomSummary>, people: Vec<String>) -> Local {
        Local {
            rooms: rooms.into_iter().map(|s| (s.code.clone(), s)).collect(),
            people: people.into_iter().collect(),
        }
    }
}

/// What the database holds of this node, as far as it knows.
#[derive(Debug, Default)]
pub(super) struct Published {
    /// A room's summary as written; `None` for a row found in the database at start, whose
    /// content is not compared (it is written again if the room is still open here).
    rooms: HashMap<RoomCode, Option<RoomSummary>>,
    people: HashSet<String>,
}

impl Published {
    /// The rows found in the database (a previous run's, or those of a write whose outcome
    /// is unknown).
    pub fn found(rooms: Vec<RoomCode>, people: Vec<String>) -> Published {
        Published {
            rooms: rooms.into_iter().map(|code| (code, None)).collect(),
            people: people.into_iter().collect(),
        }
    }

    /// Everything in `local`, as it is once [`Published::changes`] has been written.
    pub fn written(local: Local) -> Published {
        Published {
            rooms: local
                .rooms
                .into_iter()
                .map(|(code, summary)| (code, Some(summary)))
                .collect(),
            people: local.people,
        }
    }

    /// What to write to bring the database from this to `local`. Every list is in order, so
    /// that the same change is always the same statement.
    pub fn changes(&self, local: &Local) -> Changes {
        let mut put: Vec<RoomSummary> = local
            .rooms
            .iter()
            .filter(|(code, summary)| match self.rooms.get(*code) {
                Some(Some(written)) => written != *summary,
                Some(None) | None => true,
            })
            .map(|(_, summary)| summary.clone())
            .collect();
        put.sort_by(|a, b| a.code.cmp(&b.code));
        let mut closed: Vec<RoomCode> = self
            .rooms
            .keys()
            .filter(|code| !local.rooms.contains_key(*code))
            .cloned()
            .collect();
        closed.sort();
        let mut arrived: Vec<String> = local.people.difference(&self.people).cloned().collect();
        arrived.sort();
        let mut left: Vec<String> = self.people.difference(&local.people).cloned().collect();
        left.sort();
        Changes {
            put,
            closed,
            arrived,
            left,
        }
    }
}

/// One write of the publisher, sent to PostgreSQL as one JSON parameter.
#[derive(Debug, Default, PartialEq, Serialize)]
pub(super) struct Changes {
    /// Rooms opened or changed: their summaries.
    pub put: Vec<RoomSummary>,
    /// Rooms closed.
    pub closed: Vec<RoomCode>,
    /// People with a first connection here.
    pub arrived: Vec<String>,
    /// People whose last connection here closed.
    pub left: Vec<String>,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        self.put.is_empty()
            && self.closed.is_empty()
            && self.arrived.is_empty()
            && self.left.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room(code: &str, seated: u8) -> RoomSummary {
        super::super::test_room(code, true, seated)
    }

    fn people(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|id| id.to_string()).collect()
    }

    #[test]
    fn only_what_changed_since_the_last_write_is_written_again() {
        let first = Local::new(vec![room("AAAA", 1), room("BBBB", 2)], people(&["ada"]));
        let published = Published::default();
        let changes = published.changes(&first);
        assert_eq!(changes.put, vec![room("AAAA", 1), room("BBBB", 2)]);
        assert_eq!(changes.arrived, people(&["ada"]));
        let published = Published::written(first.clone());
        assert!(published.changes(&first).is_empty(), "nothing changed");

        // A seat is taken in one room, the other closes, a room opens, one person leaves and
        // another arrives.
        let second = Local::new(vec![room("AAAA", 2), room("CCCC", 0)], people(&["baal"]));
        assert_eq!(
            published.changes(&second),
            Changes {
                put: vec![room("AAAA", 2), room("CCCC", 0)],
                closed: vec![RoomCode("BBBB".into())],
                arrived: people(&["baal"]),
                left: people(&["ada"]),
            }
        );
    }

    #[test]
    fn rows_found_at_start_are_written_again_if_still_open_and_deleted_if_not() {
        let found = Published::found(
            vec![RoomCode("AAAA".into()), RoomCode("GONE".into())],
            people(&["ada", "old"]),
        );
        let local = Local::new(vec![room("AAAA", 1)], people(&["ada"]));
        assert_eq!(
            found.changes(&local),
            Changes {
                put: vec![room("AAAA", 1)],
                closed: vec![RoomCode("GONE".into())],
                arrived: Vec::new(),
                left: people(&["old"]),
            }
        );
    }
}
