//! The solver bot and hint engine. It plays from the player's view only: the exposed cards,
//! the foundation tops, the visible demons and the count of face-down cards. A face-down card
//! is an unknown to it, exactly as for a person.
//!
//! Each decision searches every sequence of Ritual moves that uses only cards it can see (at
//! most one per column, since the card a move uncovers is unknown) and scores where each
//! sequence leads: cards cleared first, then how likely the uncovered cards are to be
//! playable (counting the ranks not yet seen), how many ranks the live foundations accept,
//! how deep the remaining columns are, and whether the top demon still has a place to go.
//! Demons are spent only when no Ritual move is left, which keeps them for the title: then it
//! picks the sacrifice (foundation, cards and new top) whose outcome scores best, and
//! otherwise discards the top demon to reach the next one.
//!
//! A sacrifice is played one action at a time (place the demon, offer each card, end it): the
//! solver plans it whole when it places the demon, then plans the rest again at each step
//! from the view. Nothing is revealed during a sacrifice, so the plan does not change.

use pandemonium_game_contract::{Bot, Chance};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::action::Action;
use crate::cards::{Card, Face, Rank, Suit, Symbol};
use crate::state::{COLUMNS, FOUNDATIONS, Top};
use crate::view::{DemonView, LayerView, SacrificeView, StatusView, View};

/// Plays Soulitaire well, seeing only the player's view.
#[derive(Debug, Clone, Copy, Default)]
pub struct SolverBot;

impl Bot<crate::Soulitaire> for SolverBot {
    fn choose(&self, view: &View, legal: &[Action], _chance: &mut dyn Chance) -> Action {
        assert!(
            !legal.is_empty(),
            "a bot is only asked to act when it has a legal action"
        );
        match hint(view) {
            Some(action) if legal.contains(&action) => action,
            // Not expected (the hint follows the same rules), but never play an illegal move.
            _ => legal
                .iter()
                .find(|action| **action != Action::Concede)
                .unwrap_or(&legal[0])
                .clone(),
        }
    }
}

/// The move the solver would make, from the player's view alone: a Ritual move if there is
/// one, else the best sacrifice of the top demon, else discarding it; during a sacrifice, the
/// next card of the best way to finish it, or ending it. `None` once the match is over (while
/// it runs there is always something to do: otherwise it would be lost).
pub fn hint(view: &View) -> Option<Action> {
    if view.status != StatusView::Playing {
        return None;
    }
    let mut solver = Solver::new(view);
    if let Some(sacrifice) = &view.sacrifice {
        return Some(solver.next_offer(sacrifice));
    }
    solver
        .best_move()
        .map(|(_, action)| action)
        .or_else(|| {
            solver
                .best_sacrifice()
                .map(|(foundation, _)| Action::Sacrifice { foundation })
        })
        .or_else(|| (!view.demon_pile.is_empty()).then_some(Action::Discard))
}

/// A column as the solver sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Known(Card),
    /// A card uncovered during the search: face up in reality, but not yet seen.
    Unknown,
    Empty,
}

/// The part of the game a plan changes.
#[derive(Debug, Clone, Copy)]
struct Position {
    slots: [Slot; COLUMNS],
    face_down: [u8; COLUMNS],
    tops: [Top; FOUNDATIONS],
    /// Columns moved from so far: each at most once, since what it uncovers is unknown.
    used: u8,
    /// Bonus for the columns dug so far (deep columns first).
    dug: i32,
}

impl Position {
    fn take(&mut self, column: usize) {
        self.slots[column] = if self.face_down[column] > 0 {
            Slot::Unknown
        } else {
            Slot::Empty
        };
        self.dug += DIG_WEIGHT * self.face_down[column] as i32;
        self.face_down[column] = self.face_down[column].saturating_sub(1);
        self.used |= 1 << column;
    }

    /// A memo key: the columns used and the tops, sorted because the four foundations are
    /// interchangeable for what comes next.
    fn key(&self) -> u64 {
        let mut tops = self.tops.map(top_code);
        tops.sort_unstable();
        tops.iter()
            .fold(self.used as u64, |key, &code| key << 8 | code as u64)
    }
}

fn top_code(top: Top) -> u8 {
    match top {
        Top::Face(face) => (face.suit.index() * 13 + face.rank.index()) as u8,
        Top::Wild => 52,
        Top::Dead => 53,
    }
}

/// Weights of the evaluation, tuned over seeded deals (see the crate docs for the result).
const CARD_WEIGHT: i32 = 1000;
/// Times the chance that an uncovered, unseen card fits a live foundation.
const UNKNOWN_WEIGHT: f32 = 600.0;
const COVERAGE_WEIGHT: i32 = 15;
const DEAD_WEIGHT: i32 = 200;
const DEMON_WEIGHT: i32 = 150;
/// Per face-down card left above a card moved: dig the deep columns first.
const DIG_WEIGHT: i32 = 300;
const DISTANCE_WEIGHT: i32 = 25;

struct Solver<'a> {
    view: &'a View,
    /// The demon on top of the pile once the plan is carried out (for a sacrifice, the one
    /// after it), if it is visible.
    next_demon: Option<&'a DemonView>,
    root: Position,
    /// Ritual cards of each rank not seen anywhere (face-down or set aside), and Mimics.
    unseen: [u8; 13],
    unseen_mimics: u8,
    unseen_total: u8,
    /// The suit a declared Mimic takes: one the visible demons can use, if any.
    mimic_suit: Suit,
    memo: HashMap<u64, i32, BuildHasherDefault<KeyHasher>>,
    /// Reused buffers for the moves at each depth of the search.
    pool: Vec<Vec<Step>>,
}

/// A Ritual move in the search: column, foundation, declaration, and where it leads.
type Step = (u8, u8, Option<Face>, Position);

/// The memo's keys are already well mixed bit patterns; a multiply is all the hashing needed.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn finish(&self) -> u64 {
        self.0 ^ self.0 >> 31
    }
}

impl<'a> Solver<'a> {
    fn new(view: &'a View) -> Solver<'a> {
        let mut unseen = [4u8; 13];
        let mut unseen_mimics = 2u8;
        let mut seen = |card: Option<Face>| match card {
            Some(face) => unseen[face.rank.index()] = unseen[face.rank.index()].saturating_sub(1),
            None => unseen_mimics = unseen_mimics.saturating_sub(1),
        };
        let mut slots = [Slot::Empty; COLUMNS];
        let mut face_down = [0u8; COLUMNS];
        for (c, column) in view.spellboard.iter().enumerate().take(COLUMNS) {
            if let Some(last) = column.last() {
                slots[c] = match last.card {
                    Some(card) => {
                        seen(card.face());
                        Slot::Known(card)
                    }
                    // Uncovered during the sacrifice under way, not turned up yet.
                    None => Slot::Unknown,
                };
                face_down[c] = column.len() as u8 - 1;
            }
        }
        let mut tops = [Top::Dead; FOUNDATIONS];
        for (f, stack) in view.foundations.iter().enumerate().take(FOUNDATIONS) {
            tops[f] = stack.top;
            for layer in &stack.layers {
                match layer {
                    LayerView::Ritual(face) => seen(Some(*face)),
                    LayerView::Mimic { .. } => seen(None),
                    LayerView::Demon(_) => {}
                }
            }
        }
        let unseen_total = unseen.iter().sum::<u8>() + unseen_mimics;
        let mimic_suit = view
            .demon_pile
            .iter()
            .flatten()
            .flat_map(|demon| demon.symbols.iter())
            .find_map(|symbol| match symbol {
                Symbol::Suit(suit) => Some(*suit),
                Symbol::Rank(_) => None,
            })
            .unwrap_or(Suit::S1);
        Solver {
            view,
            next_demon: view.demon_pile.first().and_then(Option::as_ref),
            root: Position {
                slots,
                face_down,
                tops,
                used: 0,
                dug: 0,
            },
            unseen,
            unseen_mimics,
            unseen_total,
            mimic_suit,
            memo: HashMap::default(),
            pool: Vec::new(),
        }
    }

    /// The Ritual moves from `pos`: (column, foundation, declaration, resulting position).
    /// Foundations with the same top lead to the same future, so only the first is tried.
    fn moves(&self, pos: &Position, out: &mut Vec<Step>) {
        for (c, slot) in pos.slots.iter().enumerate() {
            let Slot::Known(card) = *slot else { continue };
            for f in 0..FOUNDATIONS {
                let top = pos.tops[f];
                if pos.tops[..f].contains(&top) {
                    continue;
                }
                let mut place = |face: Face, declare: Option<Face>| {
                    let mut next = *pos;
                    next.take(c);
                    next.tops[f] = Top::Face(face);
                    out.push((c as u8, f as u8, declare, next));
                };
                match card.face() {
                    Some(face) if top.accepts(face.rank) => place(face, None),
                    Some(_) => {}
                    None => {
                        for rank in top.accepted_ranks() {
                            let face = Face::new(self.mimic_suit, rank);
                            place(face, Some(face));
                        }
                    }
                }
            }
        }
    }

    /// The best score reachable from `pos` by Ritual moves on known cards.
    fn value(&mut self, pos: &Position) -> i32 {
        let key = pos.key();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut next = self.pool.pop().unwrap_or_default();
        next.clear();
        self.moves(pos, &mut next);
        let v = if next.is_empty() {
            self.leaf(pos)
        } else {
            let mut best = i32::MIN;
            for (.., p) in &next {
                best = best.max(self.value(p));
            }
            best
        };
        self.pool.push(next);
        self.memo.insert(key, v);
        v
    }

    /// How good a position with no known move left is.
    fn leaf(&self, pos: &Position) -> i32 {
        let cleared = pos.used.count_ones() as i32;
        let mut accepted = 0u16;
        let mut dead = 0i32;
        for top in pos.tops {
            match top {
                Top::Face(face) => {
                    accepted |= 1 << face.rank.up().index() | 1 << face.rank.down().index()
                }
                Top::Wild => accepted = (1 << 13) - 1,
                Top::Dead => dead += 1,
            }
        }
        let live = dead < FOUNDATIONS as i32;
        let playable: u32 = (0..13)
            .filter(|r| accepted & 1 << r != 0)
            .map(|r| self.unseen[r] as u32)
            .sum::<u32>()
            + if live { self.unseen_mimics as u32 } else { 0 };
        let p_unknown = playable as f32 / self.unseen_total.max(1) as f32;
        let mut v = CARD_WEIGHT * cleared + pos.dug;
        v += COVERAGE_WEIGHT * accepted.count_ones() as i32 - DEAD_WEIGHT * dead;
        for slot in pos.slots {
            match slot {
                Slot::Unknown => v += (UNKNOWN_WEIGHT * p_unknown) as i32,
                Slot::Known(card) => v -= DISTANCE_WEIGHT * distance(card, &pos.tops),
                Slot::Empty => {}
            }
        }
        if let Some(demon) = self.next_demon {
            let matches = pos
                .tops
                .iter()
                .any(|top| demon.symbols.iter().any(|&s| top.matches_symbol(s)));
            if matches {
                v += DEMON_WEIGHT;
            }
        }
        v
    }

    /// The first move of the best plan, preferring moves that uncover a card on ties.
    fn best_move(&mut self) -> Option<(i32, Action)> {
        let mut first = Vec::new();
        let root = self.root;
        self.moves(&root, &mut first);
        // Among the first moves of the best plans, take one from the deepest column: what it
        // uncovers is news that may change the plan before the rest is committed.
        let mut best: Option<((i32, u8), Action)> = None;
        for (column, foundation, declare, pos) in first {
            let key = (self.value(&pos), root.face_down[column as usize]);
            if best.as_ref().is_none_or(|(b, _)| key > *b) {
                let action = Action::Move {
                    column,
                    foundation,
                    declare,
                };
                best = Some((key, action));
            }
        }
        best.map(|((v, _), action)| (v, action))
    }

    /// The best sacrifice of the top demon that takes at least one card: its foundation and
    /// the offers in placing order.
    fn best_sacrifice(&mut self) -> Option<(u8, Vec<Action>)> {
        let demon = self.view.demon_pile.first()?.as_ref()?;
        // What the plans lead to is judged with the demon after this one on top.
        self.next_demon = self.view.demon_pile.get(1).and_then(Option::as_ref);
        self.memo.clear();
        let mut best: Option<(i32, u8, Vec<Action>)> = None;
        for f in 0..FOUNDATIONS {
            let top = self.root.tops[f];
            if !demon.symbols.iter().any(|&s| top.matches_symbol(s)) {
                continue;
            }
            if let Some((v, offers)) = self.best_offers(f, &demon.symbols, u8::MAX)
                && best.as_ref().is_none_or(|(b, ..)| v > *b)
            {
                best = Some((v, f as u8, offers));
            }
        }
        best.map(|(_, f, offers)| (f, offers))
    }

    /// During a sacrifice: the first card of the best way to finish it, or ending it when
    /// offering nothing more scores best.
    fn next_offer(&mut self, sacrifice: &SacrificeView) -> Action {
        let eligible = sacrifice
            .eligible
            .iter()
            .fold(0u8, |mask, &c| mask | 1 << c);
        let stop = self.value(&self.root.clone());
        match self.best_offers(
            sacrifice.foundation as usize,
            &sacrifice.remaining,
            eligible,
        ) {
            Some((v, offers)) if v > stop => offers.into_iter().next().expect("at least one"),
            _ => Action::EndSacrifice,
        }
    }

    /// The best non-empty set of offers of the `eligible` visible cards to `symbols` (one card
    /// per symbol), with the card that becomes the top of foundation `f` placed last.
    fn best_offers(
        &mut self,
        f: usize,
        symbols: &[Symbol],
        eligible: u8,
    ) -> Option<(i32, Vec<Action>)> {
        let full = ((1u16 << symbols.len()) - 1) as u8;
        // The visible cards the demon could take, with the symbols each could match.
        let cards: Vec<(usize, Card, u8)> = self
            .root
            .slots
            .iter()
            .enumerate()
            .filter(|(c, _)| eligible & 1 << c != 0)
            .filter_map(|(c, slot)| match *slot {
                Slot::Known(card) => {
                    let mask = match card.face() {
                        Some(face) => mask_of(symbols, face),
                        None => full,
                    };
                    (mask != 0).then_some((c, card, mask))
                }
                _ => None,
            })
            .collect();
        let mut best: Option<(i32, Vec<Action>)> = None;
        let root = self.root;
        for subset in 1u32..1 << cards.len() {
            let chosen: Vec<&(usize, Card, u8)> = (0..cards.len())
                .filter(|i| subset & 1 << i != 0)
                .map(|i| &cards[i])
                .collect();
            if chosen.len() > symbols.len() {
                continue;
            }
            for last in 0..chosen.len() {
                let (_, card, _) = *chosen[last];
                let tops: Vec<(Face, Vec<u8>)> = match card.face() {
                    Some(face) => {
                        let masks: Vec<u8> = order(&chosen, last).map(|c| c.2).collect();
                        if !assignable(&masks) {
                            continue;
                        }
                        vec![(face, masks)]
                    }
                    None => mimic_tops(symbols, &chosen, last),
                };
                for (face, masks) in tops {
                    let mut pos = root;
                    for chosen_card in &chosen {
                        pos.take(chosen_card.0);
                    }
                    pos.tops[f] = Top::Face(face);
                    let v = self.value(&pos);
                    if best.as_ref().is_none_or(|(b, _)| v > *b) {
                        best = Some((v, offers(symbols, &chosen, last, face, &masks)));
                    }
                }
            }
        }
        best
    }
}

/// The chosen cards with the one at `last` moved to the end.
fn order<'c>(
    chosen: &'c [&'c (usize, Card, u8)],
    last: usize,
) -> impl Iterator<Item = &'c (usize, Card, u8)> {
    chosen
        .iter()
        .enumerate()
        .filter(move |(i, _)| *i != last)
        .chain(std::iter::once((last, &chosen[last])))
        .map(|(_, c)| *c)
}

fn mask_of(symbols: &[Symbol], face: Face) -> u8 {
    symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| face.matches(**s))
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// For a Mimic placed last: every card it may be declared as (one matching a symbol the other
/// cards leave free), with the masks of the whole list in placing order.
fn mimic_tops(
    symbols: &[Symbol],
    chosen: &[&(usize, Card, u8)],
    last: usize,
) -> Vec<(Face, Vec<u8>)> {
    let mut tops: Vec<(Face, Vec<u8>)> = Vec::new();
    for face in Face::all() {
        let mask = mask_of(symbols, face);
        if mask == 0 {
            continue;
        }
        let masks: Vec<u8> = order(chosen, last)
            .enumerate()
            .map(|(i, c)| if i + 1 == chosen.len() { mask } else { c.2 })
            .collect();
        if assignable(&masks) && !tops.iter().any(|(f, _)| f.rank == face.rank) {
            tops.push((face, masks));
        }
    }
    tops
}

/// The offers in placing order, each card for the symbol a matching assigns it; a Mimic is
/// declared as `last_face` if it is placed last, else as a card matching its symbol.
fn offers(
    symbols: &[Symbol],
    chosen: &[&(usize, Card, u8)],
    last: usize,
    last_face: Face,
    masks: &[u8],
) -> Vec<Action> {
    let assignment = assign(masks).expect("the masks were checked assignable");
    let count = chosen.len();
    order(chosen, last)
        .zip(assignment)
        .enumerate()
        .map(|(i, (&(column, card, _), symbol))| {
            let symbol = symbols[symbol as usize];
            let declare = match card {
                Card::Ritual { .. } => None,
                Card::Mimic if i + 1 == count => Some(last_face),
                Card::Mimic => Some(face_for(symbol)),
            };
            Action::Offer {
                column: column as u8,
                symbol,
                declare,
            }
        })
        .collect()
}

/// Whether each card (given by the symbols it matches) can take a different symbol: "for
/// each symbol, one card" (proposal 6). At most four cards and four symbols, so a plain
/// search is instant.
fn assignable(masks: &[u8]) -> bool {
    fn go(masks: &[u8], taken: u8) -> bool {
        let Some((&first, rest)) = masks.split_first() else {
            return true;
        };
        let mut free = first & !taken;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            if go(rest, taken | bit) {
                return true;
            }
            free &= !bit;
        }
        false
    }
    go(masks, 0)
}

/// One way to give each card its own symbol.
fn assign(masks: &[u8]) -> Option<Vec<u8>> {
    fn go(masks: &[u8], taken: u8, out: &mut Vec<u8>) -> bool {
        let Some((&first, rest)) = masks.split_first() else {
            return true;
        };
        for bit in 0..8u8 {
            if first & !taken & 1 << bit != 0 {
                out.push(bit);
                if go(rest, taken | 1 << bit, out) {
                    return true;
                }
                out.pop();
            }
        }
        false
    }
    let mut out = Vec::new();
    go(masks, 0, &mut out).then_some(out)
}

/// A card matching `symbol`, for a Mimic whose declaration does not matter beyond that.
fn face_for(symbol: Symbol) -> Face {
    match symbol {
        Symbol::Suit(suit) => Face::new(suit, Rank::Ace),
        Symbol::Rank(rank) => Face::new(Suit::S1, rank),
    }
}

/// How many steps a card's rank is from being playable on the nearest live top.
fn distance(card: Card, tops: &[Top; FOUNDATIONS]) -> i32 {
    let Some(face) = card.face() else { return 0 };
    tops.iter()
        .filter_map(|top| match top {
            Top::Face(t) => {
                let d = (t.rank.index() as i32 - face.rank.index() as i32).rem_euclid(13);
                Some(d.min(13 - d) - 1)
            }
            Top::Wild => Some(0),
            Top::Dead => None,
        })
        .min()
        .unwrap_or(6)
}
