//! One player's Klondike layout: seven tableau piles, the stock and the waste, and the
//! mechanical steps on them (dealing, turning three, turning the waste over, taking a run and
//! turning up the card beneath). Whether a move is *allowed* is decided in `rules`.

use crate::cards::Card;

/// Tableau piles in a layout.
pub const PILES: usize = 7;
/// Cards turned from the stock at a time.
pub const DRAW: usize = 3;

/// A tableau pile: face-down cards under a face-up run (bottom first in both).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Pile {
    pub down: Vec<Card>,
    pub up: Vec<Card>,
}

impl Pile {
    pub fn top(&self) -> Option<Card> {
        self.up.last().copied()
    }

    pub fn is_empty(&self) -> bool {
        self.down.is_empty() && self.up.is_empty()
    }

    pub fn len(&self) -> usize {
        self.down.len() + self.up.len()
    }

    /// Turns up the top face-down card if no face-up card covers it (proposal 9: automatic).
    /// Returns whether a card was turned.
    pub fn turn_up(&mut self) -> bool {
        if self.up.is_empty()
            && let Some(card) = self.down.pop()
        {
            self.up.push(card);
            return true;
        }
        false
    }
}

/// Where a playable card of a layout lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// The top of the waste.
    Waste,
    /// Face up in a tableau pile, at `index` within the face-up run (0 = the run's head).
    Pile { pile: usize, index: usize },
}

/// A player's layout. The stock's top is its last card; the waste's top is its last card.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Layout {
    pub piles: [Pile; PILES],
    pub stock: Vec<Card>,
    pub waste: Vec<Card>,
    /// How many cards of the latest draw still lie fanned on top of the waste (0 to 3): the
    /// ones everyone can see.
    pub fan: u8,
}

impl Layout {
    /// Deals a Klondike layout from `deck` (its top is the last card): piles of 1 to 7 cards
    /// with the top card face up, the other 24 cards to the stock. Nothing is turned yet.
    pub fn deal(mut deck: Vec<Card>) -> Layout {
        let mut piles: [Pile; PILES] = Default::default();
        for (n, pile) in piles.iter_mut().enumerate() {
            for _ in 0..n {
                pile.down.push(deck.pop().expect("a deck holds 52 cards"));
            }
            pile.up.push(deck.pop().expect("a deck holds 52 cards"));
        }
        Layout {
            piles,
            stock: deck,
            waste: Vec::new(),
            fan: 0,
        }
    }

    /// Turns up to three cards from the stock onto the waste, in the order they come off
    /// (proposal 2: fewer if fewer remain).
    pub fn draw(&mut self) {
        let n = DRAW.min(self.stock.len());
        for _ in 0..n {
            let card = self.stock.pop().expect("counted");
            self.waste.push(card);
        }
        self.fan = n as u8;
    }

    /// Turns the whole waste over to form a new stock. Turning a face-up heap over keeps its
    /// order: the card turned first comes off first again.
    pub fn recycle(&mut self) {
        self.stock = std::mem::take(&mut self.waste);
        self.stock.reverse();
        self.fan = 0;
    }

    pub fn waste_top(&self) -> Option<Card> {
        self.waste.last().copied()
    }

    /// The waste cards everyone sees, bottom first: the top card and the rest of the latest
    /// draw still fanned beneath it.
    pub fn visible_waste(&self) -> &[Card] {
        let shown = (self.fan as usize).max(1).min(self.waste.len());
        &self.waste[self.waste.len() - shown..]
    }

    /// Where `card` may be played from, if it is playable at all: the waste top or a face-up
    /// tableau card.
    pub fn find(&self, card: Card) -> Option<Place> {
        if self.waste_top() == Some(card) {
            return Some(Place::Waste);
        }
        self.piles.iter().enumerate().find_map(|(pile, p)| {
            p.up.iter()
                .position(|&c| c == card)
                .map(|index| Place::Pile { pile, index })
        })
    }

    /// The cards that move when `place` is played: the waste top alone, or the run from the
    /// card to the top of its pile.
    pub fn run_at(&self, place: Place) -> &[Card] {
        match place {
            Place::Waste => &self.waste[self.waste.len() - 1..],
            Place::Pile { pile, index } => &self.piles[pile].up[index..],
        }
    }

    /// Removes the cards at `place` and turns up the card they uncover. Returns the cards, and
    /// whether a face-down card was turned up.
    pub fn take(&mut self, place: Place) -> (Vec<Card>, bool) {
        match place {
            Place::Waste => {
                let card = self.waste.pop().expect("the waste has a top");
                self.fan = self.fan.saturating_sub(1);
                (vec![card], false)
            }
            Place::Pile { pile, index } => {
                let run = self.piles[pile].up.split_off(index);
                let turned = self.piles[pile].turn_up();
                (run, turned)
            }
        }
    }

    /// Every card still in the layout (tableau, stock and waste).
    pub fn cards_left(&self) -> usize {
        self.piles.iter().map(Pile::len).sum::<usize>() + self.stock.len() + self.waste.len()
    }
}
