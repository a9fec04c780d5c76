//! The other nodes' side of the lobby, as last loaded: read by every lobby request, replaced
//! whole by each reload. This node's own rooms and people are never in it: they are read
//! live from the lobby, so a node always sees its own changes at once.

use std::collections::{HashMap, HashSet};

use pandemonium_protocol::{RoomCode, RoomSummary};

use crate::online::Online;

#[derive(Debug, Default)]
pub(super) struct View {
    /// Every room of the other live nodes, public or private.
    rooms: HashMap<RoomCode, RoomSummary>,
    /// The public ones among them.
    public: Vec<RoomSummary>,
    /// Everyone connected to another live node.
    people: HashSet<String>,
}

impl View {
    pub fn new(rooms: Vec<RoomSummary>, people: HashSet<String>) -> View {
        let public = rooms.iter().filter(|s| s.public).cloned().collect();
        View {
            rooms: rooms.into_iter().map(|s| (s.code.clone(), s)).collect(),
            public,
            people,
        }
    }

    /// `here` (this node's public rooms) and the other nodes' public rooms, unordered. A room
    /// in both (it just moved here, and the old owner's row is still loaded) is shown as this
    /// node has it.
    pub fn public_rooms(&self, mut here: Vec<RoomSummary>) -> Vec<RoomSummary> {
        let local: HashSet<RoomCode> = here.iter().map(|s| s.code.clone()).collect();
        here.extend(
            self.public
                .iter()
                .filter(|s| !local.contains(&s.code))
                .cloned(),
        );
        here
    }

    pub fn room(&self, code: &RoomCode) -> Option<RoomSummary> {
        self.rooms.get(code).cloned()
    }

    /// The people connected here or to another node, each counted once.
    pub fn online(&self, here: &Online) -> u32 {
        here.count_with(&self.people)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use super::super::test_room as room;

    #[test]
    fn a_room_listed_here_and_elsewhere_is_shown_once_as_here() {
        let view = View::new(
            vec![
                room("AAAA", true, 1),
                room("BBBB", false, 1),
                room("CCCC", true, 3),
            ],
            HashSet::new(),
        );
        let mut listed = view.public_rooms(vec![room("CCCC", true, 4)]);
        listed.sort_by(|a, b| a.code.cmp(&b.code));
        assert_eq!(listed, vec![room("AAAA", true, 1), room("CCCC", true, 4)]);
        assert_eq!(
            view.room(&RoomCode("BBBB".into())),
            Some(room("BBBB", false, 1)),
            "a private room is found by its code"
        );
    }

    #[test]
    fn a_person_connected_here_and_elsewhere_counts_once() {
        let view = View::new(
            Vec::new(),
            ["ada", "baal"].map(String::from).into_iter().collect(),
        );
        let here = Arc::new(Online::default());
        assert_eq!(view.online(&here), 2);
        let _ada = here.arrive("ada");
        let _lilith = here.arrive("lilith");
        assert_eq!(view.online(&here), 3);
    }
}
