//! THE HOUSE SET — component data the rulebook does not print.
//!
//! The suit names, their glyphs and the Demon roster below are Pandemonium's own placeholders
//! (rules page, proposals 1 and 11). The only known demon is Bosche the Plague Doctor, who
//! bears one symbol of each suit. Replace this table with the real cards when they are known;
//! no rules code needs to change.
//!
//! The roster mixes four-suit demons, two suits plus a rank, and rank-only demons, so that a
//! random six is usually winnable with care (the measured win rate is in the crate docs).

use crate::cards::{Demon, Rank, Suit, Symbol};

/// How a suit is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SuitData {
    pub suit: Suit,
    pub name: &'static str,
    pub glyph: &'static str,
}

/// The four suits, in `Suit` order.
pub const SUITS: [SuitData; 4] = [
    SuitData {
        suit: Suit::S1,
        name: "Skulls",
        glyph: "☠",
    },
    SuitData {
        suit: Suit::S2,
        name: "Moons",
        glyph: "☾",
    },
    SuitData {
        suit: Suit::S3,
        name: "Tridents",
        glyph: "♆",
    },
    SuitData {
        suit: Suit::S4,
        name: "Pentacles",
        glyph: "⛤",
    },
];

const SKULLS: Symbol = Symbol::Suit(Suit::S1);
const MOONS: Symbol = Symbol::Suit(Suit::S2);
const TRIDENTS: Symbol = Symbol::Suit(Suit::S3);
const PENTACLES: Symbol = Symbol::Suit(Suit::S4);
const ACE: Symbol = Symbol::Rank(Rank::Ace);
const TWO: Symbol = Symbol::Rank(Rank::Two);
const THREE: Symbol = Symbol::Rank(Rank::Three);
const FOUR: Symbol = Symbol::Rank(Rank::Four);
const FIVE: Symbol = Symbol::Rank(Rank::Five);
const SIX: Symbol = Symbol::Rank(Rank::Six);
const SEVEN: Symbol = Symbol::Rank(Rank::Seven);
const EIGHT: Symbol = Symbol::Rank(Rank::Eight);
const NINE: Symbol = Symbol::Rank(Rank::Nine);
const TEN: Symbol = Symbol::Rank(Rank::Ten);
const E: Symbol = Symbol::Rank(Rank::E);
const S: Symbol = Symbol::Rank(Rank::S);
const KEEPER: Symbol = Symbol::Rank(Rank::Keeper);

/// The Demon roster: six are drawn at random for each match.
pub const ROSTER: &[Demon] = &[
    // Four suits.
    Demon::new(
        "Bosche the Plague Doctor",
        &[SKULLS, MOONS, TRIDENTS, PENTACLES],
    ),
    Demon::new(
        "Vesh the Lantern Widow",
        &[SKULLS, SKULLS, TRIDENTS, TRIDENTS],
    ),
    Demon::new(
        "Grimsby Twelvefingers",
        &[MOONS, MOONS, PENTACLES, PENTACLES],
    ),
    // Two suits and a rank.
    Demon::new("Ashmaw the Cinder Hound", &[SKULLS, MOONS, KEEPER]),
    Demon::new("Lady Nettle", &[TRIDENTS, PENTACLES, ACE]),
    Demon::new("The Ossuary Choir", &[SKULLS, TRIDENTS, SEVEN]),
    Demon::new("Quillon the Inkbound", &[MOONS, PENTACLES, TEN]),
    Demon::new("Murk the Bog Saint", &[SKULLS, PENTACLES, E]),
    Demon::new("Sallow Jack", &[MOONS, TRIDENTS, S]),
    Demon::new("Mother Cinders", &[SKULLS, MOONS, FOUR]),
    // Ranks only.
    Demon::new("The Three-Faced Clerk", &[ACE, TWO, THREE]),
    Demon::new("Hexley the Bell-Ringer", &[FOUR, FIVE, SIX]),
    Demon::new("Old Gristle", &[EIGHT, NINE, TEN]),
    Demon::new("Ysolde of the Keys", &[E, S, KEEPER]),
    Demon::new("The Ninefold Moth", &[THREE, SIX, NINE, KEEPER]),
    Demon::new("Tallow the Candle Imp", &[FIVE, SEVEN]),
];
