//! Breeds of whole daemons (purebred, half-breed, mongrel), their immunities and the reach of
//! their powers (proposal 13).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::data::colours;
use crate::dice::{Breed, Die};

/// What a daemon is, from its dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "type", content = "breed")]
#[ts(export_to = "daemon_dice/")]
pub enum Lineage {
    /// Every die of one breed: immune to its own breed's rays, gas and poison, plus the breed's
    /// power (Frost, Rot, Fire).
    Purebred(Breed),
    /// At least half (not all) of one breed, its primary mix: immune to rays, gas and poison
    /// from dice sharing the primary plastic or the primary ink.
    HalfBreed(Breed),
    /// No two dice alike (same breed and body part): recovers one stunned die per turn free.
    Mongrel,
    /// None of the above: no power.
    Crossbred,
}

/// The two breeds an exact half-and-half daemon must choose between, if it is one.
pub fn declaration_needed(dice: &[Die]) -> Option<[Breed; 2]> {
    let n = dice.len();
    if !n.is_multiple_of(2) {
        return None;
    }
    let halves: Vec<Breed> = Breed::ALL
        .into_iter()
        .filter(|b| count(dice, *b) * 2 == n)
        .collect();
    (halves.len() == 2).then(|| [halves[0], halves[1]])
}

fn count(dice: &[Die], breed: Breed) -> usize {
    dice.iter().filter(|d| d.breed == breed).count()
}

/// Classifies a revealed daemon; `declared` settles an exact half-and-half split.
pub fn classify(dice: &[Die], declared: Option<Breed>) -> Lineage {
    let n = dice.len();
    if let Some(first) = dice.first()
        && count(dice, first.breed) == n
    {
        return Lineage::Purebred(first.breed);
    }
    if let Some(pair) = declaration_needed(dice) {
        let breed = declared.filter(|b| pair.contains(b)).unwrap_or(pair[0]);
        return Lineage::HalfBreed(breed);
    }
    // At least half: ceil(n / 2) dice of one mix.
    if let Some(breed) = Breed::ALL
        .into_iter()
        .find(|b| count(dice, *b) * 2 >= n && count(dice, *b) > 0)
    {
        return Lineage::HalfBreed(breed);
    }
    let alike = dice.iter().enumerate().any(|(i, a)| {
        dice[..i]
            .iter()
            .any(|b| a.breed == b.breed && a.part == b.part)
    });
    if alike {
        Lineage::Crossbred
    } else {
        Lineage::Mongrel
    }
}

impl Lineage {
    /// Whether rays, gas and poison from a die of `breed` have no effect on this daemon.
    pub fn immune_to(self, breed: Breed) -> bool {
        match self {
            Lineage::Purebred(own) => own == breed,
            Lineage::HalfBreed(primary) => {
                let (mine, theirs) = (colours(primary), colours(breed));
                mine.plastic == theirs.plastic || mine.ink == theirs.ink
            }
            Lineage::Mongrel | Lineage::Crossbred => false,
        }
    }

    /// Whether this is a purebred of `breed` (whose power then applies).
    pub fn is_pure(self, breed: Breed) -> bool {
        self == Lineage::Purebred(breed)
    }
}

/// How many times per turn a purebred power acts: one per started block of 13 dice.
pub fn power_level(size: u8) -> u8 {
    size.div_ceil(13)
}
