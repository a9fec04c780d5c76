//! What one viewer may see. During a deal everyone — players and spectators alike — sees the
//! same public table: face-up cards, the top of each waste with the rest of its latest draw
//! fanned beneath, every foundation with whose card each card is, and the size of every stock
//! and waste. Face-down cards and the stock order are hidden from everyone, their owner
//! included. Between deals and after the match everything is revealed.

use pandemonium_game_contract::{Seat, Viewer};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::cards::{Card, Suit};
use crate::config::RunMoves;
use crate::layout::Layout;
use crate::state::{DealResult, DemonKlondike, Phase};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "DemonPhase", export_to = "demon_klondike/")]
pub enum PhaseView {
    Racing,
    BetweenDeals,
    Over,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "DemonView", export_to = "demon_klondike/")]
pub struct View {
    /// The seat looking, if it is a player.
    pub you: Option<Seat>,
    pub runs: RunMoves,
    /// The current deal (or the one just finished), from 1, of `deals`.
    pub deal: u8,
    pub deals: u8,
    pub phase: PhaseView,
    /// One per seat.
    pub players: Vec<PlayerView>,
    /// The shared foundations in the order their Aces arrived: an action names one by its
    /// index here.
    pub foundations: Vec<FoundationView>,
    /// Seats that said "we're stuck" this deal: they have stopped racing.
    pub stuck: Vec<Seat>,
    /// Between deals: seats ready for the next one.
    pub ready: Vec<Seat>,
    /// Progress moves so far in this deal.
    pub progress: u32,
    pub results: Vec<DealResult>,
    /// Running totals per seat.
    pub totals: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "DemonPlayerView", export_to = "demon_klondike/")]
pub struct PlayerView {
    pub piles: Vec<PileView>,
    pub stock: u8,
    pub waste: u8,
    /// The waste cards showing, bottom first: the top card last, with up to two more of the
    /// latest draw fanned beneath it.
    pub fan: Vec<Card>,
    /// This player's cards on the foundations this deal.
    pub scored: u8,
    /// Times this player turned the waste over since the last progress move by anyone.
    pub idle_passes: u8,
    /// Everything else, once it may be seen (between deals, after the match, in a replay).
    pub revealed: Option<RevealedLayout>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "DemonPileView", export_to = "demon_klondike/")]
pub struct PileView {
    /// Face-down cards (their faces are hidden from everyone).
    pub down: u8,
    /// The face-up run, bottom first.
    pub up: Vec<Card>,
}

/// A layout's hidden cards, shown once the deal is over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "DemonRevealedLayout", export_to = "demon_klondike/")]
pub struct RevealedLayout {
    /// Each pile's face-down cards, bottom first.
    pub down: Vec<Vec<Card>>,
    /// The stock, next card to turn first.
    pub stock: Vec<Card>,
    /// The whole waste, bottom first.
    pub waste: Vec<Card>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(rename = "DemonFoundationView", export_to = "demon_klondike/")]
pub struct FoundationView {
    pub suit: Suit,
    /// Whose card each card is, from the Ace up (the top card's rank is the length).
    pub owners: Vec<Seat>,
}

impl DemonKlondike {
    /// Whether `viewer` sees every card now.
    pub(crate) fn reveals_all(&self, viewer: Viewer) -> bool {
        self.phase != Phase::Racing || viewer == Viewer::Omniscient
    }

    pub(crate) fn build_view(&self, viewer: Viewer) -> View {
        let revealed = self.reveals_all(viewer);
        let (phase, ready) = match self.phase {
            Phase::Racing => (PhaseView::Racing, Vec::new()),
            Phase::BetweenDeals { ready } => (PhaseView::BetweenDeals, ready.iter().collect()),
            Phase::Over => (PhaseView::Over, Vec::new()),
        };
        View {
            you: match viewer {
                Viewer::Seat(seat) if seat < self.seats => Some(seat),
                _ => None,
            },
            runs: self.config.runs,
            deal: self.deal,
            deals: self.config.deals,
            phase,
            players: self
                .layouts
                .iter()
                .enumerate()
                .map(|(seat, layout)| PlayerView {
                    piles: layout
                        .piles
                        .iter()
                        .map(|p| PileView {
                            down: p.down.len() as u8,
                            up: p.up.clone(),
                        })
                        .collect(),
                    stock: layout.stock.len() as u8,
                    waste: layout.waste.len() as u8,
                    fan: layout.visible_waste().to_vec(),
                    scored: self.scored[seat],
                    idle_passes: self.idle_passes[seat],
                    revealed: revealed.then(|| reveal(layout)),
                })
                .collect(),
            foundations: self
                .foundations
                .iter()
                .map(|f| FoundationView {
                    suit: f.suit,
                    owners: f.owners.clone(),
                })
                .collect(),
            stuck: self.stuck.iter().collect(),
            ready,
            progress: self.progress,
            results: self.results.clone(),
            totals: self.totals.clone(),
        }
    }
}

fn reveal(layout: &Layout) -> RevealedLayout {
    RevealedLayout {
        down: layout.piles.iter().map(|p| p.down.clone()).collect(),
        stock: layout.stock.iter().rev().copied().collect(),
        waste: layout.waste.clone(),
    }
}
