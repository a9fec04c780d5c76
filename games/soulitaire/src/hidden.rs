//! Re-dealing what a viewer cannot see, for the conformance harness's no-leak check.

use pandemonium_game_contract::{Chance, Viewer, shuffle};

use crate::cards::{Card, Demon};
use crate::config::DemonPileVisibility;
use crate::state::{COLUMNS, Soulitaire};

impl Soulitaire {
    /// Shuffles the face-down Spellboard cards (with those uncovered during a sacrifice under
    /// way, not yet turned up) together with the set-aside cards back into those places, and the hidden demons of the pile together with the unused roster. What
    /// is face up, on a foundation, or on top of the pile stays put.
    pub(crate) fn redealt(&self, viewer: Viewer, chance: &mut dyn Chance) -> Soulitaire {
        let mut copy = self.clone();
        if viewer == Viewer::Omniscient || !self.is_playing() {
            return copy;
        }
        let veiled: [bool; COLUMNS] = std::array::from_fn(|c| self.is_veiled(c));
        let mut cards: Vec<Card> = copy
            .spellboard
            .iter_mut()
            .zip(veiled)
            .flat_map(|(column, veiled)| column.hidden_mut(veiled).to_vec())
            .chain(copy.set_aside.iter().copied())
            .collect();
        shuffle(&mut cards, chance);
        let mut dealt = cards.into_iter();
        for (column, veiled) in copy.spellboard.iter_mut().zip(veiled) {
            for slot in column.hidden_mut(veiled) {
                *slot = dealt.next().expect("as many cards as hidden places");
            }
        }
        for slot in &mut copy.set_aside {
            *slot = dealt.next().expect("as many cards as hidden places");
        }

        let first_hidden = match self.config.demon_pile {
            DemonPileVisibility::TopOnly => self.next_demon as usize + 1,
            DemonPileVisibility::Spread => self.demons.len(),
        }
        .min(self.demons.len());
        let mut demons: Vec<Demon> = copy.demons[first_hidden..]
            .iter()
            .chain(copy.unused_demons.iter())
            .copied()
            .collect();
        shuffle(&mut demons, chance);
        let unused = demons.split_off(self.demons.len() - first_hidden);
        copy.demons.truncate(first_hidden);
        copy.demons.extend(demons);
        copy.unused_demons = unused;
        copy
    }
}
