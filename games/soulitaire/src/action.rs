//! What the player can ask for.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::cards::{Face, Symbol};

/// One Soulitaire action. Columns are numbered 0-5 left to right, Foundation Stacks 0-3.
///
/// A Sacrifice is played as a short sequence: [`Action::Sacrifice`] places the top demon and
/// fixes which cards may be offered (those visible at that moment), then one [`Action::Offer`]
/// per card in the order they are placed (the last one becomes the new top), then
/// [`Action::EndSacrifice`] — which is automatic once nothing more can be offered. While a
/// sacrifice is under way only `offer`, `end_sacrifice` and `concede` are legal.
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
    /// Place the top demon on `foundation`, whose top must share a suit or rank with one of its
    /// symbols. This opens the sacrifice: the cards visible now are the ones that may be
    /// offered to it.
    Sacrifice { foundation: u8 },
    /// Offer the visible card of `column` to the demon being sacrificed, for its `symbol`
    /// (one copy of it: a demon with a symbol twice takes two cards for it). The card must
    /// have been visible when the demon was placed and must match `symbol`; a Mimic is
    /// declared as a card matching it (`declare`), any other card leaves `declare` empty.
    Offer {
        column: u8,
        symbol: Symbol,
        declare: Option<Face>,
    },
    /// Offer no more cards: the sacrifice is over (the last card offered is the new top).
    EndSacrifice,
    /// Discard the top demon. It is lost for the rest of the game.
    Discard,
    /// Give up the match.
    Concede,
}
