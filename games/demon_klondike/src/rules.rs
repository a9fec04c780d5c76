//! Checking and applying actions. `check` resolves an action against the current table (or
//! says why it cannot be played) without touching anything; `perform` then applies the
//! resolved move, so a refused action never changes the state.

use pandemonium_game_contract::{Chance, Seat, SharedRefusal};

use crate::action::{Action, Error};
use crate::cards::{ACE, KING};
use crate::config::RunMoves;
use crate::layout::{PILES, Place};
use crate::state::{DemonKlondike, Foundation, Phase};

/// An action resolved against the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Move {
    Draw,
    Recycle,
    /// A card to foundation `Some(index)`, or a new foundation for an Ace.
    ToFoundation {
        from: Place,
        onto: Option<usize>,
    },
    ToPile {
        from: Place,
        to: usize,
    },
    Stuck,
    Ready,
}

impl DemonKlondike {
    pub(crate) fn check(&self, seat: Seat, action: &Action) -> Result<Move, Error> {
        if seat >= self.seats {
            return Err(Error::NoSuchSeat);
        }
        match self.phase {
            Phase::Over => Err(Error::Shared(SharedRefusal::MatchOver)),
            Phase::BetweenDeals { ready } => match action {
                Action::Ready if ready.contains(seat) => Err(Error::AlreadyReady),
                Action::Ready => Ok(Move::Ready),
                _ => Err(Error::BetweenDeals),
            },
            Phase::Racing => self.check_racing(seat, action),
        }
    }

    fn check_racing(&self, seat: Seat, action: &Action) -> Result<Move, Error> {
        let layout = &self.layouts[seat as usize];
        match *action {
            Action::Ready => Err(Error::DealUnderway),
            _ if self.stuck.contains(seat) => Err(Error::Stopped),
            Action::Stuck => Ok(Move::Stuck),
            Action::Draw if layout.stock.is_empty() => Err(Error::StockEmpty),
            Action::Draw => Ok(Move::Draw),
            Action::Recycle if !layout.stock.is_empty() => Err(Error::StockNotEmpty),
            Action::Recycle if layout.waste.is_empty() => Err(Error::WasteEmpty),
            Action::Recycle => Ok(Move::Recycle),
            Action::ToFoundation { card, foundation } => {
                let from = layout.find(card).ok_or(Error::NotPlayable)?;
                if layout.run_at(from).len() > 1 {
                    return Err(Error::NotTopCard);
                }
                let onto = match foundation {
                    None if card.rank() == ACE => None,
                    None => return Err(Error::NotAnAce),
                    Some(index) => {
                        let index = index as usize;
                        let target = self.foundations.get(index).ok_or(Error::NoSuchFoundation)?;
                        check_foundation(target, card)?;
                        Some(index)
                    }
                };
                Ok(Move::ToFoundation { from, onto })
            }
            Action::ToPile { card, pile } => {
                let to = pile as usize;
                if to >= PILES {
                    return Err(Error::NoSuchPile);
                }
                let from = layout.find(card).ok_or(Error::NotPlayable)?;
                if let Place::Pile { pile, index } = from {
                    if pile == to {
                        return Err(Error::SamePile);
                    }
                    if self.config.runs == RunMoves::WholeRun && index != 0 {
                        return Err(Error::WholeRunOnly);
                    }
                }
                match layout.piles[to].top() {
                    None if card.rank() == KING => {}
                    None => return Err(Error::EmptyPileNeedsAKing),
                    Some(below) if card.builds_on(below) => {}
                    Some(_) => return Err(Error::DoesNotBuild),
                }
                Ok(Move::ToPile { from, to })
            }
        }
    }

    /// Applies a checked move.
    pub(crate) fn perform(&mut self, seat: Seat, step: Move, chance: &mut dyn Chance) {
        let s = seat as usize;
        let made_progress = match step {
            Move::Ready => {
                if let Phase::BetweenDeals { ready } = &mut self.phase {
                    ready.insert(seat);
                    if ready.len() == self.seats as usize {
                        self.deal_next(chance);
                    }
                }
                return;
            }
            Move::Stuck => {
                self.stuck.insert(seat);
                false
            }
            Move::Draw => {
                self.layouts[s].draw();
                false
            }
            Move::Recycle => {
                self.layouts[s].recycle();
                self.idle_passes[s] = self.idle_passes[s].saturating_add(1);
                false
            }
            Move::ToFoundation { from, onto } => {
                let (cards, _) = self.layouts[s].take(from);
                let card = cards[0];
                match onto {
                    Some(index) => self.foundations[index].owners.push(seat),
                    None => self.foundations.push(Foundation {
                        suit: card.suit(),
                        owners: vec![seat],
                    }),
                }
                self.scored[s] += 1;
                true
            }
            Move::ToPile { from, to } => {
                let (run, turned_up) = self.layouts[s].take(from);
                self.layouts[s].piles[to].up.extend(run);
                // Waste to tableau and a move that turns a card up are progress; a plain
                // shuffle between piles is not (proposal 6).
                from == Place::Waste || turned_up
            }
        };
        self.after_action(seat, made_progress);
    }
}

/// Whether `card` may go onto `target` now; a card already matched or passed there lost a
/// race.
fn check_foundation(target: &Foundation, card: crate::cards::Card) -> Result<(), Error> {
    if card.rank() == ACE {
        return Err(Error::AceStartsAFoundation);
    }
    if target.suit != card.suit() {
        return Err(Error::WrongSuit);
    }
    if card.rank() <= target.top_rank() {
        return Err(Error::FoundationMoved);
    }
    if card.rank() > target.top_rank() + 1 {
        return Err(Error::NotNextOnFoundation);
    }
    Ok(())
}
