//! Lobby options. Each settles an ambiguity or a choice the rules leave to the players (see
//! `RULES.md`); the defaults are the proposals there.

use pandemonium_game_contract::{ConfigError, OptionKind, OptionSpec};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The largest daemon the lobby accepts: three blocks of 13.
pub const MAX_SIZE: u8 = 39;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default, deny_unknown_fields)]
#[ts(export_to = "daemon_dice/")]
pub struct DaemonDiceConfig {
    /// Dice per daemon: 13 in the basic game, 5 (mini) or 26 (mega), or any agreed number.
    pub size: u8,
    /// Initiative points of a rolled Lungs (proposal 4: none).
    pub lungs_initiative: u8,
    /// Most copies of one (breed, body part) die a daemon may hold; 0 for no limit (proposal
    /// 15: the game is collectible, so there is none by default).
    pub max_copies: u8,
    /// A battle still undecided after this many turns ends, ranked by healthy dice. The printed
    /// game has no such limit; it guarantees that every match ends.
    pub turn_limit: u16,
}

impl Default for DaemonDiceConfig {
    fn default() -> Self {
        DaemonDiceConfig {
            size: 13,
            lungs_initiative: 0,
            max_copies: 0,
            turn_limit: 200,
        }
    }
}

impl DaemonDiceConfig {
    pub(crate) fn validate(&self) -> Result<(), ConfigError> {
        if !(1..=MAX_SIZE).contains(&self.size) {
            return Err(ConfigError::option(
                "size",
                format!("a daemon has 1 to {MAX_SIZE} dice"),
            ));
        }
        if self.lungs_initiative > 2 {
            return Err(ConfigError::option("lungs_initiative", "0, 1 or 2"));
        }
        if self.turn_limit == 0 {
            return Err(ConfigError::option("turn_limit", "at least one turn"));
        }
        Ok(())
    }
}

pub(crate) fn option_specs() -> Vec<OptionSpec> {
    vec![
        OptionSpec {
            key: "size".into(),
            label: "Daemon size".into(),
            help: "Dice per daemon: 13 in the basic game, 5 for mini-daemons, 26 for \
                   mega-daemons, or any agreed number. Purebred powers act once more per \
                   started block of 13 dice."
                .into(),
            kind: OptionKind::Int {
                min: 1,
                max: MAX_SIZE as i64,
            },
            default: 13.into(),
        },
        OptionSpec {
            key: "lungs_initiative".into(),
            label: "Lungs initiative".into(),
            help: "The rules count \"symbols that generate initiative\" but never say whether \
                   Lungs do. Default 0; Wings always count 1."
                .into(),
            kind: OptionKind::Int { min: 0, max: 2 },
            default: 0.into(),
        },
        OptionSpec {
            key: "max_copies".into(),
            label: "Copies of one die".into(),
            help: "Most dice of the same breed and body part in one daemon (0: no limit, as \
                   in a collection with every die)."
                .into(),
            kind: OptionKind::Int { min: 0, max: 39 },
            default: 0.into(),
        },
        OptionSpec {
            key: "turn_limit".into(),
            label: "Turn limit".into(),
            help: "A battle still undecided after this many turns ends; the survivors are \
                   ranked by their healthy dice."
                .into(),
            kind: OptionKind::Int { min: 1, max: 2000 },
            default: 200.into(),
        },
    ]
}
