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

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank(), self.suit().letter())
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

impl fmt::Display for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.power(), self.suit()) {
            (Some(power), Some(suit)) => write!(f, "{}{}", power.letter(), suit.letter()),
            _ => f.write_str("M"),
        }
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

/// Writes a card or figure name into a stack buffer: views are serialised on every move, and
/// this keeps that free of allocations.
fn serialize_name<S: Serializer>(
    value: &dyn fmt::Display,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use std::io::Write;
    let mut buffer = [0u8; 4];
    let mut cursor = std::io::Cursor::new(&mut buffer[..]);
    write!(cursor, "{value}").expect("names are at most three characters");
    let len = cursor.position() as usize;
    serializer.serialize_str(std::str::from_utf8(&buffer[..len]).expect("ASCII"))
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
        serialize_name(self, serializer)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Card, D::Error> {
        deserializer.deserialize_str(NameVisitor(std::marker::PhantomData))
    }
}

impl Serialize for Figure {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_name(self, serializer)
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
        assert_eq!(Card::list("10H 1D")[0].rank(), 10);
        assert!("11S".parse::<Card>().is_err() && "0S".parse::<Card>().is_err());
    }
}
