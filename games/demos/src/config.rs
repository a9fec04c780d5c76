//! Lobby options and the rules they select. Each option settles an ambiguity of the printed
//! rules (see `RULES.md`); its default is the proposal there.

use pandemonium_game_contract::{ConfigError, OptionKind, OptionSpec};
use pandemonium_protocol::game::ChoiceValue;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Which game is played: the two individual rule sets or one of the three team modes (which
/// all use the complete rules).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "demos/")]
pub enum Mode {
    /// Learning game: no aces, no Media, two discard turns, sequences only.
    #[serde(rename = "simplified")]
    Simplified,
    #[default]
    #[serde(rename = "complete")]
    Complete,
    /// Two teams of two (4 players).
    #[serde(rename = "team_2v2")]
    Team2v2,
    /// A team of two against a team of three (5 players); the pair has two vetoes.
    #[serde(rename = "team_2v3")]
    Team2v3,
    /// Two teams of two and the Independent (5 players).
    #[serde(rename = "team_2v2_plus_1")]
    Team2v2Plus1,
}

impl Mode {
    pub fn is_team(self) -> bool {
        !matches!(self, Mode::Simplified | Mode::Complete)
    }

    /// The complete rules: aces, Media, the Unanimous Discard, Harmonious Squares, the Scandal.
    pub fn is_complete(self) -> bool {
        self != Mode::Simplified
    }

    fn name(self) -> &'static str {
        match self {
            Mode::Simplified => "simplified",
            Mode::Complete => "complete",
            Mode::Team2v2 => "team_2v2",
            Mode::Team2v3 => "team_2v3",
            Mode::Team2v2Plus1 => "team_2v2_plus_1",
        }
    }

    /// The seat counts the mode is played with.
    fn seats(self) -> std::ops::RangeInclusive<u8> {
        match self {
            Mode::Simplified | Mode::Complete => 3..=5,
            Mode::Team2v2 => 4..=4,
            Mode::Team2v3 | Mode::Team2v2Plus1 => 5..=5,
        }
    }

    /// The team layout used when the host gives none.
    fn default_teams(self) -> Option<Vec<u8>> {
        match self {
            Mode::Simplified | Mode::Complete => None,
            Mode::Team2v2 => Some(vec![0, 1, 0, 1]),
            Mode::Team2v3 => Some(vec![0, 1, 0, 1, 1]),
            Mode::Team2v2Plus1 => Some(vec![0, 1, 0, 1, INDEPENDENT]),
        }
    }
}

/// The Independent's team number in 2 vs 2 + 1: a team of one.
pub const INDEPENDENT: u8 = 2;

/// How a discard turn is played (proposal 2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "demos/")]
pub enum DiscardOrder {
    /// Everyone commits privately at once; the commits are applied clockwise from the dealer's
    /// left, and a visible discard already taken becomes the top card of the pack.
    #[default]
    Simultaneous,
    /// Each player resolves their discard and replacement in turn, clockwise from the dealer's
    /// left.
    Sequential,
}

/// How the seats of the team modes are split into teams (proposal 18: "decided freely or by
/// drawing lots").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "demos/")]
pub enum Seating {
    /// The host's layout (`teams`), or the default one: teams alternate around the table.
    #[default]
    Chosen,
    /// The layout is drawn by lot when the match starts: the same team sizes, seats shuffled.
    Drawn,
}

/// The lobby options. `{}` is the complete game for 3-5 players with simultaneous discards.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(default, deny_unknown_fields)]
#[ts(export_to = "demos/")]
pub struct DemosConfig {
    pub mode: Mode,
    pub discard_order: DiscardOrder,
    /// Rounds after which the Main Phase ends even if figures remain; unset: 14 in the
    /// complete and team games ("up to 14"), 12 in the simplified game (proposal 8).
    pub round_cap: Option<u8>,
    /// The Creator's Suggestion: players declare a favourite suit (+10 to a one-suit sequence
    /// in it) and a figure trio (primacy in an Election tie when presented as declared).
    pub creators_suggestion: bool,
    /// Team modes: each seat's team (0 or 1; the Independent is team 2). Unset: teams
    /// alternate around the table, and in 2 vs 3 team 0 is the pair.
    pub teams: Option<Vec<u8>>,
    /// Team modes: keep the chosen layout, or draw the teams by lot at the start.
    pub seating: Seating,
}

/// The most rounds a host may ask for.
pub const MAX_ROUND_CAP: u8 = 30;

/// A validated config for a seat count: what the engine consults while it plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rules {
    pub mode: Mode,
    pub sequential: bool,
    pub round_cap: u8,
    pub suggestion: bool,
    /// Team of each seat (team modes only).
    pub teams: Option<Vec<u8>>,
}

impl Rules {
    pub fn new(config: &DemosConfig, seats: u8) -> Result<Rules, ConfigError> {
        ConfigError::check_seats(
            &<crate::Demos as pandemonium_game_contract::Game>::info(),
            seats,
        )?;
        let mode = config.mode;
        if !mode.seats().contains(&seats) {
            return Err(ConfigError::option(
                "mode",
                format!(
                    "{} is played by {} players, not {seats}",
                    mode.name(),
                    mode.seats().start()
                ),
            ));
        }
        let round_cap = match config.round_cap {
            Some(cap) if !(1..=MAX_ROUND_CAP).contains(&cap) => {
                return Err(ConfigError::option(
                    "round_cap",
                    format!("a round cap runs from 1 to {MAX_ROUND_CAP}, not {cap}"),
                ));
            }
            Some(cap) => cap,
            None if mode == Mode::Simplified => 12,
            None => 14,
        };
        let teams = match (&config.teams, mode.is_team()) {
            (Some(_), false) => {
                return Err(ConfigError::option(
                    "teams",
                    "teams are only chosen in the team modes",
                ));
            }
            (None, _) if config.seating == Seating::Drawn && !mode.is_team() => {
                return Err(ConfigError::option(
                    "seating",
                    "teams are only drawn in the team modes",
                ));
            }
            (None, _) => mode.default_teams(),
            (Some(teams), true) => {
                check_teams(mode, seats, teams)?;
                Some(teams.clone())
            }
        };
        Ok(Rules {
            mode,
            sequential: config.discard_order == DiscardOrder::Sequential,
            round_cap,
            suggestion: config.creators_suggestion,
            teams,
        })
    }

    /// Vetoes each team (or, in individual games, each player) starts with.
    pub fn starting_vetoes(&self, seats: u8) -> Vec<u8> {
        match &self.teams {
            None => vec![1; seats as usize],
            Some(teams) => {
                let sides = teams.iter().max().map_or(0, |t| t + 1);
                (0..sides)
                    .map(|side| {
                        let members = teams.iter().filter(|&&t| t == side).count();
                        // 2 vs 3: the pair compensates its numbers with a second veto.
                        if self.mode == Mode::Team2v3 && members == 2 {
                            2
                        } else {
                            1
                        }
                    })
                    .collect()
            }
        }
    }
}

fn check_teams(mode: Mode, seats: u8, teams: &[u8]) -> Result<(), ConfigError> {
    let bad = |reason: String| Err(ConfigError::option("teams", reason));
    if teams.len() != seats as usize {
        return bad(format!("give a team for each of the {seats} seats"));
    }
    let count = |team: u8| teams.iter().filter(|&&t| t == team).count();
    let sizes = (count(0), count(1), count(INDEPENDENT));
    let ok = match mode {
        Mode::Team2v2 => sizes == (2, 2, 0),
        Mode::Team2v3 => sizes == (2, 3, 0) || sizes == (3, 2, 0),
        Mode::Team2v2Plus1 => sizes == (2, 2, 1),
        Mode::Simplified | Mode::Complete => false,
    };
    if ok && teams.iter().all(|&t| t <= INDEPENDENT) {
        Ok(())
    } else {
        bad(match mode {
            Mode::Team2v2 => "2 vs 2 needs two seats in team 0 and two in team 1".into(),
            Mode::Team2v3 => "2 vs 3 needs teams 0 and 1, one of two seats, one of three".into(),
            _ => "2 vs 2 + 1 needs two seats in team 0, two in team 1 and the Independent (team 2)"
                .into(),
        })
    }
}

/// The option schema the lobby shows. `teams` is left out: the schema has no list kind, so the
/// host gives it through the API (or the default layout is used).
pub(crate) fn option_specs() -> Vec<OptionSpec> {
    let choice = |pairs: &[(&str, &str)]| OptionKind::Choice {
        values: pairs
            .iter()
            .map(|(value, label)| ChoiceValue {
                value: value.to_string(),
                label: label.to_string(),
            })
            .collect(),
    };
    vec![
        OptionSpec {
            key: "mode".into(),
            label: "Mode".into(),
            help: "The simplified learning game, the complete game, or a team mode (team modes \
                   use the complete rules)."
                .into(),
            kind: choice(&[
                ("simplified", "Simplified (3-5 players)"),
                ("complete", "Complete (3-5 players)"),
                ("team_2v2", "2 vs 2 (4 players)"),
                ("team_2v3", "2 vs 3 (5 players)"),
                ("team_2v2_plus_1", "2 vs 2 + 1 Independent (5 players)"),
            ]),
            default: "complete".into(),
        },
        OptionSpec {
            key: "discard_order".into(),
            label: "Discard order".into(),
            help: "The rules do not say whether discards are simultaneous. Simultaneous: \
                   everyone commits at once, applied clockwise from the dealer's left. \
                   Sequential: one player after another."
                .into(),
            kind: choice(&[
                ("simultaneous", "Simultaneous commits"),
                ("sequential", "One after another"),
            ]),
            default: "simultaneous".into(),
        },
        OptionSpec {
            key: "round_cap".into(),
            label: "Round cap".into(),
            help: "The game ends when the Power Pile is empty or after this many rounds \
                   (unset: 14 in the complete game, 12 in the simplified game)."
                .into(),
            kind: OptionKind::Int {
                min: 1,
                max: MAX_ROUND_CAP as i64,
            },
            default: serde_json::Value::Null,
        },
        OptionSpec {
            key: "seating".into(),
            label: "Team seating".into(),
            help: "Team modes: teams are \"decided freely or by drawing lots\". Chosen: \
                   teams alternate around the table (or the host's layout). Drawn: the \
                   server draws the teams when the match starts."
                .into(),
            kind: choice(&[("chosen", "Chosen by the host"), ("drawn", "Drawn by lot")]),
            default: "chosen".into(),
        },
        OptionSpec {
            key: "creators_suggestion".into(),
            label: "Creator's Suggestion".into(),
            help: "Before the game each player declares a favourite suit (+10 to a one-suit \
                   sequence in it) and a figure trio (primacy in an Election tie)."
                .into(),
            kind: OptionKind::Bool,
            default: false.into(),
        },
    ]
}
