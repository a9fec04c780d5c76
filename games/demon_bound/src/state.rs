//! The state of a match as plain data, and the queries the rest of the engine shares.

use pandemonium_game_contract::{Outcome, Seat, SeatSet, Viewer};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::cards::{Card, Suit, total};
use crate::config::DemonBoundConfig;
use crate::log::{Event, LOG_LENGTH};

/// Cards a hand is refreshed to.
pub const HAND: usize = 6;
/// Solitaire: the treasure needed to win.
pub const SOLITAIRE_TARGET: u32 = 20;

/// A player's secret setup choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "kind")]
#[ts(export_to = "demon_bound/")]
pub enum SetupChoice {
    Sacrifice { card: Card },
    Discard,
}

/// What a Treasure Scrying showed its caster: the hand peeked at, and what was taken from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "demon_bound/")]
pub struct Peek {
    pub target: Seat,
    pub hand: Vec<Card>,
    pub taken: Vec<Card>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Player {
    pub hand: Vec<Card>,
    /// Hearts before the player, in the order played.
    pub sacrifice: Vec<Card>,
    /// Demons before the player (summoned onto the sacrifice or attacking), arrival order.
    pub threats: Vec<Card>,
    /// Bound demons, to the player's right.
    pub bound: Vec<Card>,
    /// Diamonds, to the player's left.
    pub treasury: Vec<Card>,
    pub stain: u8,
    /// Carried away to hell: the order of elimination (1 = first out).
    pub out: Option<u8>,
    pub commit: Option<SetupChoice>,
    /// This player's Treasure Scrying peeks, kept until their next turn begins.
    pub peeks: Vec<Peek>,
}

impl Player {
    pub fn new() -> Player {
        Player {
            hand: Vec::with_capacity(HAND + 3),
            sacrifice: Vec::new(),
            threats: Vec::new(),
            bound: Vec::new(),
            treasury: Vec::new(),
            stain: 1,
            out: None,
            commit: None,
            peeks: Vec::new(),
        }
    }

    pub fn wealth(&self) -> u32 {
        total(&self.treasury)
    }

    pub fn sacrifice_total(&self) -> u32 {
        total(&self.sacrifice)
    }

    pub fn holds(&self, card: Card) -> bool {
        self.hand.contains(&card)
    }

    /// Removes one copy of `card` from the hand; false if it is not there.
    pub fn take(&mut self, card: Card) -> bool {
        take(&mut self.hand, card)
    }
}

/// Removes one copy of `card` from `cards`; false if it is not there.
pub(crate) fn take(cards: &mut Vec<Card>, card: Card) -> bool {
    match cards.iter().position(|&c| c == card) {
        Some(i) => {
            cards.remove(i);
            true
        }
        None => false,
    }
}

/// Why a demon waits for someone to choose its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "demon_bound/")]
pub enum Why {
    /// Auto-appeased when summoned onto the decider's sacrifice.
    Appeased,
    /// Released when the decider was carried away to hell.
    Released,
}

/// A decision someone other than (or besides) the player in turn must make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "demon_bound/")]
pub struct Pending {
    pub decider: Seat,
    pub demon: Card,
    pub why: Why,
}

/// Where the match stands.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Step {
    /// Everyone chooses a sacrifice or a random discard, in secret.
    Setup,
    /// Step 2 of the turn: play a card (once), banish (any number of times).
    Play {
        played: bool,
    },
    /// A face card's spell being cast.
    Spell {
        card: Card,
        left: u8,
        /// Treasure Scrying: the hand being peeked at, and every hand peeked at so far.
        scrying: Option<Seat>,
        scried: SeatSet,
    },
    /// Step 3 of the turn.
    Discard,
    /// A player was carried away to hell; their released demons are being sent.
    Releasing,
    Over,
}

/// Why the match ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "demon_bound/")]
pub enum Ending {
    /// All ten numbered diamonds are in survivors' treasuries.
    TreasuresClaimed,
    LastSurvivor,
    RoundCap,
    ReshuffleCap,
    /// Solitaire: the draw pile ran out.
    DeckExhausted,
    /// Solitaire: the player was carried away to hell.
    CarriedAway,
}

/// A match of Demon Bound!.
#[derive(Debug, Clone, PartialEq)]
pub struct DemonBound {
    pub(crate) config: DemonBoundConfig,
    pub(crate) seats: u8,
    /// The draw pile, top card last.
    pub(crate) draw: Vec<Card>,
    /// The discard pile, top card last. Public.
    pub(crate) discard: Vec<Card>,
    pub(crate) players: Vec<Player>,
    pub(crate) turn: Seat,
    pub(crate) first: Seat,
    /// Full rounds played.
    pub(crate) rounds: u16,
    pub(crate) reshuffles: u8,
    pub(crate) step: Step,
    /// Decisions waiting, first to be made first.
    pub(crate) pending: Vec<Pending>,
    /// Demons before the player in turn when the turn began (proposal 11).
    pub(crate) turn_start: Vec<Card>,
    /// The strongest of those: the only one that can stain this turn (proposal 12).
    pub(crate) active: Option<Card>,
    pub(crate) eliminated: u8,
    pub(crate) log: Vec<Event>,
    /// Events ever logged (the log keeps the latest).
    pub(crate) logged: u32,
    pub(crate) ending: Option<Ending>,
    pub(crate) outcome: Option<Outcome>,
}

impl DemonBound {
    pub(crate) fn solitaire(&self) -> bool {
        self.seats == 1
    }

    pub(crate) fn player(&self, seat: Seat) -> &Player {
        &self.players[seat as usize]
    }

    pub(crate) fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[seat as usize]
    }

    pub(crate) fn alive(&self, seat: Seat) -> bool {
        seat < self.seats && self.player(seat).out.is_none()
    }

    /// Players still in the game, clockwise from `from` (included first when alive).
    pub(crate) fn clockwise_from(&self, from: Seat) -> impl Iterator<Item = Seat> + '_ {
        (0..self.seats)
            .map(move |step| (from + step) % self.seats)
            .filter(|&s| self.alive(s))
    }

    /// The opponents `seat` may send a demon to, clockwise from its left: the first is the
    /// documented default.
    pub(crate) fn opponents(&self, seat: Seat) -> Vec<Seat> {
        self.clockwise_from((seat + 1) % self.seats)
            .filter(|&s| s != seat)
            .collect()
    }

    pub(crate) fn survivors(&self) -> usize {
        (0..self.seats).filter(|&s| self.alive(s)).count()
    }

    /// Demons before the player in turn that they may deal with this turn: there since the
    /// turn began and still there.
    pub(crate) fn answerable(&self) -> impl Iterator<Item = Card> + '_ {
        let threats = &self.player(self.turn).threats;
        self.turn_start
            .iter()
            .copied()
            .filter(move |d| threats.contains(d))
    }

    /// The strongest demon in `demons`; on equal strength the first to arrive.
    pub(crate) fn strongest(demons: &[Card]) -> Option<Card> {
        demons
            .iter()
            .copied()
            .reduce(|best, d| if d.value() > best.value() { d } else { best })
    }

    /// Who has the demon `demon` on the table, and whether it is bound (else before them).
    pub(crate) fn find_demon(&self, demon: Card) -> Option<(Seat, bool)> {
        (0..self.seats).filter(|&s| self.alive(s)).find_map(|s| {
            let p = self.player(s);
            if p.threats.contains(&demon) {
                Some((s, false))
            } else if p.bound.contains(&demon) {
                Some((s, true))
            } else {
                None
            }
        })
    }

    pub(crate) fn numbered_diamonds(cards: &[Card]) -> impl Iterator<Item = Card> + '_ {
        cards
            .iter()
            .copied()
            .filter(|c| c.is_numbered_of(Suit::Diamonds))
    }

    pub(crate) fn record(&mut self, event: Event) {
        if self.log.len() == LOG_LENGTH {
            self.log.remove(0);
        }
        self.log.push(event);
        self.logged += 1;
    }

    /// Once the match is over every view reveals everything; `Omniscient` always does.
    pub(crate) fn sees_all(&self, viewer: Viewer) -> bool {
        viewer == Viewer::Omniscient || self.outcome.is_some()
    }

    /// Whether `viewer` sees `seat`'s hand: their own, and the hand their Treasure Scrying is
    /// peeking at while the spell lasts.
    pub(crate) fn sees_hand(&self, viewer: Viewer, seat: Seat) -> bool {
        if self.sees_all(viewer) || viewer == Viewer::Seat(seat) {
            return true;
        }
        matches!(
            (&self.step, viewer),
            (Step::Spell { scrying: Some(target), .. }, Viewer::Seat(me))
                if *target == seat && me == self.turn && self.pending.is_empty()
        )
    }

    /// Seats that must act now.
    pub(crate) fn waiting(&self) -> SeatSet {
        if self.outcome.is_some() {
            return SeatSet::EMPTY;
        }
        if let Some(p) = self.pending.first() {
            return SeatSet::only(p.decider);
        }
        match self.step {
            Step::Setup => (0..self.seats)
                .filter(|&s| self.player(s).commit.is_none())
                .collect(),
            Step::Over => SeatSet::EMPTY,
            Step::Releasing => SeatSet::EMPTY,
            _ => SeatSet::only(self.turn),
        }
    }
}
