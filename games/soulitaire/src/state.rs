//! The state of a match and its setup: the Spellboard, the Foundation Stacks, the cards set
//! aside and the Demon Pile.

use pandemonium_game_contract::{Chance, shuffle};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::cards::{Card, Demon, Face, Rank, Symbol};
use crate::config::{Config, DemonOnTop};
use crate::data::ROSTER;

/// Columns (and rows) of the Spellboard.
pub const COLUMNS: usize = 6;
pub const ROWS: usize = 6;
pub const FOUNDATIONS: usize = 4;
/// Demons drawn into the Demon Pile.
pub const PILE: usize = 6;

/// One column of the Spellboard (proposal 2: six straight columns of six). Only the bottom
/// card is uncovered, and it is always face up (proposal 3: uncovered cards turn face up by
/// themselves); every card above it is face down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Column {
    /// Top row first; `cards[len - 1]` is the exposed card.
    cards: [Card; ROWS],
    len: u8,
}

impl Column {
    pub(crate) fn from_cards(cards: &[Card]) -> Column {
        assert!(
            cards.len() <= ROWS,
            "a Spellboard column holds at most {ROWS} cards"
        );
        let mut column = Column {
            cards: [Card::Mimic; ROWS],
            len: cards.len() as u8,
        };
        column.cards[..cards.len()].copy_from_slice(cards);
        column
    }

    /// The visible card: the uncovered bottom one.
    pub(crate) fn exposed(&self) -> Option<Card> {
        self.len.checked_sub(1).map(|i| self.cards[i as usize])
    }

    /// Every card, top row first.
    pub(crate) fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    /// The cards nobody may see: the face-down ones, and the exposed one too while it is
    /// `veiled` (uncovered during a sacrifice, not yet turned face up).
    pub(crate) fn hidden_mut(&mut self, veiled: bool) -> &mut [Card] {
        let n = (self.len as usize).saturating_sub(usize::from(!veiled));
        &mut self.cards[..n]
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Takes the exposed card; the one above it is now uncovered, hence face up.
    pub(crate) fn take(&mut self) -> Card {
        self.len -= 1;
        // Blank the emptied place so equal columns compare equal.
        std::mem::replace(&mut self.cards[self.len as usize], Card::Mimic)
    }
}

/// One layer of a Foundation Stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layer {
    Ritual(Face),
    /// A Mimic: declared as a card, or `None` for a Mimic dealt as a starting foundation card,
    /// which is wild rank with no suit (proposal 5).
    Mimic(Option<Face>),
    /// A sacrificed demon, by its position in the Demon Pile as dealt.
    Demon(u8),
}

impl Layer {
    fn starting(card: Card) -> Layer {
        match card.face() {
            Some(face) => Layer::Ritual(face),
            None => Layer::Mimic(None),
        }
    }
}

/// What the top of a Foundation Stack accepts.
#[derive(Serialize, Deserialize, TS, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(rename = "SoulitaireTop", export_to = "soulitaire/")]
pub enum Top {
    /// A card (or declared Mimic): cards one rank away go on it; demons sharing its suit or
    /// rank are sacrificed onto it.
    Face(Face),
    /// A starting Mimic: any Ritual card goes on it, and any demon with a rank symbol.
    Wild,
    /// A bare demon under the dead-stack rule: nothing more goes on this stack.
    Dead,
}

impl Top {
    /// Whether a card of `rank` may be placed on this top.
    pub fn accepts(self, rank: Rank) -> bool {
        match self {
            Top::Face(face) => face.rank.is_adjacent(rank),
            Top::Wild => true,
            Top::Dead => false,
        }
    }

    /// The ranks that may be placed here: the two neighbours, all 13, or none.
    pub fn accepted_ranks(self) -> impl Iterator<Item = Rank> {
        Rank::ALL
            .into_iter()
            .filter(move |&rank| self.accepts(rank))
    }

    pub fn matches_symbol(self, symbol: Symbol) -> bool {
        match (self, symbol) {
            (Top::Face(face), symbol) => face.matches(symbol),
            (Top::Wild, Symbol::Rank(_)) => true,
            (Top::Wild, Symbol::Suit(_)) | (Top::Dead, _) => false,
        }
    }

    /// Whether `demon` may be sacrificed onto this top.
    pub fn matches_demon(self, demon: &Demon) -> bool {
        demon
            .symbols
            .iter()
            .any(|&symbol| self.matches_symbol(symbol))
    }
}

/// A Foundation Stack: a starting card, then everything placed on it. Cards never leave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FoundationStack {
    pub(crate) layers: Vec<Layer>,
}

impl FoundationStack {
    /// The effective top under the config's demon-on-top rule (proposal 7).
    pub(crate) fn top(&self, rule: DemonOnTop) -> Top {
        for layer in self.layers.iter().rev() {
            match *layer {
                Layer::Ritual(face) | Layer::Mimic(Some(face)) => return Top::Face(face),
                Layer::Mimic(None) => return Top::Wild,
                Layer::Demon(_) if rule == DemonOnTop::DeadStack => return Top::Dead,
                Layer::Demon(_) => {}
            }
        }
        unreachable!("a Foundation Stack always starts with a Ritual card or a Mimic")
    }
}

/// A sacrifice under way (proposal 6): the demon lies on `foundation`, and the cards that were
/// visible when it was placed are being offered to it one by one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PendingSacrifice {
    pub(crate) foundation: u8,
    /// The demon, by its position in the Demon Pile as dealt.
    pub(crate) demon: u8,
    /// Columns whose card was visible when the demon was placed and is still there to offer
    /// (bit `c` for column `c`).
    pub(crate) eligible: u8,
    /// Columns offered from. The card each offer uncovers stays face down until the sacrifice
    /// ends: the rules choose every card before moving any, so nothing uncovered meanwhile may
    /// inform the choice.
    pub(crate) offered: u8,
    /// The demon's symbols not yet satisfied (bit `i` for `symbols[i]`).
    pub(crate) unused: u8,
}

/// Where the match stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Playing,
    /// The Spellboard is empty.
    Won,
    /// No Ritual card and no demon can reach a Foundation Stack (proposal 9).
    Lost,
    Conceded,
}

/// An exact deal, for tests and for `new`: what goes where.
#[derive(Debug, Clone, PartialEq)]
pub struct Deal {
    /// Six columns, each listed from the top row down: the last card is the exposed, face-up
    /// one. A full deal has six cards per column; rigged tests may use fewer.
    pub spellboard: [Vec<Card>; COLUMNS],
    /// The starting card of each Foundation Stack.
    pub foundations: [Card; FOUNDATIONS],
    /// The cards set aside unseen (14 in a full deal).
    pub set_aside: Vec<Card>,
    /// The Demon Pile, top first (6 in a full deal).
    pub demons: Vec<Demon>,
    /// The rest of the roster, never used, in (hidden) shuffled order.
    pub unused_demons: Vec<Demon>,
}

impl Deal {
    /// Shuffles the 54 Ritual cards and the roster and deals them as the rulebook says: six
    /// rows of six, row by row, then the four foundation cards, the rest set aside; six demons.
    pub fn shuffled(chance: &mut dyn Chance) -> Deal {
        let mut deck = Card::deck();
        shuffle(&mut deck, chance);
        let mut roster = ROSTER.to_vec();
        shuffle(&mut roster, chance);
        let spellboard = std::array::from_fn(|column| {
            (0..ROWS).map(|row| deck[row * COLUMNS + column]).collect()
        });
        let board = COLUMNS * ROWS;
        let foundations = std::array::from_fn(|i| deck[board + i]);
        let set_aside = deck[board + FOUNDATIONS..].to_vec();
        let unused_demons = roster.split_off(PILE.min(roster.len()));
        Deal {
            spellboard,
            foundations,
            set_aside,
            demons: roster,
            unused_demons,
        }
    }
}

/// A Soulitaire match.
#[derive(Debug, Clone, PartialEq)]
pub struct Soulitaire {
    pub(crate) config: Config,
    pub(crate) spellboard: [Column; COLUMNS],
    pub(crate) foundations: [FoundationStack; FOUNDATIONS],
    /// Never used and never shown during play (rules, "the 14 unused cards").
    pub(crate) set_aside: Vec<Card>,
    /// The Demon Pile as dealt, top first. Demons leave from the front: `demons[next_demon]`
    /// is the current top, and the ones before it were sacrificed or discarded.
    pub(crate) demons: Vec<Demon>,
    pub(crate) next_demon: u8,
    /// Discarded demons, in the order they were discarded (positions in `demons`).
    pub(crate) discarded: Vec<u8>,
    pub(crate) unused_demons: Vec<Demon>,
    /// The sacrifice under way, if any: until it ends, only offers (and a concession) are legal.
    pub(crate) sacrifice: Option<PendingSacrifice>,
    pub(crate) status: Status,
}

impl Soulitaire {
    /// A match from an exact deal. Tests use this to inject the cards and the roster; the
    /// result is checked for a win or a loss at once, as after any action.
    ///
    /// # Panics
    /// If a column has more than six cards.
    pub fn rigged(config: Config, deal: Deal) -> Soulitaire {
        let mut game = Soulitaire {
            config,
            spellboard: std::array::from_fn(|c| Column::from_cards(&deal.spellboard[c])),
            foundations: deal.foundations.map(|card| FoundationStack {
                layers: vec![Layer::starting(card)],
            }),
            set_aside: deal.set_aside,
            demons: deal.demons,
            next_demon: 0,
            discarded: Vec::new(),
            unused_demons: deal.unused_demons,
            sacrifice: None,
            status: Status::Playing,
        };
        game.settle();
        game
    }

    /// The options this match is played with.
    pub fn config(&self) -> Config {
        self.config
    }

    /// The effective top of Foundation Stack `foundation`.
    pub fn top(&self, foundation: usize) -> Top {
        self.foundations[foundation].top(self.config.demon_on_top)
    }

    pub(crate) fn tops(&self) -> [Top; FOUNDATIONS] {
        std::array::from_fn(|f| self.top(f))
    }

    /// The demon on top of the Demon Pile.
    pub fn top_demon(&self) -> Option<&Demon> {
        self.demons.get(self.next_demon as usize)
    }

    /// The demons still in the pile, top first: the score if the Spellboard is cleared.
    pub fn remaining_demons(&self) -> &[Demon] {
        &self.demons[(self.next_demon as usize).min(self.demons.len())..]
    }

    pub(crate) fn is_playing(&self) -> bool {
        self.status == Status::Playing
    }

    pub(crate) fn spellboard_is_empty(&self) -> bool {
        self.spellboard.iter().all(Column::is_empty)
    }

    /// Whether any Spellboard card can move onto any Foundation Stack.
    pub(crate) fn has_ritual_move(&self) -> bool {
        let tops = self.tops();
        self.spellboard
            .iter()
            .filter_map(Column::exposed)
            .any(|card| match card.face() {
                Some(face) => tops.iter().any(|top| top.accepts(face.rank)),
                None => tops.iter().any(|&top| top != Top::Dead),
            })
    }

    /// Whether any demon left in the pile, however deep, matches some foundation top: it can be
    /// reached by discarding the ones above it (proposal 9).
    pub(crate) fn some_demon_matches(&self) -> bool {
        let tops = self.tops();
        self.remaining_demons()
            .iter()
            .any(|demon| tops.iter().any(|top| top.matches_demon(demon)))
    }

    /// Whether the exposed card of `column` was uncovered during the sacrifice under way: it
    /// stays face down until the sacrifice ends.
    pub(crate) fn is_veiled(&self, column: usize) -> bool {
        self.sacrifice
            .is_some_and(|pending| pending.offered & 1 << column != 0)
    }

    /// The demon of the sacrifice under way.
    pub(crate) fn sacrificed_demon(&self) -> Option<(&PendingSacrifice, &Demon)> {
        self.sacrifice
            .as_ref()
            .map(|pending| (pending, &self.demons[pending.demon as usize]))
    }

    /// Whether the sacrifice under way can take another card: some card still eligible matches
    /// a symbol not yet satisfied (a Mimic matches any).
    pub(crate) fn can_offer_more(&self) -> bool {
        let Some((pending, demon)) = self.sacrificed_demon() else {
            return false;
        };
        (0..COLUMNS).any(|c| {
            pending.eligible & 1 << c != 0
                && self.spellboard[c]
                    .exposed()
                    .is_some_and(|card| card_fits(card, demon, pending.unused))
        })
    }

    /// Checks for the end of the match, as after every action: a cleared Spellboard wins
    /// (proposal 12); otherwise being unable to move anything loses (proposal 9). A sacrifice
    /// that can take no more cards ends by itself first ("automatic steps are automatic"); the
    /// match cannot end while one is under way.
    pub(crate) fn settle(&mut self) {
        if self.status != Status::Playing {
            return;
        }
        if self.sacrifice.is_some() {
            if self.can_offer_more() {
                return;
            }
            self.sacrifice = None;
        }
        if self.spellboard_is_empty() {
            self.status = Status::Won;
        } else if !self.has_ritual_move() && !self.some_demon_matches() {
            self.status = Status::Lost;
        }
    }
}

/// Whether `card` could be offered for one of the `unused` symbols of `demon`.
pub(crate) fn card_fits(card: Card, demon: &Demon, unused: u8) -> bool {
    match card.face() {
        Some(face) => demon
            .symbols
            .iter()
            .enumerate()
            .any(|(i, &symbol)| unused & 1 << i != 0 && face.matches(symbol)),
        None => unused != 0,
    }
}
