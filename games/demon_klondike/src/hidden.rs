//! Re-dealing what a viewer cannot see, for the conformance harness's no-leak check.
//!
//! During a deal every viewer sees the same public table, so the hidden cards are the same for
//! all: in each layout, the face-down tableau cards, the stock and the waste cards covered by
//! the top of the waste and its fan. They are shuffled together and put back into the same
//! places (the same counts per pile, stock and covered waste); nothing else moves.

use pandemonium_game_contract::{Chance, Viewer, shuffle};

use crate::state::DemonKlondike;

impl DemonKlondike {
    pub(crate) fn redealt(&self, viewer: Viewer, chance: &mut dyn Chance) -> DemonKlondike {
        let mut copy = self.clone();
        if self.reveals_all(viewer) {
            return copy;
        }
        for layout in &mut copy.layouts {
            let covered = layout.waste.len() - layout.visible_waste().len();
            let mut pool: Vec<_> = layout.waste[..covered].to_vec();
            pool.extend(layout.stock.iter().copied());
            for pile in &layout.piles {
                pool.extend(pile.down.iter().copied());
            }
            shuffle(&mut pool, chance);
            let mut pool = pool.into_iter();
            let mut refill = |slot: &mut crate::cards::Card| {
                *slot = pool.next().expect("as many cards as were taken");
            };
            layout.waste[..covered].iter_mut().for_each(&mut refill);
            layout.stock.iter_mut().for_each(&mut refill);
            for pile in &mut layout.piles {
                pile.down.iter_mut().for_each(&mut refill);
            }
        }
        copy
    }
}
