//! Lobby options: each settles one ambiguity of the printed rules. The defaults are the rules
//! page's proposals.

use pandemonium_game_contract::{OptionKind, OptionSpec};
use pandemonium_protocol::game::ChoiceValue;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What a demon left on top of a Foundation Stack with no Ritual cards on it does (proposal 7).
#[derive(Serialize, Deserialize, TS, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "SoulitaireDemonOnTop", export_to = "soulitaire/")]
pub enum DemonOnTop {
    /// The literal reading: a Demon card has no rank or suit, so nothing more can be placed on
    /// that stack. It is dead.
    #[default]
    DeadStack,
    /// The card beneath the demon still counts as the top.
    Forgiving,
}

/// How much of the Demon Pile the player sees (proposal 8).
#[derive(Serialize, Deserialize, TS, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "SoulitaireDemonPile", export_to = "soulitaire/")]
pub enum DemonPileVisibility {
    /// Only the top demon is visible; the ones below are seen as those above leave.
    #[default]
    TopOnly,
    /// The pile is spread: every demon in it is visible.
    Spread,
}

/// The options of a Soulitaire match. `{}` is the rules page's proposals.
#[derive(Serialize, Deserialize, TS, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(default, deny_unknown_fields)]
#[ts(rename = "SoulitaireConfig", export_to = "soulitaire/")]
pub struct Config {
    pub demon_on_top: DemonOnTop,
    pub demon_pile: DemonPileVisibility,
}

impl Config {
    /// Every combination of the options.
    pub fn all() -> Vec<Config> {
        let mut all = Vec::new();
        for demon_on_top in [DemonOnTop::DeadStack, DemonOnTop::Forgiving] {
            for demon_pile in [DemonPileVisibility::TopOnly, DemonPileVisibility::Spread] {
                all.push(Config {
                    demon_on_top,
                    demon_pile,
                });
            }
        }
        all
    }

    /// The lobby's description of the options.
    pub fn specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec {
                key: "demon_on_top".into(),
                label: "A demon left bare on a stack".into(),
                help: "The rules do not say what happens when a sacrificed demon takes no Ritual \
                       cards with it. Dead stack (the literal reading): a Demon card has no rank \
                       or suit, so nothing more can go on that stack. Forgiving: the card beneath \
                       the demon still counts as the top."
                    .into(),
                kind: OptionKind::Choice {
                    values: vec![
                        choice("dead_stack", "Dead stack"),
                        choice("forgiving", "Forgiving: the card beneath counts"),
                    ],
                },
                default: serde_json::json!("dead_stack"),
            },
            OptionSpec {
                key: "demon_pile".into(),
                label: "Demon Pile".into(),
                help: "The rules call the Demon Pile face up but make discarding the way to \
                       reach the next demon. Top only (default): you see only the top demon. \
                       Spread: every demon in the pile is visible."
                    .into(),
                kind: OptionKind::Choice {
                    values: vec![
                        choice("top_only", "Only the top demon is visible"),
                        choice("spread", "Spread: every demon is visible"),
                    ],
                },
                default: serde_json::json!("top_only"),
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
