//! The components: suits, the rank cycle, Ritual cards and Mimics, Demon cards and their
//! symbols.
//!
//! Everything here is a small `Copy` value, because the engine and the solver copy cards around
//! on every move and search step.

use serde::{Deserialize, Serialize};
use std::fmt;
use ts_rs::TS;

/// One of the four suits. Their display names and glyphs are house data (`data::SUITS`); the
/// wire names stay neutral (`s1`..`s4`) so real names can replace the house set without
/// touching saved matches.
#[derive(Serialize, Deserialize, TS, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "SoulitaireSuit", export_to = "soulitaire/")]
pub enum Suit {
    S1,
    S2,
    S3,
    S4,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::S1, Suit::S2, Suit::S3, Suit::S4];

    pub fn index(self) -> usize {
        self as usize
    }

    /// The house display name ("Skulls").
    pub fn name(self) -> &'static str {
        crate::data::SUITS[self.index()].name
    }

    /// The house glyph ("☠").
    pub fn glyph(self) -> &'static str {
        crate::data::SUITS[self.index()].glyph
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rank in the cycle `A 2 3 4 5 6 7 8 9 10 E S K (A)`. E and S are Realm Wardens (what the
/// letters stand for is not known), K is the Keeper.
#[derive(Serialize, Deserialize, TS, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[ts(rename = "SoulitaireRank", export_to = "soulitaire/")]
pub enum Rank {
    #[serde(rename = "A")]
    Ace,
    #[serde(rename = "2")]
    Two,
    #[serde(rename = "3")]
    Three,
    #[serde(rename = "4")]
    Four,
    #[serde(rename = "5")]
    Five,
    #[serde(rename = "6")]
    Six,
    #[serde(rename = "7")]
    Seven,
    #[serde(rename = "8")]
    Eight,
    #[serde(rename = "9")]
    Nine,
    #[serde(rename = "10")]
    Ten,
    #[serde(rename = "E")]
    E,
    #[serde(rename = "S")]
    S,
    #[serde(rename = "K")]
    Keeper,
}

impl Rank {
    /// The cycle in order: index 0 is the Ace, 12 the Keeper.
    pub const ALL: [Rank; 13] = [
        Rank::Ace,
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::E,
        Rank::S,
        Rank::Keeper,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(index: usize) -> Rank {
        Rank::ALL[index % 13]
    }

    /// One rank up the cycle (the Keeper wraps to the Ace).
    pub fn up(self) -> Rank {
        Rank::from_index(self.index() + 1)
    }

    /// One rank down the cycle (the Ace wraps to the Keeper).
    pub fn down(self) -> Rank {
        Rank::from_index(self.index() + 12)
    }

    /// Whether the two ranks are neighbours in the cycle: "you can place an Ace onto a Keeper
    /// or a 2". A rank is not adjacent to itself.
    pub fn is_adjacent(self, other: Rank) -> bool {
        self.up() == other || self.down() == other
    }

    /// The label printed on the card.
    pub fn label(self) -> &'static str {
        [
            "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "E", "S", "K",
        ][self.index()]
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A suit and a rank: what a Ritual card shows, or what a Mimic has been declared as.
#[derive(Serialize, Deserialize, TS, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[ts(rename = "SoulitaireFace", export_to = "soulitaire/")]
pub struct Face {
    pub suit: Suit,
    pub rank: Rank,
}

impl Face {
    pub fn new(suit: Suit, rank: Rank) -> Face {
        Face { suit, rank }
    }

    /// All 52 faces, suit by suit.
    pub fn all() -> impl Iterator<Item = Face> {
        Suit::ALL
            .into_iter()
            .flat_map(|suit| Rank::ALL.into_iter().map(move |rank| Face { suit, rank }))
    }

    pub fn matches(self, symbol: Symbol) -> bool {
        match symbol {
            Symbol::Suit(suit) => self.suit == suit,
            Symbol::Rank(rank) => self.rank == rank,
        }
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} of {}", self.rank, self.suit)
    }
}

/// A card of the 54-card Ritual deck: 52 Ritual cards (one per suit and rank) and two Mimics.
/// The two Mimics are identical, so they carry no identity.
#[derive(Serialize, Deserialize, TS, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(rename = "SoulitaireCard", export_to = "soulitaire/")]
pub enum Card {
    Ritual { suit: Suit, rank: Rank },
    Mimic,
}

impl Card {
    pub fn new(suit: Suit, rank: Rank) -> Card {
        Card::Ritual { suit, rank }
    }

    /// The face of a Ritual card; `None` for a Mimic, which has none until declared.
    pub fn face(self) -> Option<Face> {
        match self {
            Card::Ritual { suit, rank } => Some(Face { suit, rank }),
            Card::Mimic => None,
        }
    }

    pub fn is_mimic(self) -> bool {
        self == Card::Mimic
    }

    /// The whole Ritual deck, unshuffled: 52 faces then the two Mimics.
    pub fn deck() -> Vec<Card> {
        let mut deck: Vec<Card> = Face::all().map(Card::from).collect();
        deck.extend([Card::Mimic, Card::Mimic]);
        deck
    }
}

impl From<Face> for Card {
    fn from(face: Face) -> Card {
        Card::Ritual {
            suit: face.suit,
            rank: face.rank,
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.face() {
            Some(face) => face.fmt(f),
            None => f.write_str("Mimic"),
        }
    }
}

/// A symbol on a Demon card: a suit or a rank.
#[derive(Serialize, Deserialize, TS, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "SoulitaireSymbol", export_to = "soulitaire/")]
pub enum Symbol {
    Suit(Suit),
    Rank(Rank),
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Symbol::Suit(suit) => suit.fmt(f),
            Symbol::Rank(rank) => rank.fmt(f),
        }
    }
}

/// A Demon card: a name and one to four symbols (repeats allowed: each copy takes a card).
/// The symbols are a static slice so a demon is a cheap `Copy` value; rosters are data
/// (`data::ROSTER`), and tests build their own with string and slice literals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Demon {
    pub name: &'static str,
    pub symbols: &'static [Symbol],
}

impl Demon {
    pub const fn new(name: &'static str, symbols: &'static [Symbol]) -> Demon {
        Demon { name, symbols }
    }
}

impl fmt::Display for Demon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}
