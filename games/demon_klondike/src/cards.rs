//! The standard 52-card deck: suits, colours, ranks, and one-byte cards.
//!
//! A card is a `Copy` byte so layouts, foundations and the stalemate search copy and compare
//! them for nothing. On the wire a card is a short string, rank then suit letter (`"AS"`,
//! `"10H"`, `"QD"`), which keeps views small and logs readable.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;
use ts_rs::TS;

/// The four suits. Hearts and diamonds are red, spades and clubs black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "DemonSuit", export_to = "demon_klondike/")]
pub enum Suit {
    Spades,
    Hearts,
    Diamonds,
    Clubs,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    pub fn is_red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }

    /// The letter used in card names: S, H, D, C.
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

/// Ace (1) to King (13).
pub type Rank = u8;
pub const ACE: Rank = 1;
pub const KING: Rank = 13;

/// One card of a standard deck. Which deck (whose back) it belongs to is not part of the card:
/// a layout only ever holds its owner's cards, and a foundation records the owner of each card.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, TS)]
#[ts(rename = "DemonCard", export_to = "demon_klondike/", type = "string")]
pub struct Card(u8);

impl Card {
    /// The card of `rank` (1 = Ace … 13 = King) in `suit`.
    pub fn new(rank: Rank, suit: Suit) -> Card {
        assert!(
            (ACE..=KING).contains(&rank),
            "ranks run from 1 to 13, not {rank}"
        );
        Card(suit as u8 * 13 + rank - 1)
    }

    pub fn rank(self) -> Rank {
        self.0 % 13 + 1
    }

    pub fn suit(self) -> Suit {
        Suit::ALL[(self.0 / 13) as usize]
    }

    pub fn is_red(self) -> bool {
        self.suit().is_red()
    }

    /// The 52 cards of one deck, suit by suit, Ace to King.
    pub fn deck() -> Vec<Card> {
        (0..52).map(Card).collect()
    }

    /// Whether `self` may be built on `below` in a tableau pile: one rank lower and the other
    /// colour.
    pub fn builds_on(self, below: Card) -> bool {
        self.rank() + 1 == below.rank() && self.is_red() != below.is_red()
    }

    /// Parses `"AS 2H 10D"` into cards; panics on a bad name. For tests and examples.
    pub fn list(names: &str) -> Vec<Card> {
        names
            .split_whitespace()
            .map(|n| n.parse().unwrap_or_else(|e| panic!("{e}")))
            .collect()
    }
}

impl Card {
    /// The rank as printed on the card: A, 2 … 10, J, Q, K.
    pub fn rank_label(self) -> &'static str {
        [
            "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
        ][self.rank() as usize - 1]
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rank_label())?;
        fmt::Write::write_char(f, self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A card name that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a card (write rank then suit letter: AS, 10H, QD)")]
pub struct BadCard(String);

impl FromStr for Card {
    type Err = BadCard;

    fn from_str(name: &str) -> Result<Card, BadCard> {
        let bad = || BadCard(name.to_string());
        let suit = name
            .chars()
            .last()
            .and_then(Suit::from_letter)
            .ok_or_else(bad)?;
        let rank = match &name[..name.len() - 1] {
            "A" | "a" => 1,
            "J" | "j" => 11,
            "Q" | "q" => 12,
            "K" | "k" => 13,
            digits => match digits.parse::<u8>() {
                Ok(n) if (2..=10).contains(&n) => n,
                _ => return Err(bad()),
            },
        };
        Ok(Card::new(rank, suit))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Views hold hundreds of cards: write the name from a stack buffer, not `format!`.
        let mut name = [0u8; 3];
        let rank = self.rank_label().as_bytes();
        name[..rank.len()].copy_from_slice(rank);
        name[rank.len()] = self.suit().letter() as u8;
        let name = std::str::from_utf8(&name[..rank.len() + 1]).expect("ASCII");
        serializer.serialize_str(name)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Card, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_name_reads_back_as_the_same_card() {
        for card in Card::deck() {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
            let json = serde_json::to_string(&card).unwrap();
            assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), card);
        }
        assert_eq!(Card::list("AS 10H KD QC").len(), 4);
        assert!("1S".parse::<Card>().is_err() && "KX".parse::<Card>().is_err());
    }

    #[test]
    fn a_card_builds_on_the_next_rank_up_of_the_other_colour() {
        let [ten_h, jack_s, jack_d, nine_c] = ["10H", "JS", "JD", "9C"].map(|n| n.parse().unwrap());
        assert!(Card::builds_on(ten_h, jack_s));
        assert!(!Card::builds_on(ten_h, jack_d));
        assert!(!Card::builds_on(nine_c, jack_d));
    }
}
