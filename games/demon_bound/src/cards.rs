//! The deck: a poker deck of 52 cards, up to two Jokers and, with the Origins 2008 option, the
//! Marcus King.
//!
//! A card is one byte, so hands and piles cost nothing to copy. On the wire a card is a short
//! name: rank then suit letter (`"AS"`, `"7H"`, `"10D"`, `"QC"`), `"Joker"` and `"MK"` (the
//! Marcus King). Aces count 1 and are numbered cards (proposal 2); J, Q and K are spells only
//! (proposal 3). Numbered cards are unique in the deck, so a demon (a numbered spade) names
//! itself wherever it stands.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;
use ts_rs::TS;

/// The four suits, each with its own use as a numbered card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "demon_bound/")]
pub enum Suit {
    /// Demons; face cards: Demonic Visage.
    Spades,
    /// Sacrifices; face cards: Royal Sacrifice.
    Hearts,
    /// Treasure; face cards: Treasure Scrying.
    Diamonds,
    /// Bindings; face cards: The Master's Voice.
    Clubs,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    pub fn letter(self) -> char {
        ['S', 'H', 'D', 'C'][self as usize]
    }

    fn from_letter(letter: char) -> Option<Suit> {
        Suit::ALL.into_iter().find(|s| s.letter() == letter)
    }
}

/// One card of the deck.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, TS)]
#[ts(export_to = "demon_bound/", type = "string")]
pub struct Card(u8);

const JOKER: u8 = 52;
const MARCUS_KING: u8 = 53;

impl Card {
    /// Hell's Maw Gapes Wide. The two Jokers of a deck are alike.
    pub const JOKER: Card = Card(JOKER);
    /// The Origins 2008 deck's extra King: a special Joker with no suit or rank.
    pub const MARCUS_KING: Card = Card(MARCUS_KING);

    /// The card of `rank` (1 = Ace … 10, 11 = Jack, 12 = Queen, 13 = King) in `suit`.
    pub fn new(rank: u8, suit: Suit) -> Card {
        assert!(
            (1..=13).contains(&rank),
            "ranks run from 1 to 13, not {rank}"
        );
        Card(suit as u8 * 13 + rank - 1)
    }

    /// `None` for a Joker or the Marcus King.
    pub fn suit(self) -> Option<Suit> {
        (self.0 < JOKER).then(|| Suit::ALL[(self.0 / 13) as usize])
    }

    /// 1-13; `None` for a Joker or the Marcus King.
    pub fn rank(self) -> Option<u8> {
        (self.0 < JOKER).then_some(self.0 % 13 + 1)
    }

    /// Ace to 10: the cards with a value.
    pub fn is_numbered(self) -> bool {
        self.rank().is_some_and(|r| r <= 10)
    }

    /// The pip value of a numbered card (Ace = 1): a demon's strength, a sacrifice's worth, a
    /// binding's power, a treasure's value. 0 for anything else.
    pub fn value(self) -> u8 {
        match self.rank() {
            Some(r) if r <= 10 => r,
            _ => 0,
        }
    }

    /// A Jack, Queen or King: a spell of power 1, 2 or 3.
    pub fn spell_power(self) -> Option<u8> {
        self.rank().filter(|&r| r > 10).map(|r| r - 10)
    }

    /// A numbered card of `suit`.
    pub fn is_numbered_of(self, suit: Suit) -> bool {
        self.is_numbered() && self.suit() == Some(suit)
    }

    /// A demon: a numbered spade.
    pub fn is_demon(self) -> bool {
        self.is_numbered_of(Suit::Spades)
    }

    /// A Joker or the Marcus King: never played, only discarded, and then Hell's Maw opens.
    pub fn is_maw(self) -> bool {
        self.0 >= JOKER
    }

    /// A deck: the 52 cards, `jokers` Jokers and the Marcus King if asked for.
    pub fn deck(jokers: u8, marcus_king: bool) -> Vec<Card> {
        let mut deck: Vec<Card> = (0..52).map(Card).collect();
        deck.extend((0..jokers).map(|_| Card::JOKER));
        if marcus_king {
            deck.push(Card::MARCUS_KING);
        }
        deck
    }

    /// Parses `"7S 10H Joker"`; panics on a bad name. For tests and examples.
    pub fn list(names: &str) -> Vec<Card> {
        names
            .split_whitespace()
            .map(|n| n.parse().unwrap_or_else(|e| panic!("{n}: {e}")))
            .collect()
    }

    fn name(self) -> &'static str {
        const NAMES: [&str; 54] = [
            "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AH",
            "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AD", "2D",
            "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AC", "2C", "3C",
            "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "Joker", "MK",
        ];
        NAMES[self.0 as usize]
    }
}

/// Cards chosen together (a discard, a release of bound demons), kept in deck order (spades,
/// hearts, diamonds, clubs, each Ace to King, then Jokers and the Marcus King) so that one
/// choice has one spelling whatever order it is sent in.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize, TS)]
#[serde(from = "Vec<Card>", into = "Vec<Card>")]
#[ts(export_to = "demon_bound/")]
pub struct CardSet(Vec<Card>);

impl CardSet {
    pub fn new(mut cards: Vec<Card>) -> CardSet {
        cards.sort();
        CardSet(cards)
    }
}

impl From<Vec<Card>> for CardSet {
    fn from(cards: Vec<Card>) -> CardSet {
        CardSet::new(cards)
    }
}

impl From<CardSet> for Vec<Card> {
    fn from(set: CardSet) -> Vec<Card> {
        set.0
    }
}

impl std::ops::Deref for CardSet {
    type Target = [Card];

    fn deref(&self) -> &[Card] {
        &self.0
    }
}

/// The sum of the values of some numbered cards.
pub fn total(cards: &[Card]) -> u32 {
    cards.iter().map(|c| c.value() as u32).sum()
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a card name could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a card name (try \"7S\", \"AH\", \"QD\", \"Joker\" or \"MK\")")]
pub struct BadName(String);

impl FromStr for Card {
    type Err = BadName;

    fn from_str(text: &str) -> Result<Card, BadName> {
        match text {
            "Joker" => return Ok(Card::JOKER),
            "MK" => return Ok(Card::MARCUS_KING),
            _ => {}
        }
        let bad = || BadName(text.to_string());
        let letter = text.chars().last().ok_or_else(bad)?;
        let suit = Suit::from_letter(letter).ok_or_else(bad)?;
        let rank = match &text[..text.len() - 1] {
            "A" => 1,
            "J" => 11,
            "Q" => 12,
            "K" => 13,
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
        serializer.serialize_str(self.name())
    }
}

struct NameVisitor;

impl serde::de::Visitor<'_> for NameVisitor {
    type Value = Card;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a card name such as \"7S\", \"QD\" or \"Joker\"")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Card, E> {
        text.parse().map_err(E::custom)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Card, D::Error> {
        deserializer.deserialize_str(NameVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_name_round_trips() {
        for card in Card::deck(2, true) {
            assert_eq!(card.to_string().parse::<Card>().unwrap(), card);
            let json = serde_json::to_string(&card).unwrap();
            assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), card);
        }
        assert!("1S".parse::<Card>().is_err() && "11H".parse::<Card>().is_err());
    }

    #[test]
    fn aces_are_numbered_cards_worth_one_and_face_cards_are_spells_only() {
        let ace: Card = "AS".parse().unwrap();
        assert!(ace.is_demon() && ace.value() == 1);
        let queen: Card = "QS".parse().unwrap();
        assert!(!queen.is_numbered() && queen.value() == 0 && queen.spell_power() == Some(2));
        assert!(Card::JOKER.is_maw() && Card::JOKER.suit().is_none());
        assert_eq!(Card::deck(2, true).len(), 55);
    }
}
