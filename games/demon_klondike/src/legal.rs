//! Every legal action of a seat (complete: `apply` accepts an action exactly when it is
//! listed), and arbitrary actions for the conformance harness.

use pandemonium_game_contract::{Chance, Seat, SeatSet};

use crate::action::Action;
use crate::cards::{ACE, Card, KING};
use crate::config::RunMoves;
use crate::layout::{Layout, PILES, Place};
use crate::state::{DemonKlondike, Foundation, Phase};

impl DemonKlondike {
    /// Who may act: between deals, the seats not yet ready; during a deal, every seat still
    /// racing (all but those that said they are stuck).
    pub(crate) fn racing_or_waiting(&self) -> SeatSet {
        match self.phase {
            Phase::Over => SeatSet::EMPTY,
            Phase::BetweenDeals { ready } => {
                (0..self.seats).filter(|&s| !ready.contains(s)).collect()
            }
            Phase::Racing => (0..self.seats)
                .filter(|&s| !self.stuck.contains(s))
                .collect(),
        }
    }

    pub(crate) fn legal(&self, seat: Seat) -> Vec<Action> {
        if seat >= self.seats {
            return Vec::new();
        }
        match self.phase {
            Phase::Over => Vec::new(),
            Phase::BetweenDeals { ready } if ready.contains(seat) => Vec::new(),
            Phase::BetweenDeals { .. } => vec![Action::Ready],
            Phase::Racing if self.stuck.contains(seat) => Vec::new(),
            Phase::Racing => {
                let layout = &self.layouts[seat as usize];
                let mut actions = Vec::new();
                if !layout.stock.is_empty() {
                    actions.push(Action::Draw);
                } else if !layout.waste.is_empty() {
                    actions.push(Action::Recycle);
                }
                for_each_foundation_move(layout, &self.foundations, |card, foundation| {
                    actions.push(Action::ToFoundation { card, foundation })
                });
                for_each_pile_move(layout, self.config.runs, |card, _, pile| {
                    actions.push(Action::ToPile {
                        card,
                        pile: pile as u8,
                    })
                });
                actions.push(Action::Stuck);
                actions
            }
        }
    }

    /// Any action at all, mostly plausible, for the harness to throw at the engine.
    pub(crate) fn arbitrary(&self, chance: &mut dyn Chance) -> Action {
        let card = Card::deck()[chance.below(52) as usize];
        match chance.below(8) {
            0 => Action::Draw,
            1 => Action::Recycle,
            2 => Action::Stuck,
            3 => Action::Ready,
            4 | 5 => Action::ToFoundation {
                card,
                foundation: match chance.below(self.foundations.len() as u32 + 2) {
                    0 => None,
                    n => Some(n as u16 - 1),
                },
            },
            _ => Action::ToPile {
                card,
                pile: chance.below(PILES as u32 + 1) as u8,
            },
        }
    }
}

/// Calls `f(card, foundation)` for every card of `layout` that may go to a foundation now:
/// the waste top and pile tops, to each same-suit foundation it is next on, or to a new one
/// for an Ace.
pub(crate) fn for_each_foundation_move(
    layout: &Layout,
    foundations: &[Foundation],
    mut f: impl FnMut(Card, Option<u16>),
) {
    let tops = layout
        .waste_top()
        .into_iter()
        .chain(layout.piles.iter().filter_map(|p| p.top()));
    for card in tops {
        if card.rank() == ACE {
            f(card, None);
            continue;
        }
        for (index, foundation) in foundations.iter().enumerate() {
            if foundation.takes(card) {
                f(card, Some(index as u16));
            }
        }
    }
}

/// Calls `f(card, from, to)` for every move of a card or run of `layout` onto another pile.
pub(crate) fn for_each_pile_move(
    layout: &Layout,
    runs: RunMoves,
    mut f: impl FnMut(Card, Place, usize),
) {
    let mut sources: Vec<(Card, Place)> = Vec::new();
    if let Some(card) = layout.waste_top() {
        sources.push((card, Place::Waste));
    }
    for (pile, p) in layout.piles.iter().enumerate() {
        let heads = match runs {
            RunMoves::AnyRun => p.up.len(),
            RunMoves::WholeRun => p.up.len().min(1),
        };
        for index in 0..heads {
            sources.push((p.up[index], Place::Pile { pile, index }));
        }
    }
    for (card, from) in sources {
        for (to, target) in layout.piles.iter().enumerate() {
            if matches!(from, Place::Pile { pile, .. } if pile == to) {
                continue;
            }
            let fits = match target.top() {
                None => card.rank() == KING,
                Some(below) => card.builds_on(below),
            };
            if fits {
                f(card, from, to);
            }
        }
    }
}
