//! Rooms. A room is one tokio task that owns its game, its RNG, its version and its
//! subscribers; it is the only writer of its state, so no lock guards game state. Everything
//! else talks to it through [`RoomHandle`]'s bounded mailbox.

mod actions;
mod actor;
mod chat_log;
mod deltas;
mod membership;
mod messages;
mod rematch;
pub mod replay;
mod seats;
mod telling;
mod timers;
mod wire;

use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

pub use actor::{Resumed, RoomServices, RoomSetup, seed_hash, spawn};
pub use deltas::Patches;
use pandemonium_protocol::{ClientMsg, JoinRole, RoomStatus, RoomSummary};
pub use seats::SeatState;
pub use telling::JOIN_FRAMES;

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
