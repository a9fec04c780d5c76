//! What the player can ask for.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::cards::Face;

/// One Soulitaire action. Columns are numbered 0-5 left to right, Foundation Stacks 0-3.
#[derive(Serialize, Deserialize, TS, Debug, Clone, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(rename = "SoulitaireAction", export_to = "soulitaire/")]
pub enum Action {
    /// Move the visible card of `column` onto `foundation`, whose top must be one rank higher
    /// or lower. A Mimic must be declared as a card whose rank fits (`declare`); any other card
    /// must leave `declare` empty.
    Move {
        column: u8,
        foundation: u8,
        declare: Option<Face>,
    },
    /// Sacrifice the top demon onto `foundation` (whose top must share a suit or rank with one
    /// of its symbols), then place the chosen visible cards on it in this order: the last one
    /// becomes the new top. Each card must match a different symbol of the demon; a Mimic is
    /// declared as a card matching the symbol it is taken for. No cards at all is allowed.
    Sacrifice {
        foundation: u8,
        offerings: Vec<Offering>,
    },
    /// Discard the top demon. It is lost for the rest of the game.
    Discard,
    /// Give up the match.
    Concede,
}

/// One card taken in a Sacrifice: the visible card of `column`, and for a Mimic the card it is
/// declared as.
#[derive(Serialize, Deserialize, TS, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[ts(rename = "SoulitaireOffering", export_to = "soulitaire/")]
pub struct Offering {
    pub column: u8,
    pub declare: Option<Face>,
}

impl Offering {
    /// A Ritual card taken from `column`.
    pub fn card(column: u8) -> Offering {
        Offering {
            column,
            declare: None,
        }
    }

    /// A Mimic taken from `column`, declared as `face`.
    pub fn mimic(column: u8, face: Face) -> Offering {
        Offering {
            column,
            declare: Some(face),
        }
    }
}
