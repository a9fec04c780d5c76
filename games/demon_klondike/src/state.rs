//! The match as plain data: every player's layout, the shared foundations, the deal under
//! way, and the results so far; dealing, ending a deal and scoring.

use pandemonium_game_contract::{Chance, Seat, SeatSet, shuffle};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::cards::{Card, Rank, Suit};
use crate::config::Config;
use crate::layout::Layout;
use crate::stalemate;

/// Cards in each player's deck: the "Demon!" count.
pub const DECK: u8 = 52;
/// Points for going out: 52 plus a ten-point bonus.
pub const DEMON_SCORE: u32 = 62;
/// A safeguard, not a rule: a deal ends as stalled once every seat still racing has made this
/// many actions since the last progress move by anyone. The idle time ends a stuck deal long
/// before people reach it; it only bounds a deal played by machines that never say they are
/// stuck. Counted per seat, so that one player turning their stock over and over cannot end
/// the deal while the others are still thinking.
pub const STALL_ACTIONS_PER_SEAT: u32 = 500;
/// The safeguard's hard bound, for a machine spinning alone beside seats that never act:
/// this many times `STALL_ACTIONS_PER_SEAT` per seat, by anyone. At the server's rate limit
/// (20 actions a second per connection) one connection takes 500 s to reach it at any table,
/// far past the idle time's default of 60 s.
pub const STALL_SPREAD: u32 = 10;

/// A shared foundation: one suit, built up from its Ace. It records whose card each one is
/// (each deck has its own back), from the Ace up.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Foundation {
    pub suit: Suit,
    pub owners: Vec<Seat>,
}

impl Foundation {
    /// The rank of the top card (0 for none: never, since an Ace starts every foundation).
    pub fn top_rank(&self) -> Rank {
        self.owners.len() as Rank
    }

    /// Whether `card` is the next card on this foundation.
    pub fn takes(&self, card: Card) -> bool {
        self.suit == card.suit() && self.top_rank() + 1 == card.rank()
    }
}

/// How a deal ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "kind")]
#[ts(rename = "DemonEnding", export_to = "demon_klondike/")]
pub enum Ending {
    /// `seat`'s 52nd card reached the foundations: "Demon!".
    Demon { seat: Seat },
    /// No player had a progress move left, however often they cycled their stock.
    Stalemate,
    /// Every player said "we're stuck" (or the idle time ran out).
    AllStuck,
    /// The safeguard: too many actions in a row with no progress move.
    Stalled,
}

/// One finished deal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "DemonDealResult", export_to = "demon_klondike/")]
pub struct DealResult {
    pub deal: u8,
    pub ending: Ending,
    /// Points per seat for this deal.
    pub scores: Vec<u32>,
}

/// Where the match stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Everyone is playing the current deal.
    Racing,
    /// A deal is over and scored; the next starts when every seat is ready.
    BetweenDeals {
        ready: SeatSet,
    },
    Over,
}

/// A match of Demon.
#[derive(Debug, Clone, PartialEq)]
pub struct DemonKlondike {
    pub(crate) config: Config,
    pub(crate) seats: u8,
    /// The current (or last finished) deal, from 1.
    pub(crate) deal: u8,
    pub(crate) layouts: Vec<Layout>,
    /// Foundations in the order their Aces arrived; an action names one by its index.
    pub(crate) foundations: Vec<Foundation>,
    /// Per seat: own cards on the foundations this deal.
    pub(crate) scored: Vec<u8>,
    pub(crate) phase: Phase,
    /// Seats that said "we're stuck" this deal: they have stopped racing.
    pub(crate) stuck: SeatSet,
    /// Progress moves so far this deal.
    pub(crate) progress: u32,
    /// Per seat: accepted actions since the last progress move by anyone.
    pub(crate) since_progress: Vec<u32>,
    /// Per seat: times the waste was turned over since the last progress move by anyone.
    pub(crate) idle_passes: Vec<u8>,
    pub(crate) results: Vec<DealResult>,
    pub(crate) totals: Vec<u32>,
}

impl DemonKlondike {
    pub(crate) fn empty(config: Config, seats: u8) -> Self {
        DemonKlondike {
            config,
            seats,
            deal: 0,
            layouts: Vec::new(),
            foundations: Vec::new(),
            scored: vec![0; seats as usize],
            phase: Phase::Racing,
            stuck: SeatSet::EMPTY,
            progress: 0,
            since_progress: vec![0; seats as usize],
            idle_passes: vec![0; seats as usize],
            results: Vec::new(),
            totals: vec![0; seats as usize],
        }
    }

    /// Deals the next deal from each player's freshly shuffled deck.
    pub(crate) fn deal_next(&mut self, chance: &mut dyn Chance) {
        let decks = (0..self.seats)
            .map(|_| {
                let mut deck = Card::deck();
                shuffle(&mut deck, chance);
                deck
            })
            .collect();
        self.start_deal(decks);
    }

    /// Deals a Klondike layout from each deck (its top is the last card), then gives the start
    /// signal: three cards are turned for everyone at once (proposal 1).
    pub(crate) fn start_deal(&mut self, decks: Vec<Vec<Card>>) {
        let layouts = decks
            .into_iter()
            .map(|deck| {
                let mut layout = Layout::deal(deck);
                layout.draw();
                layout
            })
            .collect();
        self.start_position(layouts, Vec::new());
    }

    /// Starts the next deal from a given position.
    pub(crate) fn start_position(&mut self, layouts: Vec<Layout>, foundations: Vec<Foundation>) {
        assert_eq!(layouts.len(), self.seats as usize, "a layout per seat");
        self.deal += 1;
        self.scored = (0..self.seats)
            .map(|seat| {
                let mine = foundations.iter().flat_map(|f| &f.owners);
                mine.filter(|&&owner| owner == seat).count() as u8
            })
            .collect();
        self.layouts = layouts;
        self.foundations = foundations;
        self.phase = Phase::Racing;
        self.stuck = SeatSet::EMPTY;
        self.progress = 0;
        self.since_progress = vec![0; self.seats as usize];
        self.idle_passes = vec![0; self.seats as usize];
        // A deal can be dead from the start (no one has a single progress move).
        if stalemate::nobody_can_progress(self) {
            self.end_deal(Ending::Stalemate);
        }
    }

    /// Records an accepted racing action and ends the deal if it is over: the "Demon!"
    /// instant, everyone stuck, the safeguard, or a stalemate.
    pub(crate) fn after_action(&mut self, seat: Seat, made_progress: bool) {
        if self.scored[seat as usize] == DECK {
            self.end_deal(Ending::Demon { seat });
            return;
        }
        if made_progress {
            self.progress += 1;
            self.since_progress.iter_mut().for_each(|n| *n = 0);
            self.idle_passes.iter_mut().for_each(|p| *p = 0);
        } else {
            self.since_progress[seat as usize] += 1;
        }
        if self.stuck == SeatSet::all(self.seats) {
            self.end_deal(Ending::AllStuck);
        } else if self.stalled() {
            self.end_deal(Ending::Stalled);
        } else if stalemate::nobody_can_progress(self) {
            self.end_deal(Ending::Stalemate);
        }
    }

    /// The safeguard: every seat still racing has spun `STALL_ACTIONS_PER_SEAT` times since the
    /// last progress move, or the table as a whole has reached the hard bound.
    fn stalled(&self) -> bool {
        let racing = (0..self.seats).filter(|&seat| !self.stuck.contains(seat));
        let all_spun = racing
            .map(|seat| self.since_progress[seat as usize])
            .all(|n| n >= STALL_ACTIONS_PER_SEAT);
        let total: u32 = self.since_progress.iter().sum();
        all_spun || total >= STALL_ACTIONS_PER_SEAT * STALL_SPREAD * self.seats as u32
    }

    /// Scores the deal (proposal 7) and moves on to the scores between deals, or ends the
    /// match after the last deal.
    pub(crate) fn end_deal(&mut self, ending: Ending) {
        let scores: Vec<u32> = (0..self.seats)
            .map(|seat| match ending {
                Ending::Demon { seat: out } if out == seat => DEMON_SCORE,
                _ => self.scored[seat as usize] as u32,
            })
            .collect();
        for (total, score) in self.totals.iter_mut().zip(&scores) {
            *total += score;
        }
        self.results.push(DealResult {
            deal: self.deal,
            ending,
            scores,
        });
        self.stuck = SeatSet::EMPTY;
        self.phase = if self.deal >= self.config.deals {
            Phase::Over
        } else {
            Phase::BetweenDeals {
                ready: SeatSet::EMPTY,
            }
        };
    }

    /// A rigged position for tests: the deal starts from these layouts and foundations
    /// (nothing is turned automatically). Each layout holds its seat's cards; a foundation
    /// records whose card each of its cards is. Later deals are shuffled as usual.
    pub fn rigged(config: Config, layouts: Vec<Layout>, foundations: Vec<Foundation>) -> Self {
        let mut game = DemonKlondike::empty(config, layouts.len() as u8);
        game.start_position(layouts, foundations);
        game
    }

    /// A rigged deal for tests: each seat's deck in order (the last card is the top, dealt
    /// first), dealt and started exactly as a shuffled deal is.
    pub fn rigged_decks(config: Config, decks: Vec<Vec<Card>>) -> Self {
        let mut game = DemonKlondike::empty(config, decks.len() as u8);
        game.start_deal(decks);
        game
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn seats(&self) -> u8 {
        self.seats
    }

    pub fn deal(&self) -> u8 {
        self.deal
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// A seat's layout (the real one, hidden cards included: for tests, never for views).
    pub fn layout(&self, seat: Seat) -> &Layout {
        &self.layouts[seat as usize]
    }

    pub fn foundations(&self) -> &[Foundation] {
        &self.foundations
    }

    pub fn results(&self) -> &[DealResult] {
        &self.results
    }

    pub fn totals(&self) -> &[u32] {
        &self.totals
    }

    /// Progress moves so far in this deal.
    pub fn progress(&self) -> u32 {
        self.progress
    }

    /// Seats that said "we're stuck" this deal.
    pub fn stuck(&self) -> SeatSet {
        self.stuck
    }
}
