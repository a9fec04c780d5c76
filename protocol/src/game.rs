//! What every game shares on the wire: how the lobby describes it and how a match ends.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::ids::Seat;

/// A game as the lobby lists it (`GET /api/games`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct GameInfo {
    /// Stable id used in URLs, the database and the protocol (`soulitaire`, `demos`, …).
    pub id: String,
    pub name: String,
    /// What people call it at the table ("Soulitaire" for "Pixel Demon's Realm: Soulitaire").
    pub short_name: String,
    pub min_seats: u8,
    pub max_seats: u8,
    /// One line for the lobby card.
    pub description: String,
    /// The options a host may set when creating a room; each has a default, so `{}` is a
    /// valid configuration for every game.
    pub options: Vec<OptionSpec>,
    /// Whether the game has teams (and so a team chat channel and team views).
    pub teams: bool,
    /// A real-time game: every seat may act at any moment and the room applies actions in
    /// arrival order. No per-turn clock applies; the game's own stall rules (its
    /// `rule_deadline`) end a stuck position.
    pub real_time: bool,
    /// The game whose board draws this one, for a variant of another game (the test
    /// server's rigged deals draw with the real game's board); omitted for a game drawn with
    /// its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub board: Option<String>,
    /// What a final score counts, in the words of the game's rules: the heading of the
    /// results table's score column ("demons left in the Demon Pile").
    pub score_unit: String,
    /// One glyph that stands for the game on its lobby card and rules page.
    pub glyph: String,
    /// The game's accent colour, as an HSL hue in degrees.
    pub hue: u16,
}

/// One lobby option. The key is the field name in the game's `Config`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct OptionSpec {
    pub key: String,
    pub label: String,
    /// Why the option exists: usually the rules ambiguity it settles.
    pub help: String,
    pub kind: OptionKind,
    #[ts(type = "unknown")]
    pub default: serde_json::Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum OptionKind {
    Bool,
    Int {
        min: i64,
        max: i64,
    },
    /// One of a fixed list of string values, each with a label.
    Choice {
        values: Vec<ChoiceValue>,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ChoiceValue {
    pub value: String,
    pub label: String,
}

/// How a finished match ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Outcome {
    /// Winning seats; several when the win is shared, none when the rules say nobody wins
    /// (a Soulitaire loss, a DēmoS election with no trio).
    pub winners: Vec<Seat>,
    /// Per seat: 1 for first place; tied seats share a place.
    pub placements: Vec<u8>,
    /// Per seat, in the game's own unit (points, treasure, demons left).
    pub scores: Vec<i64>,
    /// A sentence for people: "Greater Demon: 3 demons left", "Team A wins the Election".
    pub summary: String,
}
