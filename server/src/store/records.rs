//! The rows the store reads and writes, and their conversion from database rows.

use serde::{Deserialize, Serialize};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::StoreError;
use pandemonium_protocol::{ActionSource, LoggedAction, MatchSummary, Outcome, Seat};

/// Who sat in a seat when the match started.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredSeat {
    pub player_id: Option<String>,
    pub name: String,
    pub bot: bool,
}

/// The room settings a rebuilt room needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoomSettings {
    pub public: bool,
    pub turn_seconds: Option<u32>,
    pub grace_seconds: u32,
    pub host: Option<String>,
}

#[derive(Debug, Clone)]
pub struct NewMatch {
    pub id: String,
    pub room_code: String,
    pub game: String,
    pub config: serde_json::Value,
    pub seats: Vec<StoredSeat>,
    pub room: RoomSettings,
    pub seed: String,
    pub seed_hash: String,
    pub started_at: i64,
    /// The match the same table played before, when this one is a rematch.
    pub rematch_of: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchStatus {
    Running,
    Finished,
    Abandoned,
}

impl MatchStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchStatus::Running => "running",
            MatchStatus::Finished => "finished",
            MatchStatus::Abandoned => "abandoned",
        }
    }

    fn parse(text: &str) -> Result<Self, StoreError> {
        match text {
            "running" => Ok(MatchStatus::Running),
            "finished" => Ok(MatchStatus::Finished),
            "abandoned" => Ok(MatchStatus::Abandoned),
            other => Err(StoreError::Corrupt(format!(
                "unknown match status `{other}`"
            ))),
        }
    }
}

#[derive(Debug, Clone)]
pub struct StoredMatch {
    pub id: String,
    pub room_code: String,
    pub game: String,
    pub config: serde_json::Value,
    pub seats: Vec<StoredSeat>,
    pub room: RoomSettings,
    pub seed: String,
    pub seed_hash: String,
    pub status: MatchStatus,
    pub outcome: Option<Outcome>,
    pub started_at: i64,
    pub finished_at: Option<i64>,
    /// The match this one is a rematch of, and the rematch that followed it.
    pub rematch_of: Option<String>,
    pub rematch: Option<String>,
    pub log: Vec<LoggedAction>,
}

impl StoredMatch {
    pub fn player_names(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.name.clone()).collect()
    }

    pub fn summary(&self) -> MatchSummary {
        MatchSummary {
            id: self.id.clone(),
            game: self.game.clone(),
            players: self.player_names(),
            outcome: self.outcome.clone(),
            finished_at: self.finished_at.unwrap_or(self.started_at),
            rematch_of: self.rematch_of.clone(),
            rematch: self.rematch.clone(),
        }
    }

    /// The seed as bytes.
    pub fn seed_bytes(&self) -> Result<[u8; 32], StoreError> {
        hex::decode(&self.seed)
            .ok()
            .and_then(|bytes| bytes.try_into().ok())
            .ok_or_else(|| StoreError::Corrupt(format!("match {} has a malformed seed", self.id)))
    }
}

fn json<T: for<'de> Deserialize<'de>>(text: &str, what: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

pub(super) fn match_from_row(row: &AnyRow) -> Result<StoredMatch, StoreError> {
    let outcome: Option<String> = row.try_get(9)?;
    Ok(StoredMatch {
        id: row.try_get(0)?,
        room_code: row.try_get(1)?,
        game: row.try_get(2)?,
        config: json(&row.try_get::<String, _>(3)?, "config")?,
        seats: json(&row.try_get::<String, _>(4)?, "seats")?,
        room: json(&row.try_get::<String, _>(5)?, "room")?,
        seed: row.try_get(6)?,
        seed_hash: row.try_get(7)?,
        status: MatchStatus::parse(&row.try_get::<String, _>(8)?)?,
        outcome: outcome.map(|o| json(&o, "outcome")).transpose()?,
        started_at: row.try_get(10)?,
        finished_at: row.try_get(11)?,
        rematch_of: row.try_get(12)?,
        rematch: row.try_get(13)?,
        log: Vec::new(),
    })
}

/// One action of an ended match's log, as `matches.log` holds it: the log's JSON array is
/// written by the database itself when the match ends (SQLite's `json_object`, PostgreSQL's
/// `json_build_object`), from the columns of `running_actions`.
#[derive(Deserialize)]
struct EndedAction {
    seat: Seat,
    action: serde_json::Value,
    by: ActionSource,
    seq: Option<u64>,
}

/// An ended match's log from `matches.log`.
pub(super) fn ended_log(text: &str) -> Result<Vec<LoggedAction>, StoreError> {
    let actions: Vec<EndedAction> = json(text, "log")?;
    Ok(actions
        .into_iter()
        .map(|a| LoggedAction {
            seat: a.seat,
            action: a.action,
            by: a.by,
            seq: a.seq,
        })
        .collect())
}

pub(super) fn action_from_row(row: &AnyRow, expected: i64) -> Result<LoggedAction, StoreError> {
    let index: i64 = row.try_get(0)?;
    if index != expected {
        return Err(StoreError::Corrupt(format!(
            "action log has a gap: expected action {expected}, found {index}"
        )));
    }
    let seat: i64 = row.try_get(1)?;
    Ok(LoggedAction {
        seat: Seat::try_from(seat).map_err(|_| StoreError::Corrupt(format!("seat {seat}")))?,
        action: json(&row.try_get::<String, _>(2)?, "action")?,
        by: match row.try_get::<String, _>(3)?.as_str() {
            "player" => ActionSource::Player,
            "bot" => ActionSource::Bot,
            "timeout" => ActionSource::Timeout,
            other => return Err(StoreError::Corrupt(format!("action source `{other}`"))),
        },
        seq: row.try_get::<Option<i64>, _>(4)?.map(|seq| seq as u64),
    })
}

pub(super) fn source_name(source: ActionSource) -> &'static str {
    match source {
        ActionSource::Player => "player",
        ActionSource::Bot => "bot",
        ActionSource::Timeout => "timeout",
    }
}
