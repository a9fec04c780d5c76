//! The `Game` contract on top of the rules: a real-time game, so every seat still racing is to
//! act at once, and the idle time is the rules' own clock.

use pandemonium_game_contract::{
    Chance, ConfigError, Conformance, Game, GameInfo, Outcome, RuleClock, Seat, SeatSet, Viewer,
};

use crate::action::{Action, Error};
use crate::bot::KlondikeBot;
use crate::config::{Config, RunMoves};
use crate::state::{DemonKlondike, Phase, STALL_ACTIONS_PER_SEAT, STALL_SPREAD};
use crate::view::View;

/// How long the scores stay up between deals before everyone still reading them is made
/// ready.
pub const BETWEEN_DEALS_SECONDS: u32 = 30;

/// Progress moves a deal can hold per seat: 52 cards to the foundations, 24 stock cards to the
/// tableau, 21 face-down cards turned up.
const PROGRESS_PER_SEAT: usize = 52 + 24 + 21;

impl Game for DemonKlondike {
    type Config = Config;
    type Action = Action;
    type View = View;
    type Error = Error;

    const RULES_PAGE: &'static str = include_str!("../RULES.md");

    fn info() -> GameInfo {
        GameInfo {
            id: "demon_klondike".into(),
            name: "Demon".into(),
            short_name: "Demon".into(),
            min_seats: 2,
            max_seats: 8,
            description: "Racing Klondike: everyone plays at once onto shared foundations.".into(),
            options: Config::specs(),
            teams: false,
            real_time: true,
            board: None,
            score_unit: "points summed over the deals".into(),
            glyph: "⚡".into(),
            hue: 8,
        }
    }

    fn new(config: &Config, seats: u8, chance: &mut dyn Chance) -> Result<Self, ConfigError> {
        ConfigError::check_seats(&Self::info(), seats)?;
        config.validate()?;
        let mut game = DemonKlondike::empty(*config, seats);
        game.deal_next(chance);
        Ok(game)
    }

    fn to_act(&self) -> SeatSet {
        self.racing_or_waiting()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        self.legal(seat)
    }

    fn apply(&mut self, seat: Seat, action: &Action, chance: &mut dyn Chance) -> Result<(), Error> {
        let step = self.check(seat, action)?;
        self.perform(seat, step, chance);
        Ok(())
    }

    fn view(&self, viewer: Viewer) -> View {
        self.build_view(viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let scores: Vec<i64> = self.totals.iter().map(|&t| t as i64).collect();
        let placements: Vec<u8> = scores
            .iter()
            .map(|mine| 1 + scores.iter().filter(|other| *other > mine).count() as u8)
            .collect();
        let winners = (0..self.seats)
            .filter(|&s| placements[s as usize] == 1)
            .collect();
        let totals: Vec<String> = scores.iter().map(i64::to_string).collect();
        Some(Outcome {
            winners,
            placements,
            summary: format!(
                "Totals after {} deal{}: {}",
                self.deal,
                if self.deal == 1 { "" } else { "s" },
                totals.join(", ")
            ),
            scores,
        })
    }

    /// When the idle time runs out every seat still racing says "we're stuck", which ends the
    /// deal; when the scores have been up long enough, everyone is ready.
    fn default_action(&self, seat: Seat) -> Option<Action> {
        if seat >= self.seats {
            return None;
        }
        match self.phase {
            Phase::Racing if !self.stuck.contains(seat) => Some(Action::Stuck),
            Phase::BetweenDeals { ready } if !ready.contains(seat) => Some(Action::Ready),
            _ => None,
        }
    }

    /// The idle time (proposal 6's fallback) restarts with every progress move: the window is
    /// the deal number with the count of progress moves so far.
    fn rule_deadline(&self) -> Option<RuleClock> {
        let deal = (self.deal as u64) << 32;
        match self.phase {
            Phase::Racing => Some(RuleClock {
                window: deal | self.progress as u64,
                seconds: self.config.idle_seconds,
            }),
            Phase::BetweenDeals { .. } => Some(RuleClock {
                window: deal | u32::MAX as u64,
                seconds: BETWEEN_DEALS_SECONDS,
            }),
            Phase::Over => None,
        }
    }
}

impl Conformance for DemonKlondike {
    fn redeal_hidden(&self, viewer: Viewer, chance: &mut dyn Chance) -> Self {
        self.redealt(viewer, chance)
    }

    fn arbitrary_action(&self, chance: &mut dyn Chance) -> Action {
        self.arbitrary(chance)
    }

    /// Progress moves are bounded per deal, and the stall safeguard's hard bound bounds the
    /// actions between two of them.
    fn max_actions(config: &Config, seats: u8) -> usize {
        let seats = seats as usize;
        let between = (STALL_ACTIONS_PER_SEAT * STALL_SPREAD) as usize * seats + 1;
        config.deals as usize * ((PROGRESS_PER_SEAT * seats + 1) * between + seats)
    }

    /// Every seat count with both run options; short matches (one or two deals) so the harness
    /// can afford thousands of them, with the between-deals step covered.
    fn conformance_configs() -> Vec<(Config, u8)> {
        let mut configs = Vec::new();
        for seats in 2..=8 {
            for runs in [RunMoves::AnyRun, RunMoves::WholeRun] {
                let deals = if seats <= 3 { 2 } else { 1 };
                configs.push((
                    Config {
                        runs,
                        deals,
                        ..Config::default()
                    },
                    seats,
                ));
            }
        }
        configs
    }
}

/// What the bot would do for `seat`: the hint a player may ask for.
pub fn hint(game: &DemonKlondike, seat: Seat, chance: &mut dyn Chance) -> Option<Action> {
    use pandemonium_game_contract::Bot;
    let legal = game.legal(seat);
    if legal.is_empty() {
        return None;
    }
    Some(KlondikeBot.choose(&game.build_view(Viewer::Seat(seat)), &legal, chance))
}
