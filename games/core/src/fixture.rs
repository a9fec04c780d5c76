//! Twenty-One, a tiny fixture game for testing the platform itself (the harness, the server's
//! rooms, reconnects, limits) without depending on a real game's rules. It is never listed in
//! the lobby.
//!
//! A deck of cards 1..=10, twice, is shuffled. Each seat is dealt one card face down. Seats
//! take turns clockwise: `Draw` takes the top card (face down), `Stand` ends that seat's play.
//! A seat that holds four cards stands automatically. Once every seat stands the hands are
//! revealed: the highest total not over 21 wins (ties share). Hidden: other hands, the deck.

use serde::{Deserialize, Serialize};

pub mod race;

use crate::{
    Chance, ConfigError, Conformance, Game, GameInfo, Outcome, Seat, SeatSet, SharedRefusal,
    Viewer, shuffle,
};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// A deliberately broken variant whose views show every hand: the harness must catch it.
    pub leak_hands: bool,
    /// A deliberately broken variant that panics when anyone stands: the server must contain
    /// the panic to this one room.
    pub explode: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Action {
    Draw,
    Stand,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct View {
    /// Your own cards (none for spectators); everyone's once the game is over.
    pub hands: Vec<Option<Vec<u8>>>,
    pub hand_sizes: Vec<u8>,
    pub standing: Vec<bool>,
    pub deck: u8,
    pub turn: Option<Seat>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TwentyOne {
    config: Config,
    deck: Vec<u8>,
    hands: Vec<Vec<u8>>,
    standing: Vec<bool>,
    turn: Option<Seat>,
}

const MAX_CARDS: usize = 4;

impl TwentyOne {
    fn total(&self, seat: usize) -> u8 {
        self.hands[seat].iter().sum()
    }

    /// Passes the turn to the next seat still playing, clockwise.
    fn advance(&mut self, from: Seat) {
        let seats = self.hands.len();
        self.turn = (1..=seats)
            .map(|step| ((from as usize + step) % seats) as Seat)
            .find(|&s| !self.standing[s as usize]);
    }

    /// A rigged deal for tests: `hands` dealt, `deck` drawn from the front.
    pub fn rigged(hands: Vec<Vec<u8>>, deck: Vec<u8>) -> Self {
        let seats = hands.len();
        TwentyOne {
            config: Config::default(),
            deck,
            hands,
            standing: vec![false; seats],
            turn: Some(0),
        }
    }
}

impl Game for TwentyOne {
    type Config = Config;
    type Action = Action;
    type View = View;
    type Error = SharedRefusal;

    fn info() -> GameInfo {
        GameInfo {
            id: "twenty_one".into(),
            name: "Twenty-One (test fixture)".into(),
            short_name: "Twenty-One".into(),
            min_seats: 1,
            max_seats: 4,
            description: "Draw towards 21 without going over.".into(),
            options: Vec::new(),
            teams: false,
            real_time: false,
            board: None,
            score_unit: "the hand's total (over 21 is bust)".into(),
            glyph: "✦".into(),
            hue: 40,
        }
    }

    fn new(config: &Config, seats: u8, chance: &mut dyn Chance) -> Result<Self, ConfigError> {
        ConfigError::check_seats(&Self::info(), seats)?;
        let mut deck: Vec<u8> = (1..=10).chain(1..=10).collect();
        shuffle(&mut deck, chance);
        let hands = (0..seats)
            .map(|_| vec![deck.pop().expect("20 cards")])
            .collect();
        Ok(TwentyOne {
            config: config.clone(),
            deck,
            hands,
            standing: vec![false; seats as usize],
            turn: Some(0),
        })
    }

    fn to_act(&self) -> SeatSet {
        self.turn.map(SeatSet::only).unwrap_or_default()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.turn == Some(seat) {
            vec![Action::Draw, Action::Stand]
        } else {
            Vec::new()
        }
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        _: &mut dyn Chance,
    ) -> Result<(), SharedRefusal> {
        match self.turn {
            None => return Err(SharedRefusal::MatchOver),
            Some(turn) if turn != seat => return Err(SharedRefusal::NotYourTurn),
            Some(_) => {}
        }
        let s = seat as usize;
        match action {
            Action::Draw => {
                let card = self.deck.pop().expect("20 cards cover four hands of four");
                self.hands[s].push(card);
                if self.hands[s].len() >= MAX_CARDS {
                    self.standing[s] = true;
                }
            }
            Action::Stand if self.config.explode => panic!("the exploding fixture exploded"),
            Action::Stand => self.standing[s] = true,
        }
        self.advance(seat);
        Ok(())
    }

    fn view(&self, viewer: Viewer) -> View {
        let over = self.turn.is_none();
        let sees = |seat: usize| {
            over || self.config.leak_hands
                || matches!(viewer, Viewer::Omniscient)
                || viewer == Viewer::Seat(seat as Seat)
        };
        View {
            hands: (0..self.hands.len())
                .map(|s| sees(s).then(|| self.hands[s].clone()))
                .collect(),
            hand_sizes: self.hands.iter().map(|h| h.len() as u8).collect(),
            standing: self.standing.clone(),
            deck: self.deck.len() as u8,
            turn: self.turn,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.turn.is_some() {
            return None;
        }
        let scores: Vec<i64> = (0..self.hands.len())
            .map(|s| match self.total(s) {
                t if t > 21 => 0,
                t => t as i64,
            })
            .collect();
        let placements: Vec<u8> = scores
            .iter()
            .map(|mine| 1 + scores.iter().filter(|other| *other > mine).count() as u8)
            .collect();
        let winners = (0..scores.len() as Seat)
            .filter(|&s| placements[s as usize] == 1)
            .collect();
        Some(Outcome {
            winners,
            placements,
            summary: format!("Totals: {scores:?}"),
            scores,
        })
    }

    fn default_action(&self, seat: Seat) -> Option<Action> {
        (self.turn == Some(seat)).then_some(Action::Stand)
    }
}

impl Conformance for TwentyOne {
    fn redeal_hidden(&self, viewer: Viewer, chance: &mut dyn Chance) -> Self {
        // (The leaky variant re-deals like the honest one; its views then change with the
        // re-deal, which is exactly the leak the harness must see.)
        if self.turn.is_none() || viewer == Viewer::Omniscient {
            return self.clone();
        }
        let mut copy = self.clone();
        let mut pool: Vec<u8> = copy.deck.clone();
        for (s, hand) in copy.hands.iter().enumerate() {
            if viewer != Viewer::Seat(s as Seat) {
                pool.extend(hand);
            }
        }
        shuffle(&mut pool, chance);
        for (s, hand) in copy.hands.iter_mut().enumerate() {
            if viewer != Viewer::Seat(s as Seat) {
                for card in hand.iter_mut() {
                    *card = pool.pop().expect("as many cards as taken");
                }
            }
        }
        copy.deck = pool;
        copy
    }

    fn arbitrary_action(&self, chance: &mut dyn Chance) -> Action {
        if chance.below(2) == 0 {
            Action::Draw
        } else {
            Action::Stand
        }
    }

    fn max_actions(_: &Config, seats: u8) -> usize {
        seats as usize * MAX_CARDS
    }

    fn conformance_configs() -> Vec<(Config, u8)> {
        (1..=4).map(|seats| (Config::default(), seats)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{SeededChance, conformance};

    #[test]
    fn the_fixture_passes_the_conformance_harness() {
        conformance::check::<TwentyOne>(200);
    }

    #[test]
    #[should_panic(expected = "leaks")]
    fn the_harness_catches_a_view_that_shows_other_hands() {
        let leaky = Config {
            leak_hands: true,
            ..Config::default()
        };
        conformance::play_one::<TwentyOne>(&leaky, 3, 1);
    }

    #[test]
    fn drawing_takes_the_top_card_and_passes_the_turn() {
        let mut game = TwentyOne::rigged(vec![vec![5], vec![9]], vec![2, 7]);
        let mut chance = crate::ScriptedChance::new([]);
        game.apply(0, &Action::Draw, &mut chance).unwrap();
        assert_eq!(game.hands[0], vec![5, 7]);
        assert_eq!(game.to_act(), SeatSet::only(1));
        assert_eq!(
            game.apply(0, &Action::Stand, &mut chance),
            Err(SharedRefusal::NotYourTurn)
        );
    }

    #[test]
    fn a_shared_refusal_goes_out_with_its_own_code_and_no_rule_of_the_game() {
        use crate::{Engine, ErrorCode, RandomBot, RuleError};
        assert_eq!(SharedRefusal::NotYourTurn.rule(), "not_your_turn");
        assert_eq!(
            RuleError::code(&SharedRefusal::MatchOver),
            ErrorCode::MatchOver
        );
        let mut chance = SeededChance::from_u64(1);
        let game = TwentyOne::new(&Config::default(), 2, &mut chance).unwrap();
        let mut engine = Engine::<TwentyOne, RandomBot>::boxed(game);
        let refused = engine
            .apply(1, &serde_json::json!({"type": "draw"}), &mut chance)
            .unwrap_err();
        assert_eq!(
            (refused.code, refused.rule, refused.message.as_str()),
            (
                ErrorCode::NotYourTurn,
                None,
                "It is not your move: you have nothing to decide now."
            )
        );
    }
}
