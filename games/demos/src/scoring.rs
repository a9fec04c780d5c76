//! Round scoring: the best sequence or Harmonious Square in a hand, and the tie-breaks that
//! decide a round.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::cards::{Card, Suit};

/// What a player reveals at the round's resolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "demos/")]
pub enum CombinationKind {
    /// Four cards of one number in the four suits: 30 points.
    HarmoniousSquare,
    /// Three consecutive cards of one suit: 12 + the lowest card.
    OneSuitSequence,
    /// Three consecutive cards in two suits: 8 + the lowest card.
    TwoSuitSequence,
    /// Three consecutive cards in three suits: 4 + the lowest card.
    ThreeSuitSequence,
}

/// A revealed combination and its points (the Creator's Suggestion bonus included).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "demos/")]
pub struct Combination {
    pub kind: CombinationKind,
    /// The revealed cards, lowest first.
    pub cards: Vec<Card>,
    pub points: u8,
}

/// A combination with the total of the cards left unplayed, which stays secret but decides
/// the second tie-break.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scored {
    pub combination: Combination,
    pub unplayed: u8,
}

/// The bonus the Creator's Suggestion gives a one-suit sequence in the declared favourite suit.
pub const FAVOURITE_SUIT_BONUS: u8 = 10;

/// Points of three consecutive cards (given lowest first), or `None` if they are not a run.
/// Ranks do not wrap: 9-10-1 is not a sequence.
fn sequence(cards: [Card; 3], favourite: Option<Suit>) -> Option<(CombinationKind, u8)> {
    let [a, b, c] = cards;
    if b.rank() != a.rank() + 1 || c.rank() != b.rank() + 1 {
        return None;
    }
    let mut suits = [false; 4];
    for card in cards {
        suits[card.suit().index()] = true;
    }
    let (kind, base) = match suits.iter().filter(|&&s| s).count() {
        1 => (CombinationKind::OneSuitSequence, 12),
        2 => (CombinationKind::TwoSuitSequence, 8),
        _ => (CombinationKind::ThreeSuitSequence, 4),
    };
    let bonus = if kind == CombinationKind::OneSuitSequence && favourite == Some(a.suit()) {
        FAVOURITE_SUIT_BONUS
    } else {
        0
    };
    Some((kind, base + a.rank() + bonus))
}

/// The combination a player reveals: the one with the most points, then the highest unplayed
/// total (proposal 6), or `None` if the hand has neither a sequence nor (when `squares` are
/// played) a Harmonious Square, and the player forfeits. Between equal choices the lowest
/// cards are revealed, so the pick never depends on the order of the hand.
pub fn best_combination(hand: &[Card], squares: bool, favourite: Option<Suit>) -> Option<Scored> {
    let mut sorted: Vec<Card> = hand.to_vec();
    sorted.sort_by_key(|c| (c.rank(), c.suit()));
    let total: u8 = sorted.iter().map(|c| c.rank()).sum();
    let mut best: Option<(u8, u8, Vec<Card>, CombinationKind)> = None;
    let mut consider = |points: u8, cards: Vec<Card>, kind: CombinationKind| {
        let unplayed = total - cards.iter().map(|c| c.rank()).sum::<u8>();
        if best
            .as_ref()
            .is_none_or(|(p, u, _, _)| (points, unplayed) > (*p, *u))
        {
            best = Some((points, unplayed, cards, kind));
        }
    };
    if squares {
        for rank in 1..=10 {
            let four: Vec<Card> = sorted
                .iter()
                .copied()
                .filter(|c| c.rank() == rank)
                .collect();
            if four.len() == 4 {
                consider(30, four, CombinationKind::HarmoniousSquare);
            }
        }
    }
    let n = sorted.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let cards = [sorted[i], sorted[j], sorted[k]];
                if let Some((kind, points)) = sequence(cards, favourite) {
                    consider(points, cards.to_vec(), kind);
                }
            }
        }
    }
    best.map(|(points, unplayed, cards, kind)| Scored {
        combination: Combination {
            kind,
            cards,
            points,
        },
        unplayed,
    })
}

/// The first tie-break: the most cards of one suit in the whole hand.
pub fn suit_count(hand: &[Card]) -> u8 {
    let mut counts = [0u8; 4];
    for card in hand {
        counts[card.suit().index()] += 1;
    }
    counts.into_iter().max().unwrap_or(0)
}

/// What decided a round (or an Election): the only tie-break detail ever announced
/// (proposal 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "demos/")]
pub enum DecidedBy {
    /// The most points, alone.
    Points,
    /// Tie-break 1: the most cards of one suit in the full hand.
    SuitCount,
    /// Tie-break 2: the highest total of the unplayed cards.
    UnplayedTotal,
    /// An absolute tie: the winners share the round.
    Shared,
}

/// One player's standing at a resolution: `None` for a forfeit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    pub points: u8,
    pub suit_count: u8,
    pub unplayed: u8,
}

/// The round's best players (in the order given, which is dealing order) and the tie-break
/// level that separated them from the rest; `None` when everyone forfeits.
pub fn round_winners<T: Copy>(standings: &[(T, Option<Standing>)]) -> Option<(Vec<T>, DecidedBy)> {
    let key = |s: &Standing| (s.points, s.suit_count, s.unplayed);
    let best = standings
        .iter()
        .filter_map(|(_, s)| s.as_ref())
        .map(key)
        .max()?;
    let count = |f: &dyn Fn(&Standing) -> bool| {
        standings
            .iter()
            .filter(|(_, s)| s.as_ref().is_some_and(f))
            .count()
    };
    let decided_by = if count(&|s| s.points == best.0) == 1 {
        DecidedBy::Points
    } else if count(&|s| (s.points, s.suit_count) == (best.0, best.1)) == 1 {
        DecidedBy::SuitCount
    } else if count(&|s| key(s) == best) == 1 {
        DecidedBy::UnplayedTotal
    } else {
        DecidedBy::Shared
    };
    let winners = standings
        .iter()
        .filter(|(_, s)| s.as_ref().is_some_and(|s| key(s) == best))
        .map(|(who, _)| *who)
        .collect();
    Some((winners, decided_by))
}
