//! Rooms. A room is one tokio task that owns its game, its RNG, its version and its
//! subscribers; it is the only writer of its state, so no lock guards game state. Everything
//! else talks to it through [`RoomHandle`]'s bounded mailbox.
//!
//! The room ([`actor`]) coordinates parts that each own their state and know nothing of the
//! room: [`seating`], [`audience`], [`listing`], [`clocks`], [`pipeline`], [`answers`],
//! [`history`] and [`chat`]; [`fanout`] makes each connection's frame of a position, and
//! [`wire`] and [`deltas`] serialise frames and patches. Imports among these modules run one
//! way (a test below keeps it so).

mod actor;
mod answers;
mod audience;
mod chat;
mod clocks;
mod deltas;
mod fanout;
mod history;
mod listing;
pub mod match_log;
mod phase;
mod pipeline;
mod refusal;
pub mod replay;
mod seating;
mod seats;
mod wire;

#[cfg(test)]
mod harness;

use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

pub use actor::{Resumed, RoomServices, RoomSetup, seed_hash, spawn};
pub use deltas::Patches;
pub use history::JOIN_FRAMES;
use pandemonium_protocol::{ClientMsg, JoinRole, RoomStatus, RoomSummary};
pub use seats::SeatState;

use crate::identity::Player;

/// Identifies one WebSocket connection within the server.
pub type ConnId = u64;

/// A serialised text frame. Cloning shares the bytes (a reference count), so one frame built
/// for a viewer goes to every subscriber who sees the same thing without being copied.
pub type Frame = axum::extract::ws::Utf8Bytes;

/// What a room sends a connection.
#[derive(Debug, Clone)]
pub enum Outgoing {
    Frame(Frame),
    /// Close the socket with this code and reason.
    Close(u16, &'static str),
    /// The room did not take this connection in (the refusal went out just before): the
    /// connection stays open, in no room.
    Refused,
}

/// A connection's bounded outbox. When it is full the room drops the subscriber rather than
/// wait: one slow client must never slow a room. The client reconnects and resyncs.
pub type Outbox = mpsc::Sender<Outgoing>;

#[derive(Debug)]
pub enum RoomCmd {
    Join {
        conn: ConnId,
        player: Player,
        role: JoinRole,
        /// The last state version the connection saw, if it is resuming.
        version: Option<u64>,
        /// Whether the connection applies `patch` frames, and which operations.
        patches: Patches,
        outbox: Outbox,
    },
    /// The connection left the room or closed.
    Leave { conn: ConnId },
    /// A room message from a connection that has joined (`TakeSeat`, `Chat`, …).
    Client { conn: ConnId, msg: ClientMsg },
    /// An action from a connection that has joined, as the JSON text it was sent in (the game
    /// reads it into its own type).
    Act {
        conn: ConnId,
        seq: u64,
        action: String,
    },
    /// The server is stopping: close every socket with a reason and end the task.
    Shutdown,
}

/// How the rest of the server reaches a room.
#[derive(Debug, Clone)]
pub struct RoomHandle {
    pub tx: mpsc::Sender<RoomCmd>,
    /// Kept current by the room for the lobby; a per-room lock, never held across an await
    /// and never shared between rooms.
    pub listing: Arc<Mutex<Listing>>,
}

/// What the lobby reads of a room: its summary, who hosts it (a player id, where the
/// summary shows a name), which the cap on the tables one guest hosts counts, and who sits
/// at it (ids, seat by seat), whose way back in is not a code lookup.
#[derive(Debug)]
pub struct Listing {
    pub summary: RoomSummary,
    pub host: Option<String>,
    pub seated: Vec<Option<String>>,
}

impl RoomHandle {
    pub fn summary(&self) -> RoomSummary {
        self.listing.lock().expect("listing lock").summary.clone()
    }

    /// The room's status alone, without copying its summary: the caps count open rooms on
    /// every room created.
    pub fn status(&self) -> RoomStatus {
        self.listing.lock().expect("listing lock").summary.status
    }

    /// Whether `player_id` hosts this room: opened it with their token, or claimed it by
    /// joining it first.
    pub fn hosted_by(&self, player_id: &str) -> bool {
        self.listing.lock().expect("listing lock").host.as_deref() == Some(player_id)
    }

    /// Whether `player_id` holds a seat here (played by them, or by a bot until they are back).
    pub fn has_seat_for(&self, player_id: &str) -> bool {
        self.listing
            .lock()
            .expect("listing lock")
            .seated
            .iter()
            .any(|id| id.as_deref() == Some(player_id))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// The room's modules and the siblings each one names (`super::x`, `crate::room::x`); a
    /// folder's files count as their module.
    fn imports() -> BTreeMap<String, BTreeSet<String>> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/room");
        let mut sources: BTreeMap<String, String> = BTreeMap::new();
        for entry in std::fs::read_dir(&dir).expect("the room's folder") {
            let path = entry.expect("an entry").path();
            let name = path
                .file_stem()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            if name == "mod" {
                continue;
            }
            let files = if path.is_dir() {
                std::fs::read_dir(&path)
                    .expect("a module's folder")
                    .map(|e| e.expect("an entry").path())
                    .collect()
            } else {
                vec![path]
            };
            let text = sources.entry(name).or_default();
            for file in files {
                text.push_str(&std::fs::read_to_string(file).expect("a source file"));
            }
        }
        let names: Vec<String> = sources.keys().cloned().collect();
        sources
            .iter()
            .map(|(module, text)| {
                let named = names
                    .iter()
                    .filter(|other| *other != module)
                    .filter(|other| {
                        [
                            format!("super::{other}"),
                            format!("crate::room::{other}"),
                            format!("super::{{{other}"),
                        ]
                        .iter()
                        .any(|path| {
                            text.match_indices(path.as_str()).any(|(i, _)| {
                                let after = text[i + path.len()..].chars().next();
                                !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
                            })
                        })
                    })
                    .cloned()
                    .collect();
                (module.clone(), named)
            })
            .collect()
    }

    #[test]
    fn the_rooms_modules_import_each_other_one_way_only() {
        let imports = imports();
        assert!(
            imports.len() > 10,
            "the room's modules are read: {imports:?}"
        );
        // Depth-first: a module met again while still on the path closes a circle.
        fn visit<'a>(
            module: &'a str,
            imports: &'a BTreeMap<String, BTreeSet<String>>,
            path: &mut Vec<&'a str>,
            done: &mut BTreeSet<&'a str>,
        ) {
            if let Some(start) = path.iter().position(|m| *m == module) {
                panic!(
                    "the room's modules import in a circle: {:?}",
                    &path[start..]
                );
            }
            if !done.insert(module) {
                return;
            }
            path.push(module);
            for next in imports.get(module).into_iter().flatten() {
                visit(next, imports, path, done);
            }
            path.pop();
        }
        let mut done = BTreeSet::new();
        for module in imports.keys() {
            visit(module, &imports, &mut Vec::new(), &mut done);
        }
        for (module, named) in &imports {
            assert!(
                module == "actor" || !named.contains("actor"),
                "{module} is a part of the room and must not know the room"
            );
        }
    }
}
