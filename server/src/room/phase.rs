//! Where the room stands: waiting for its first match, playing one, or showing one that is
//! over. A match is its engine, its randomness and its log.

use pandemonium_game_contract::{DynGame, SeededChance};
use pandemonium_protocol::{LoggedAction, RoomStatus, Seat};

/// A match: its engine, its randomness and its log.
pub(super) struct Match {
    pub id: String,
    pub seed: [u8; 32],
    pub game: Box<dyn DynGame>,
    pub chance: SeededChance,
    pub log: Vec<Applied>,
}

/// An action the match applied, as the room keeps it to rebuild the match: its canonical JSON
/// text, the text the store has. A parsed tree takes many times the memory (each object a
/// B-tree node of a few hundred bytes), and a finished room keeps its match's log until it
/// closes.
pub(super) struct Applied {
    pub seat: Seat,
    pub action: Box<str>,
}

impl Applied {
    /// The action as the engine takes it.
    pub fn action(&self) -> serde_json::Value {
        serde_json::from_str(&self.action).expect("the room wrote this JSON itself")
    }
}

impl From<&LoggedAction> for Applied {
    fn from(logged: &LoggedAction) -> Self {
        Applied {
            seat: logged.seat,
            action: logged.action.to_string().into_boxed_str(),
        }
    }
}

impl Match {
    /// The room's version: how many actions the match has applied.
    pub fn version(&self) -> u64 {
        self.log.len() as u64
    }
}

/// Where the room stands. A finished match stays in the room (for its final view) until the
/// room closes.
pub(super) enum Phase {
    Waiting,
    Playing(Match),
    Finished(Match),
}

impl Phase {
    pub fn status(&self) -> RoomStatus {
        match self {
            Phase::Waiting => RoomStatus::Waiting,
            Phase::Playing(_) => RoomStatus::Playing,
            Phase::Finished(_) => RoomStatus::Finished,
        }
    }

    pub fn is_waiting(&self) -> bool {
        matches!(self, Phase::Waiting)
    }

    pub fn current(&self) -> Option<&Match> {
        match self {
            Phase::Waiting => None,
            Phase::Playing(m) | Phase::Finished(m) => Some(m),
        }
    }

    pub fn current_mut(&mut self) -> Option<&mut Match> {
        match self {
            Phase::Waiting => None,
            Phase::Playing(m) | Phase::Finished(m) => Some(m),
        }
    }

    /// The match, while it is being played.
    pub fn playing(&self) -> Option<&Match> {
        match self {
            Phase::Playing(m) => Some(m),
            _ => None,
        }
    }

    /// The match, once it is over.
    pub fn finished(&self) -> Option<&Match> {
        match self {
            Phase::Finished(m) => Some(m),
            _ => None,
        }
    }

    /// The teams of the match, if its game has teams.
    pub fn teams(&self) -> Option<Vec<u8>> {
        self.current()?.game.teams()
    }

    /// Moves the match between playing and finished to agree with its engine (an action that
    /// ends it, or a rollback that undoes the ending).
    pub fn settle(&mut self) {
        let phase = std::mem::replace(self, Phase::Waiting);
        *self = match phase {
            Phase::Playing(m) | Phase::Finished(m) if m.game.outcome().is_some() => {
                Phase::Finished(m)
            }
            Phase::Playing(m) | Phase::Finished(m) => Phase::Playing(m),
            Phase::Waiting => Phase::Waiting,
        };
    }
}
