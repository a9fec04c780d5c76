//! Lobby options. Each settles an ambiguity of the printed rules (`RULES.md`);
//! the default is the proposal there. Solitaire is not an option: it is the game for one seat.

use pandemonium_game_contract::{ConfigError, OptionKind, OptionSpec};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The lobby options. `{}` is two Jokers, no Marcus King and no cap.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(default, deny_unknown_fields)]
#[ts(export_to = "demon_bound/")]
pub struct DemonBoundConfig {
    /// Jokers in the deck, 0-2 (proposal 1: a retail deck has two).
    pub jokers: u8,
    /// The Origins 2008 deck: add the Marcus King (proposal 17).
    pub marcus_king: bool,
    /// Non-termination safeguard (proposal 23): the game ends after this many full rounds and
    /// the richest survivor wins. Unset: no cap.
    pub round_cap: Option<u16>,
    /// Non-termination safeguard (proposal 23): when the draw pile would be reshuffled once more
    /// than this, the game ends instead and the richest survivor wins. Unset: no cap.
    pub reshuffle_cap: Option<u8>,
}

impl Default for DemonBoundConfig {
    fn default() -> Self {
        DemonBoundConfig {
            jokers: 2,
            marcus_king: false,
            round_cap: None,
            reshuffle_cap: None,
        }
    }
}

/// The most Jokers a deck may hold.
pub const MAX_JOKERS: u8 = 2;
/// The largest round cap a host may set.
pub const MAX_ROUND_CAP: u16 = 500;
/// The largest reshuffle cap a host may set.
pub const MAX_RESHUFFLE_CAP: u8 = 50;

impl DemonBoundConfig {
    pub(crate) fn validate(&self) -> Result<(), ConfigError> {
        if self.jokers > MAX_JOKERS {
            return Err(ConfigError::option(
                "jokers",
                format!("a deck holds 0 to {MAX_JOKERS} Jokers, not {}", self.jokers),
            ));
        }
        if let Some(cap) = self.round_cap
            && !(1..=MAX_ROUND_CAP).contains(&cap)
        {
            return Err(ConfigError::option(
                "round_cap",
                format!("a round cap runs from 1 to {MAX_ROUND_CAP}, not {cap}"),
            ));
        }
        if let Some(cap) = self.reshuffle_cap
            && cap > MAX_RESHUFFLE_CAP
        {
            return Err(ConfigError::option(
                "reshuffle_cap",
                format!("a reshuffle cap runs from 0 to {MAX_RESHUFFLE_CAP}, not {cap}"),
            ));
        }
        Ok(())
    }
}

/// The option schema the lobby shows.
pub(crate) fn option_specs() -> Vec<OptionSpec> {
    vec![
        OptionSpec {
            key: "jokers".into(),
            label: "Jokers".into(),
            help: "The rules do not say how many Jokers the deck holds; a retail deck has two. \
                   A discarded Joker opens Hell's Maw: every numbered spade in hand is dealt \
                   out as a threat."
                .into(),
            kind: OptionKind::Int {
                min: 0,
                max: MAX_JOKERS as i64,
            },
            default: 2.into(),
        },
        OptionSpec {
            key: "marcus_king".into(),
            label: "Origins 2008 Marcus King".into(),
            help: "Add the Marcus King: a special Joker that deals out the demons of the \
                   discard pile as threats."
                .into(),
            kind: OptionKind::Bool,
            default: false.into(),
        },
        OptionSpec {
            key: "round_cap".into(),
            label: "Round cap".into(),
            help: "Not in the rules: end the game after this many rounds (the richest survivor \
                   wins). Unset: no cap."
                .into(),
            kind: OptionKind::Int {
                min: 1,
                max: MAX_ROUND_CAP as i64,
            },
            default: serde_json::Value::Null,
        },
        OptionSpec {
            key: "reshuffle_cap".into(),
            label: "Reshuffle cap".into(),
            help: "Not in the rules: end the game instead of reshuffling the discards into the \
                   draw pile more than this many times (the richest survivor wins). Unset: no \
                   cap."
                .into(),
            kind: OptionKind::Int {
                min: 0,
                max: MAX_RESHUFFLE_CAP as i64,
            },
            default: serde_json::Value::Null,
        },
    ]
}
