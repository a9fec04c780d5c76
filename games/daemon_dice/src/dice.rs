//! The components: breeds, body parts and the faces a die can show.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A breed of daemon, shown by the colour of a die's plastic (flesh) and ink (blood).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "daemon_dice/")]
pub enum Breed {
    Blood,
    Death,
    Fester,
    Fire,
    Frost,
    Rot,
    Stench,
    Wraith,
}

impl Breed {
    pub const ALL: [Breed; 8] = [
        Breed::Blood,
        Breed::Death,
        Breed::Fester,
        Breed::Fire,
        Breed::Frost,
        Breed::Rot,
        Breed::Stench,
        Breed::Wraith,
    ];
}

/// A body part: what a die is, and the special face it bears.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "daemon_dice/")]
pub enum Part {
    Arm,
    Brain,
    Eye,
    Leg,
    Lungs,
    Mouth,
    Pincer,
    Shell,
    Spike,
    Stinger,
    Tail,
    Tentacle,
    Wings,
}

impl Part {
    pub const ALL: [Part; 13] = [
        Part::Arm,
        Part::Brain,
        Part::Eye,
        Part::Leg,
        Part::Lungs,
        Part::Mouth,
        Part::Pincer,
        Part::Shell,
        Part::Spike,
        Part::Stinger,
        Part::Tail,
        Part::Tentacle,
        Part::Wings,
    ];

    /// The face showing this body part.
    pub fn face(self) -> Face {
        match self {
            Part::Arm => Face::Arm,
            Part::Brain => Face::Brain,
            Part::Eye => Face::Eye,
            Part::Leg => Face::Leg,
            Part::Lungs => Face::Lungs,
            Part::Mouth => Face::Mouth,
            Part::Pincer => Face::Pincer,
            Part::Shell => Face::Shell,
            Part::Spike => Face::Spike,
            Part::Stinger => Face::Stinger,
            Part::Tail => Face::Tail,
            Part::Tentacle => Face::Tentacle,
            Part::Wings => Face::Wings,
        }
    }
}

/// What a rolled die shows: one of the seven symbols or a body part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "daemon_dice/")]
pub enum Face {
    Block,
    Deflect,
    Dodge,
    Minus,
    Plus,
    Stun,
    Wound,
    Arm,
    Brain,
    Eye,
    Leg,
    Lungs,
    Mouth,
    Pincer,
    Shell,
    Spike,
    Stinger,
    Tail,
    Tentacle,
    Wings,
}

/// The kind of defence a face can join: blocks, deflects and dodges never mix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "daemon_dice/")]
pub enum Guard {
    Block,
    Deflect,
    Dodge,
}

/// How an attack travels: rays (Eye) and sweeps (Tail) cannot be blocked; only they can be
/// dodged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "daemon_dice/")]
pub enum Reach {
    Normal,
    Ray,
    Sweep,
}

/// What an attack face does when it is not defended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strike {
    pub reach: Reach,
    pub stuns: u8,
    pub wounds: u8,
}

impl Face {
    /// The defence this face provides. The Arm is a deflect or an attack (proposal 2); the
    /// Shell is a deflect.
    pub fn guard(self) -> Option<Guard> {
        match self {
            Face::Block => Some(Guard::Block),
            Face::Deflect | Face::Shell | Face::Arm => Some(Guard::Deflect),
            Face::Dodge => Some(Guard::Dodge),
            _ => None,
        }
    }

    /// The attack this face makes, if it is one.
    pub fn strike(self) -> Option<Strike> {
        let s = |reach, stuns, wounds| {
            Some(Strike {
                reach,
                stuns,
                wounds,
            })
        };
        match self {
            Face::Stun | Face::Arm | Face::Mouth | Face::Stinger => s(Reach::Normal, 1, 0),
            Face::Wound | Face::Pincer => s(Reach::Normal, 0, 1),
            Face::Leg => s(Reach::Normal, 2, 0),
            Face::Eye => s(Reach::Ray, 1, 0),
            Face::Tail => s(Reach::Sweep, 2, 0),
            _ => None,
        }
    }

    /// Untargeted minuses this face sets aside against the foe (Lungs: two, as gas).
    pub fn minuses(self) -> u8 {
        match self {
            Face::Minus => 1,
            Face::Lungs => 2,
            _ => 0,
        }
    }

    /// Initiative points: dodges, pluses, minuses and Wings count one; Lungs count what the
    /// lobby chose (proposal 4: none by default).
    pub fn initiative(self, lungs: u8) -> u32 {
        match self {
            Face::Dodge | Face::Plus | Face::Minus | Face::Wings => 1,
            Face::Lungs => lungs as u32,
            _ => 0,
        }
    }
}

/// One die: its breed and its body part. Its six faces are data (the house table in `data`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "daemon_dice/")]
pub struct Die {
    pub breed: Breed,
    pub part: Part,
}

impl Die {
    pub fn new(breed: Breed, part: Part) -> Die {
        Die { breed, part }
    }

    /// The six faces of this die.
    pub fn faces(&self) -> [Face; 6] {
        crate::data::faces(self.breed, self.part)
    }

    /// The face shown by a d6 result (1 to 6).
    pub fn face(&self, d6: u8) -> Face {
        self.faces()[d6 as usize - 1]
    }
}
