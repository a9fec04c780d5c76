//! Lobby options. Each settles an ambiguity of the printed rules (`RULES.md`);
//! the defaults are that page's proposals.

use pandemonium_game_contract::{ConfigError, OptionKind, OptionSpec};
use pandemonium_protocol::game::ChoiceValue;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Which runs may move between tableau piles (proposal 3).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "DemonRunMoves", export_to = "demon_klondike/")]
pub enum RunMoves {
    /// Any face-up run: a face-up card together with the cards on it (modern Klondike).
    #[default]
    AnyRun,
    /// The older variant: all the face-up cards of a pile move as a unit.
    WholeRun,
}

/// The fewest and most deals a match may have (proposal 8).
pub const MAX_DEALS: u8 = 10;
/// The idle time's bounds, in seconds (proposal 6's fallback).
pub const IDLE_SECONDS: std::ops::RangeInclusive<u32> = 10..=600;

/// The options of a Demon match. `{}` is the rules page's proposals: any run may move, three
/// deals, and a deal with no progress move for 60 seconds ends as stuck.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default, deny_unknown_fields)]
#[ts(rename = "DemonConfig", export_to = "demon_klondike/")]
pub struct Config {
    pub runs: RunMoves,
    /// Deals in the match; the totals decide the winner.
    pub deals: u8,
    /// Seconds with no accepted progress move after which the deal ends as if everyone had
    /// said "we're stuck".
    pub idle_seconds: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            runs: RunMoves::AnyRun,
            deals: 3,
            idle_seconds: 60,
        }
    }
}

impl Config {
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(1..=MAX_DEALS).contains(&self.deals) {
            return Err(ConfigError::option(
                "deals",
                format!("a match has 1 to {MAX_DEALS} deals"),
            ));
        }
        if !IDLE_SECONDS.contains(&self.idle_seconds) {
            return Err(ConfigError::option(
                "idle_seconds",
                format!(
                    "the idle time is {} to {} seconds",
                    IDLE_SECONDS.start(),
                    IDLE_SECONDS.end()
                ),
            ));
        }
        Ok(())
    }

    /// The lobby's description of the options.
    pub fn specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec {
                key: "runs".into(),
                label: "Moving runs".into(),
                help: "Klondike sources disagree on moving part of a run. Any run (default): \
                       any face-up card moves together with the cards on it. Whole run: all \
                       the face-up cards of a pile move as a unit."
                    .into(),
                kind: OptionKind::Choice {
                    values: vec![
                        choice("any_run", "Any face-up run may move"),
                        choice("whole_run", "Whole runs only"),
                    ],
                },
                default: serde_json::json!("any_run"),
            },
            OptionSpec {
                key: "deals".into(),
                label: "Deals".into(),
                help: "The rules play \"an agreed-upon number of deals\"; the highest total \
                       wins."
                    .into(),
                kind: OptionKind::Int {
                    min: 1,
                    max: MAX_DEALS as i64,
                },
                default: serde_json::json!(3),
            },
            OptionSpec {
                key: "idle_seconds".into(),
                label: "Idle time (seconds)".into(),
                help: "A deal also ends, as if everyone had said \"we're stuck\", after this \
                       long with no card reaching a foundation or a pile and no card turned up."
                    .into(),
                kind: OptionKind::Int {
                    min: *IDLE_SECONDS.start() as i64,
                    max: *IDLE_SECONDS.end() as i64,
                },
                default: serde_json::json!(60),
            },
        ]
    }
}

fn choice(value: &str, label: &str) -> ChoiceValue {
    ChoiceValue {
        value: value.into(),
        label: label.into(),
    }
}
