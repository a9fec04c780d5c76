//! THE HOUSE SET — component data the rulebook does not print.
//!
//! No public source gives the six faces of any Daemon Dice body-part die, nor the colours of
//! five of the eight breeds. Until real data is known, Pandemonium ships this placeholder
//! (rules page, proposal 1): every body-part die, of every breed, has the faces
//! `[that body part, Stun, Block, Dodge, Plus, Minus]`. Deflects then come only from Shells and
//! Arms and wounds only from Pincers, Spikes and Stingers, which is where the rulebook puts
//! them. Frost (blue/yellow) and Rot (black/red) are printed; Fire (red/yellow) is the maker's;
//! the other five colour pairs are ours. Replace these tables with real data when it is known:
//! no rules code needs to change.

use crate::dice::{Breed, Face, Part};

/// A breed's colours: plastic (flesh) and ink (blood).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colours {
    pub plastic: &'static str,
    pub ink: &'static str,
}

/// Every breed's colours, in [`Breed::ALL`] order. Each pair is distinct, so a breed is a
/// plastic/ink mix.
pub const COLOURS: [(Breed, Colours); 8] = [
    (Breed::Blood, c("red", "black")),
    (Breed::Death, c("white", "black")),
    (Breed::Fester, c("green", "red")),
    (Breed::Fire, c("red", "yellow")),
    (Breed::Frost, c("blue", "yellow")),
    (Breed::Rot, c("black", "red")),
    (Breed::Stench, c("brown", "green")),
    (Breed::Wraith, c("grey", "white")),
];

const fn c(plastic: &'static str, ink: &'static str) -> Colours {
    Colours { plastic, ink }
}

/// The house layout of each body part's die, the same for every breed.
pub const FACES: [(Part, [Face; 6]); 13] = [
    (Part::Arm, house(Face::Arm)),
    (Part::Brain, house(Face::Brain)),
    (Part::Eye, house(Face::Eye)),
    (Part::Leg, house(Face::Leg)),
    (Part::Lungs, house(Face::Lungs)),
    (Part::Mouth, house(Face::Mouth)),
    (Part::Pincer, house(Face::Pincer)),
    (Part::Shell, house(Face::Shell)),
    (Part::Spike, house(Face::Spike)),
    (Part::Stinger, house(Face::Stinger)),
    (Part::Tail, house(Face::Tail)),
    (Part::Tentacle, house(Face::Tentacle)),
    (Part::Wings, house(Face::Wings)),
];

/// `[PART, STUN, BLOCK, DODGE, PLUS, MINUS]`.
const fn house(part: Face) -> [Face; 6] {
    [
        part,
        Face::Stun,
        Face::Block,
        Face::Dodge,
        Face::Plus,
        Face::Minus,
    ]
}

/// The colours of `breed`.
pub fn colours(breed: Breed) -> Colours {
    COLOURS
        .iter()
        .find(|(b, _)| *b == breed)
        .map(|(_, c)| *c)
        .expect("every breed has colours")
}

/// The six faces of a `(breed, part)` die.
pub fn faces(_breed: Breed, part: Part) -> [Face; 6] {
    FACES
        .iter()
        .find(|(p, _)| *p == part)
        .map(|(_, f)| *f)
        .expect("every body part has faces")
}
