//! The two decks: number cards (the People's Pack) and figures (the Power Pile).
//!
//! Both are one-byte `Copy` values so hands, packs and commits cost nothing to copy or compare;
//! on the wire they are short strings (`"7S"`, `"10H"`, `"EJ"`… see each type) so a view stays
//! small and a person can read a log.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;
use ts_rs::TS;

/// The four suits. Serialised as words (`"spades"`) where a suit is named on its own, as in a
/// Media action or a Creator's Suggestion declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "demos/")]
pub enum Suit {
    Spades,
    Hearts,
    Diamonds,
    Clubs,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    pub fn index(self) -> usize {
        self as usize
    }

    fn from_index(index: u8) -> Suit {
        Suit::ALL[index as usize]
    }

    /// The letter used inside card names: S, H, D, C.
    pub fn letter(self) -> char {
        ['S', 'H', 'D', 'C'][self as usize]
    }

    fn from_letter(letter: char) -> Option<Suit> {
        match letter.to_ascii_uppercase() {
            'S' => Some(Suit::Spades),
            'H' => Some(Suit::Hearts),
            'D' => Some(Suit::Diamonds),
            'C' => Some(Suit::Clubs),
            _ => None,
        }
    }
}

/// A number card of the People's Pack: rank 1-10 in one suit. Written rank first, then the
/// suit letter: `"7S"` is the seven of spades, `"10H"` the ten of hearts, `"1D"` the ace.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, TS)]
#[ts(export_to = "demos/", type = "string")]
pub struct Card(u8);

impl Card {
    /// The card of `rank` (1-10) in `suit`.
    pub fn new(rank: u8, suit: Suit) -> Card {
        assert!(
            (1..=10).contains(&rank),
            "number cards run from 1 to 10, not {rank}"
        );
        Card(suit as u8 * 10 + rank - 1)
    }

    pub fn rank(self) -> u8 {
        self.0 % 10 + 1
    }

    pub fn suit(self) -> Suit {
        Suit::from_index(self.0 / 10)
    }

    /// All 40 number cards, in a fixed order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..40).map(Card)
    }

    /// Parses `"7S 8S 9S"` into cards; panics on a bad name. For tests and examples.
    pub fn list(names: &str) -> Vec<Card> {
        names
            .split_whitespace()
            .map(|n| n.parse().unwrap_or_else(|e| panic!("{n}: {e}")))
            .collect()
    }
}

/// Every number card's name, by its index (suit × 10 + rank − 1): views name cards on every
/// move, and a table lookup is all that costs.
const CARD_NAMES: [&str; 40] = [
    "1S", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", //
    "1H", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", //
    "1D", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", //
    "1C", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C",
];

impl Card {
    /// The card's name: `"7S"`, `"10H"`.
    pub fn name(self) -> &'static str {
        CARD_NAMES[self.0 as usize]
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a card or figure name could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a DēmoS card name")]
pub struct BadName(String);

impl FromStr for Card {
    type Err = BadName;

    fn from_str(text: &str) -> Result<Card, BadName> {
        let bad = || BadName(text.to_string());
        let letter = text.chars().last().ok_or_else(bad)?;
        let suit = Suit::from_letter(letter).ok_or_else(bad)?;
        let rank: u8 = text[..text.len() - letter.len_utf8()]
            .parse()
            .map_err(|_| bad())?;
        if (1..=10).contains(&rank) {
            Ok(Card::new(rank, suit))
        } else {
            Err(bad())
        }
    }
}

/// The three components of power. A trio is one of each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "demos/")]
pub enum Power {
    Executive,
    Legislative,
    Judicial,
}

impl Power {
    pub const ALL: [Power; 3] = [Power::Executive, Power::Legislative, Power::Judicial];

    fn letter(self) -> char {
        ['E', 'L', 'J'][self as usize]
    }
}

/// A figure card of the Power Pile: an Executive, Legislative or Judicial figure in a suit, or
/// a Media. Written `"ES"` (Executive of spades), `"LH"`, `"JD"`, and `"M"` for a Media.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, TS)]
#[ts(export_to = "demos/", type = "string")]
pub struct Figure(u8);

impl Figure {
    /// The Media ("the fourth estate"). There are two, and they are interchangeable.
    pub const MEDIA: Figure = Figure(12);

    pub fn new(power: Power, suit: Suit) -> Figure {
        Figure(power as u8 * 4 + suit as u8)
    }

    /// `None` for a Media.
    pub fn power(self) -> Option<Power> {
        (self.0 < 12).then(|| Power::ALL[(self.0 / 4) as usize])
    }

    /// `None` for a Media.
    pub fn suit(self) -> Option<Suit> {
        (self.0 < 12).then(|| Suit::from_index(self.0 % 4))
    }

    pub fn is_media(self) -> bool {
        self == Figure::MEDIA
    }

    /// The Power Pile: the 12 E/L/J figures, plus the two Media in the complete game.
    pub fn pile(with_media: bool) -> Vec<Figure> {
        let mut pile: Vec<Figure> = (0..12).map(Figure).collect();
        if with_media {
            pile.extend([Figure::MEDIA, Figure::MEDIA]);
        }
        pile
    }

    /// Parses `"ES LH M"` into figures; panics on a bad name. For tests and examples.
    pub fn list(names: &str) -> Vec<Figure> {
        names
            .split_whitespace()
            .map(|n| n.parse().unwrap_or_else(|e| panic!("{n}: {e}")))
            .collect()
    }
}

/// Every figure's name, by its index (power × 4 + suit), then the Media.
const FIGURE_NAMES: [&str; 13] = [
    "ES", "EH", "ED", "EC", "LS", "LH", "LD", "LC", "JS", "JH", "JD", "JC", "M",
];

impl Figure {
    /// The figure's name: `"ES"`, `"LH"`, `"M"`.
    pub fn name(self) -> &'static str {
        FIGURE_NAMES[self.0 as usize]
    }
}

impl fmt::Display for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Figure {
    type Err = BadName;

    fn from_str(text: &str) -> Result<Figure, BadName> {
        let bad = || BadName(text.to_string());
        let upper = text.to_ascii_uppercase();
        if upper == "M" {
            return Ok(Figure::MEDIA);
        }
        let mut chars = upper.chars();
        let (Some(p), Some(s), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(bad());
        };
        let power = Power::ALL
            .into_iter()
            .find(|power| power.letter() == p)
            .ok_or_else(bad)?;
        let suit = Suit::from_letter(s).ok_or_else(bad)?;
        Ok(Figure::new(power, suit))
    }
}

struct NameVisitor<T>(std::marker::PhantomData<T>);

impl<T: FromStr<Err = BadName>> serde::de::Visitor<'_> for NameVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a DēmoS card name such as \"7S\" or \"EH\"")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<T, E> {
        text.parse().map_err(E::custom)
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Card, D::Error> {
        deserializer.deserialize_str(NameVisitor(std::marker::PhantomData))
    }
}

impl Serialize for Figure {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Figure {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Figure, D::Error> {
        deserializer.deserialize_str(NameVisitor(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_and_figure_names_round_trip() {
        for card in Card::all() {
            assert_eq!(card.to_string().parse::<Card>().unwrap(), card);
            let json = serde_json::to_string(&card).unwrap();
            assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), card);
        }
        for figure in Figure::pile(true) {
            assert_eq!(figure.to_string().parse::<Figure>().unwrap(), figure);
        }
        // The name tables agree with the ranks, suits and powers they stand for.
        for card in Card::all() {
            let expected = format!("{}{}", card.rank(), card.suit().letter());
            assert_eq!(card.name(), expected);
        }
        for figure in Figure::pile(true) {
            let expected = match (figure.power(), figure.suit()) {
                (Some(power), Some(suit)) => format!("{}{}", power.letter(), suit.letter()),
                _ => "M".to_string(),
            };
            assert_eq!(figure.name(), expected);
        }
        assert_eq!(Card::list("10H 1D")[0].rank(), 10);
        assert!("11S".parse::<Card>().is_err() && "0S".parse::<Card>().is_err());
    }
}
