//! Setting up a match: shuffled for play, or rigged for tests (exact packs per round, the
//! Power Pile order, and optionally a match already under way).

use pandemonium_game_contract::{Chance, ConfigError, Seat, SeatSet, SeededChance, shuffle};

use crate::cards::{Card, Figure};
use crate::config::{DemosConfig, Rules, Seating};
use crate::harmony::Held;
use crate::state::{Demos, Player, Step};
use crate::turns::HAND;

/// A rigged start for tests: nothing is left to a seed's shuffle.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rigging {
    /// The dealer of the first round played.
    pub dealer: Seat,
    /// The People's Pack of each round in turn, top card first; dealing takes five cards each,
    /// one by one from the dealer's left. Rounds beyond the list are shuffled.
    pub decks: Vec<Vec<Card>>,
    /// The Power Pile, top figure first.
    pub power_pile: Vec<Figure>,
    /// Figures each seat already holds, face down, in acquisition order (empty: none).
    pub figures: Vec<Vec<Figure>>,
    /// Cumulative points each seat already has (empty: none).
    pub points: Vec<u16>,
    /// Rounds already played before the first rigged one (they count toward the cap).
    pub rounds_played: u8,
    /// Vetoes left per team (per seat in individual games); `None`: the starting vetoes.
    pub vetoes: Option<Vec<u8>>,
}

impl Demos {
    /// A match with the exact packs of each round (top card first) and Power Pile (top first),
    /// dealt by `dealer` first.
    pub fn rigged(
        config: &DemosConfig,
        seats: u8,
        dealer: Seat,
        decks: Vec<Vec<Card>>,
        power_pile: Vec<Figure>,
    ) -> Result<Demos, ConfigError> {
        Demos::from_rigging(
            config,
            seats,
            Rigging {
                dealer,
                decks,
                power_pile,
                ..Rigging::default()
            },
        )
    }

    /// A match set up exactly as `rigging` says.
    pub fn from_rigging(
        config: &DemosConfig,
        seats: u8,
        rigging: Rigging,
    ) -> Result<Demos, ConfigError> {
        let rules = Rules::new(config, seats)?;
        let bad = |reason: String| Err(ConfigError::option("rigging", reason));
        if rigging.dealer >= seats {
            return bad(format!("there is no seat {}", rigging.dealer));
        }
        for deck in &rigging.decks {
            let mut sorted = deck.clone();
            sorted.sort();
            sorted.dedup();
            if sorted.len() != deck.len() || deck.len() < HAND * seats as usize {
                return bad("each pack holds distinct cards, enough for the deal".into());
            }
            if !rules.mode.is_complete() && deck.iter().any(|c| c.rank() == 1) {
                return bad("the simplified game has no aces".into());
            }
        }
        let mut game = Demos::blank(rules, seats);
        game.dealer = rigging.dealer;
        game.round = rigging.rounds_played;
        game.rigged_decks = rigging.decks;
        game.power_pile = rigging.power_pile.into_iter().rev().collect();
        for (player, figures) in game.players.iter_mut().zip(rigging.figures) {
            player.figures = figures.into_iter().map(Held::face_down).collect();
        }
        for (player, points) in game.players.iter_mut().zip(rigging.points) {
            player.points = points;
        }
        if let Some(vetoes) = rigging.vetoes {
            if vetoes.len() != game.vetoes.len() {
                return bad("give the vetoes of every team (every seat)".into());
            }
            game.vetoes = vetoes;
        }
        // Only a round beyond the rigged packs would shuffle.
        game.begin(&mut SeededChance::from_u64(0));
        Ok(game)
    }

    /// A shuffled match: the first dealer is drawn, the Power Pile shuffled.
    pub(crate) fn shuffled(
        config: &DemosConfig,
        seats: u8,
        chance: &mut dyn Chance,
    ) -> Result<Demos, ConfigError> {
        let mut rules = Rules::new(config, seats)?;
        if config.seating == Seating::Drawn
            && let Some(teams) = &mut rules.teams
        {
            // Drawing lots: the same team sizes, dealt to the seats at random.
            shuffle(teams, chance);
        }
        let mut game = Demos::blank(rules, seats);
        let mut pile = Figure::pile(game.mode().is_complete());
        shuffle(&mut pile, chance);
        game.power_pile = pile;
        game.dealer = chance.below(seats as u32) as Seat;
        game.begin(chance);
        Ok(game)
    }

    fn blank(rules: Rules, seats: u8) -> Demos {
        let vetoes = rules.starting_vetoes(seats);
        Demos {
            rules,
            seats,
            dealer: 0,
            round: 0,
            peoples_pack: Vec::new(),
            power_pile: Vec::new(),
            players: vec![
                Player {
                    hand: Vec::with_capacity(HAND),
                    points: 0,
                    round_points: Vec::new(),
                    figures: Vec::new(),
                    declaration: None,
                    turns: [None; 3],
                };
                seats as usize
            ],
            vetoes,
            step: Step::Over,
            commits: vec![None; seats as usize],
            veto: None,
            last_round: None,
            scandal: Vec::new(),
            election: None,
            outcome: None,
            rigged_decks: Vec::new(),
        }
    }

    /// The Creator's Suggestion's declarations come before anything else; then the first round.
    fn begin(&mut self, chance: &mut dyn Chance) {
        if self.rules.suggestion {
            self.step = Step::Declaration {
                waiting: SeatSet::all(self.seats),
            };
        } else {
            self.start_round(chance);
        }
    }
}
