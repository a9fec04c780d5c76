//! The stalemate test of proposal 6: a deal ends when no player has a *progress move*
//! reachable however often they cycle their stock.
//!
//! Progress moves are a card to a foundation, waste to tableau, a tableau move that turns up a
//! face-down card, and a King (run) moved into an empty pile from a pile with face-down cards
//! (which always turns one up: a King can only head a pile's face-up run). Only progress moves
//! change the foundations, so when nobody has one, nobody ever will: each layout can be judged
//! on its own against the foundations as they are.
//!
//! For one layout the search combines the two kinds of non-progress moves:
//! - **stock cycling** is deterministic with draw-3, so the waste tops it can ever show are
//!   listed by simulating the rest of this pass and one whole pass after a turn-over;
//! - **tableau shuffles** (moving part of a run, or emptying a pile with no face-down cards)
//!   can expose a card or an empty pile that makes a progress move possible, so the search
//!   walks every tableau position they reach.
//!
//! The walk is capped; a position too rich to search is judged *not* stuck, so a deal is never
//! ended while someone may still play.

use std::collections::HashSet;

use crate::cards::{ACE, Card, KING};
use crate::config::RunMoves;
use crate::layout::{DRAW, Layout, PILES};
use crate::state::{DemonKlondike, Foundation};

/// Tableau positions searched per layout before giving up (and calling it not stuck).
const SEARCH_LIMIT: usize = 500;

/// Whether no player has a progress move left. A move playable right now is by far the
/// common case, so every layout is checked for one before any search.
pub(crate) fn nobody_can_progress(game: &DemonKlondike) -> bool {
    let (foundations, runs) = (&game.foundations, game.config.runs);
    // Players who said they are stuck have stopped: only those still racing can play.
    let racing = || {
        game.layouts
            .iter()
            .enumerate()
            .filter(|&(seat, _)| !game.stuck.contains(seat as u8))
            .map(|(_, layout)| layout)
    };
    // The cheapest test first, layout by layout: a move playable now without cycling.
    if racing().any(|layout| playable_now(layout, foundations)) {
        return false;
    }
    let searches: Vec<Search> = racing()
        .map(|layout| Search::new(layout, foundations))
        .collect();
    if searches.iter().any(Search::progress_now) {
        return false;
    }
    searches
        .iter()
        .all(|search| !search.progress_after_shuffles(runs))
}

/// Whether a progress move is playable right now, before any stock cycling: the waste top or
/// a pile top to a foundation, the waste top to a pile, or a run off face-down cards.
fn playable_now(layout: &Layout, foundations: &[Foundation]) -> bool {
    let accepts = |card: Card| card.rank() == ACE || foundations.iter().any(|f| f.takes(card));
    let fits = |card: Card, to: usize| match layout.piles[to].top() {
        None => card.rank() == KING,
        Some(below) => card.builds_on(below),
    };
    let mut tops = layout
        .waste_top()
        .into_iter()
        .chain(layout.piles.iter().filter_map(|p| p.top()));
    if tops.any(accepts) {
        return true;
    }
    if layout
        .waste_top()
        .is_some_and(|c| (0..PILES).any(|to| fits(c, to)))
    {
        return true;
    }
    layout.piles.iter().enumerate().any(|(from, p)| {
        !p.down.is_empty()
            && p.up
                .first()
                .is_some_and(|&head| (0..PILES).any(|to| to != from && fits(head, to)))
    })
}

/// Whether this layout has a progress move now or after any number of stock cycles and
/// tableau shuffles, with the foundations as they are.
pub fn can_progress(layout: &Layout, foundations: &[Foundation], runs: RunMoves) -> bool {
    let search = Search::new(layout, foundations);
    search.progress_now() || search.progress_after_shuffles(runs)
}

/// One layout's search: its tableau, the waste tops stock cycling can show, the foundations.
struct Search<'a> {
    start: Tableau,
    tops: Vec<Card>,
    foundations: &'a [Foundation],
}

impl<'a> Search<'a> {
    fn new(layout: &Layout, foundations: &'a [Foundation]) -> Search<'a> {
        Search {
            start: layout
                .piles
                .iter()
                .map(|p| (p.down.len() as u8, p.up.clone()))
                .collect(),
            tops: reachable_waste_tops(layout),
            foundations,
        }
    }

    fn accepts(&self, card: Card) -> bool {
        card.rank() == ACE || self.foundations.iter().any(|f| f.takes(card))
    }

    fn progress_now(&self) -> bool {
        self.tops.iter().any(|&c| self.accepts(c)) || self.has_progress(&self.start)
    }

    /// Walks the tableaux reachable by shuffles (the start one is already checked).
    fn progress_after_shuffles(&self, runs: RunMoves) -> bool {
        let mut seen: HashSet<Tableau> = HashSet::new();
        seen.insert(self.start.clone());
        let mut queue: Vec<Tableau> = shuffles(&self.start, runs).collect();
        while let Some(tableau) = queue.pop() {
            if !seen.insert(tableau.clone()) {
                continue;
            }
            if seen.len() > SEARCH_LIMIT || self.has_progress(&tableau) {
                return true;
            }
            queue.extend(shuffles(&tableau, runs).filter(|next| !seen.contains(next)));
        }
        false
    }

    /// A progress move in this tableau, other than one from the waste to a foundation.
    fn has_progress(&self, tableau: &Tableau) -> bool {
        // A pile's top card to a foundation.
        if tableau
            .iter()
            .any(|(_, up)| up.last().is_some_and(|&c| self.accepts(c)))
        {
            return true;
        }
        // A waste card to a pile.
        if self
            .tops
            .iter()
            .any(|&c| tableau.iter().any(|p| fits(c, p)))
        {
            return true;
        }
        // A run that uncovers a face-down card (a King run into an empty pile included).
        tableau.iter().enumerate().any(|(from, (down, up))| {
            *down > 0
                && up.first().is_some_and(|&head| {
                    tableau
                        .iter()
                        .enumerate()
                        .any(|(to, p)| to != from && fits(head, p))
                })
        })
    }
}

/// A tableau as the search sees it: per pile, the number of face-down cards and the face-up
/// run.
type Tableau = Vec<(u8, Vec<Card>)>;

fn fits(card: Card, pile: &(u8, Vec<Card>)) -> bool {
    match pile.1.last() {
        None => pile.0 == 0 && card.rank() == KING,
        Some(&below) => card.builds_on(below),
    }
}

/// The tableaux one non-progress move away.
fn shuffles(tableau: &Tableau, runs: RunMoves) -> impl Iterator<Item = Tableau> + '_ {
    (0..PILES).flat_map(move |from| {
        let (down, up) = &tableau[from];
        let heads = match runs {
            RunMoves::AnyRun => up.len(),
            RunMoves::WholeRun => up.len().min(1),
        };
        (0..heads)
            // Moving the whole run off face-down cards is progress, already checked.
            .filter(move |&index| !(index == 0 && *down > 0))
            .flat_map(move |index| {
                (0..PILES).filter_map(move |to| {
                    let target = &tableau[to];
                    let pointless = target.1.is_empty() && index == 0;
                    if to == from || pointless || !fits(up[index], target) {
                        return None;
                    }
                    let mut next = tableau.clone();
                    let run = next[from].1.split_off(index);
                    next[to].1.extend(run);
                    Some(next)
                })
            })
    })
}

/// Every card that can be on top of the waste through stock cycling alone: the current top,
/// the tops after each draw to the end of this pass, and after each draw of a full pass once
/// the waste is turned over. (A waste card played on the way would itself be progress.)
pub(crate) fn reachable_waste_tops(layout: &Layout) -> Vec<Card> {
    let mut tops: Vec<Card> = layout.waste_top().into_iter().collect();
    let mut stock = layout.stock.clone();
    let mut waste = layout.waste.clone();
    for pass in 0..2 {
        if pass == 1 {
            waste.reverse();
            stock = std::mem::take(&mut waste);
        }
        while !stock.is_empty() {
            for _ in 0..DRAW.min(stock.len()) {
                waste.push(stock.pop().expect("counted"));
            }
            tops.push(*waste.last().expect("just drawn"));
        }
    }
    tops.sort();
    tops.dedup();
    tops
}
