//! Bodies of the HTTP API (`/api/...`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::game::Outcome;
use crate::ids::{RoomCode, Seat};
use crate::room::RoomStatus;

/// `POST /api/rooms`. A field the server does not know is refused, not ignored: a misspelt
/// option (`turn_second`) would otherwise make a room other than the one asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct CreateRoom {
    pub game: String,
    /// The game's options; missing keys take their defaults.
    #[serde(default = "empty_object")]
    #[ts(type = "Record<string, unknown>")]
    pub options: serde_json::Value,
    /// How many seats the table has (within the game's range).
    pub seats: u8,
    /// Seats filled by bots from the start.
    #[serde(default)]
    pub bots: Vec<Seat>,
    /// Public rooms are listed in the lobby; private ones are reached by link or code only.
    #[serde(default)]
    pub public: bool,
    /// Seconds a player may take for one decision; none by default.
    #[serde(default)]
    pub turn_seconds: Option<u32>,
    /// Seconds a disconnected player keeps their seat before a bot plays it (default 60,
    /// at most 3600).
    #[serde(default)]
    pub grace_seconds: Option<u32>,
}

fn empty_object() -> serde_json::Value {
    serde_json::Value::Object(Default::default())
}

/// One room as the lobby lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RoomSummary {
    pub code: RoomCode,
    pub game: String,
    pub seats: u8,
    /// Seats taken by people or bots.
    pub seated: u8,
    pub status: RoomStatus,
    pub spectators: u32,
    pub public: bool,
    /// The host's display name, once the room has a host.
    pub host: Option<String>,
    /// The game's options with every default filled in (the mode, for a game that has one).
    #[ts(type = "Record<string, unknown>")]
    pub options: serde_json::Value,
    /// Who sits where: a person's name, `null` for an empty seat. Bot seats are named `Bot N`.
    pub players: Vec<Option<String>>,
}

/// `GET /api/rooms`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RoomList {
    pub rooms: Vec<RoomSummary>,
    /// How many people are connected to the server now (each counted once, however many tabs).
    pub online: u32,
}

/// One finished match in `GET /api/matches`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct MatchSummary {
    pub id: String,
    pub game: String,
    /// Display names by seat; bots are named as such.
    pub players: Vec<String>,
    pub outcome: Option<Outcome>,
    /// Milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub finished_at: i64,
    /// The match the same table played just before, when this one was a rematch.
    pub rematch_of: Option<String>,
    /// The finished rematch the same table played after this one, if any.
    pub rematch: Option<String>,
}

/// `GET /api/matches?game=&page=`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct MatchPage {
    pub matches: Vec<MatchSummary>,
    pub page: u32,
    pub per_page: u32,
    #[ts(type = "number")]
    pub total: i64,
}

/// `GET /api/matches/{id}`: everything needed to replay the match exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct MatchRecord {
    pub id: String,
    pub game: String,
    #[ts(type = "Record<string, unknown>")]
    pub config: serde_json::Value,
    pub players: Vec<String>,
    /// The RNG seed, hex. Secret while the match runs; published once it is over.
    pub seed: Option<String>,
    /// SHA-256 of the seed, published from the start so players can audit the shuffle.
    pub seed_hash: String,
    pub log: Vec<LoggedAction>,
    pub outcome: Option<Outcome>,
    pub finished: bool,
    #[ts(type = "number")]
    pub started_at: i64,
    #[ts(type = "number | null")]
    pub finished_at: Option<i64>,
    /// The match the same table played just before, when this one was a rematch.
    pub rematch_of: Option<String>,
    /// The rematch the same table started after this one, if any.
    pub rematch: Option<String>,
}

/// One accepted action in a match's log, in the order the room applied it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct LoggedAction {
    pub seat: Seat,
    #[ts(type = "unknown")]
    pub action: serde_json::Value,
    /// Who chose it: the seat's player, a bot, or the clock's default.
    pub by: ActionSource,
    /// The client's sequence number of a player's action: the server's own memory of which
    /// acts it has applied (exactly once), never published.
    #[serde(skip)]
    #[ts(skip)]
    pub seq: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ActionSource {
    Player,
    Bot,
    Timeout,
}

/// The body of every HTTP error: a stable code and a sentence for people.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ApiError {
    pub code: crate::ErrorCode,
    pub message: String,
}

/// `POST /api/guests`: a new guest identity. The token is shown once; the browser keeps it
/// and presents it in `Hello` (or as `Authorization: Bearer` on HTTP) to be recognised again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct NewGuest {
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Guest {
    pub player_id: String,
    pub name: String,
    pub token: String,
}

/// `GET /api/matches/{id}/replay?viewer=spectator|omniscient|seat:N`: a finished match as one
/// viewer saw it, one frame per version, computed by replaying the log on the server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Replay {
    pub id: String,
    pub game: String,
    pub viewer: crate::ids::Viewer,
    /// Frame 0 is the position before the first action; frame `n` follows action `n`.
    pub frames: Vec<ReplayFrame>,
    pub outcome: Option<Outcome>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ReplayFrame {
    /// The action that led here (none for frame 0).
    pub action: Option<LoggedAction>,
    #[ts(type = "unknown")]
    pub view: serde_json::Value,
}
