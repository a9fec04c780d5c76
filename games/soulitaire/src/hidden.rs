//! Re-dealing what a viewer cannot see, for the conformance harness's no-leak check.

use pandemonium_game::{Chance, Viewer, shuffle};

use crate::cards::{Card, Demon};
use crate::config::DemonPileVisibility;
use crate::state::Soulitaire;

impl Soulitaire {
    /// Shuffles the face-down Spellboard cards together with the set-aside cards back into
    /// those places, and the hidden demons of the pile together with the unused roster. What
    /// is face up, on a foundation, or on top of the pile stays put.
    pub(crate) fn redealt(&self, viewer: Viewer, chance: &mut dyn Chance) -> Soulitaire {
        let mut copy = self.clone();
        if viewer == Viewer::Omniscient || !self.is_playing() {
            return copy;
        }
        let mut cards: Vec<Card> = copy
            .spellboard
            .iter()
            .flat_map(|column| column.face_down().iter().copied())
            .chain(copy.set_aside.iter().copied())
            .collect();
        shuffle(&mut cards, chance);
        let mut dealt = cards.into_iter();
        for column in &mut copy.spellboard {
            for slot in column.face_down_mut() {
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
