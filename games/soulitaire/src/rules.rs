//! Checking and carrying out actions. Every action is checked in full before anything
//! changes, so a refused action leaves the match exactly as it was.
//!
//! A Sacrifice is a short sequence (proposal 6 kept exactly): `Sacrifice` places the demon and
//! fixes the cards that may be offered (those visible then), each `Offer` places one of them
//! for one of the demon's symbols, and the sacrifice ends on `EndSacrifice` or by itself once
//! nothing more can be offered. Win and loss are checked only once it is over.

use pandemonium_game_contract::Seat;
use pandemonium_game_contract::SharedRefusal;

use crate::action::Action;
use crate::cards::{Card, Face, Symbol};
use crate::error::Error;
use crate::state::{COLUMNS, FOUNDATIONS, Layer, PendingSacrifice, Soulitaire, Status, Top};

impl Soulitaire {
    /// Checks `action` for `seat` without changing anything.
    pub(crate) fn check(&self, seat: Seat, action: &Action) -> Result<(), Error> {
        if !self.is_playing() {
            return Err(Error::Shared(SharedRefusal::MatchOver));
        }
        if seat != 0 {
            return Err(Error::NotYourSeat(seat));
        }
        match action {
            Action::Offer {
                column,
                symbol,
                declare,
            } => self.check_offer(*column, *symbol, *declare).map(|_| ()),
            Action::EndSacrifice => self.sacrifice.map(|_| ()).ok_or(Error::NoSacrifice),
            Action::Concede => Ok(()),
            _ if self.sacrifice.is_some() => Err(Error::SacrificeUnderWay),
            Action::Move {
                column,
                foundation,
                declare,
            } => self.check_move(*column, *foundation, *declare).map(|_| ()),
            Action::Sacrifice { foundation } => self.check_sacrifice(*foundation),
            Action::Discard => self.top_demon().map(|_| ()).ok_or(Error::NoDemon),
        }
    }

    /// Checks and applies `action`; on error nothing has changed.
    pub(crate) fn perform(&mut self, seat: Seat, action: &Action) -> Result<(), Error> {
        self.check(seat, action)?;
        match action {
            Action::Move {
                column,
                foundation,
                declare,
            } => {
                let layer = self.check_move(*column, *foundation, *declare)?;
                self.spellboard[*column as usize].take();
                self.foundations[*foundation as usize].layers.push(layer);
            }
            Action::Sacrifice { foundation } => {
                let demon = self.next_demon;
                self.foundations[*foundation as usize]
                    .layers
                    .push(Layer::Demon(demon));
                self.next_demon += 1;
                let symbols = self.demons[demon as usize].symbols.len();
                self.sacrifice = Some(PendingSacrifice {
                    foundation: *foundation,
                    demon,
                    eligible: (0..COLUMNS)
                        .filter(|&c| !self.spellboard[c].is_empty())
                        .fold(0, |mask, c| mask | 1 << c),
                    offered: 0,
                    unused: ((1u16 << symbols) - 1) as u8,
                });
            }
            Action::Offer {
                column,
                symbol,
                declare,
            } => {
                let (layer, bit) = self.check_offer(*column, *symbol, *declare)?;
                let pending = self.sacrifice.as_mut().expect("checked: a sacrifice");
                pending.eligible &= !(1 << column);
                pending.offered |= 1 << column;
                pending.unused &= !bit;
                let foundation = pending.foundation as usize;
                self.spellboard[*column as usize].take();
                self.foundations[foundation].layers.push(layer);
            }
            Action::EndSacrifice => self.sacrifice = None,
            Action::Discard => {
                self.discarded.push(self.next_demon);
                self.next_demon += 1;
            }
            Action::Concede => {
                self.sacrifice = None;
                self.status = Status::Conceded;
            }
        }
        self.settle();
        Ok(())
    }

    fn column_card(&self, column: u8) -> Result<Card, Error> {
        let index = column as usize;
        if index >= COLUMNS {
            return Err(Error::NoSuchColumn(column));
        }
        self.spellboard[index]
            .exposed()
            .ok_or(Error::EmptyColumn(column))
    }

    fn foundation_top(&self, foundation: u8) -> Result<Top, Error> {
        let index = foundation as usize;
        if index >= FOUNDATIONS {
            return Err(Error::NoSuchFoundation(foundation));
        }
        Ok(self.top(index))
    }

    /// A Ritual move: the card of `column` onto `foundation`, one rank away, suit ignored. A
    /// Mimic becomes the declared card for good (proposal 5). Returns the layer it makes.
    fn check_move(
        &self,
        column: u8,
        foundation: u8,
        declare: Option<Face>,
    ) -> Result<Layer, Error> {
        let card = self.column_card(column)?;
        let top = self.foundation_top(foundation)?;
        let (layer, face) = match (card.face(), declare) {
            (Some(face), None) => (Layer::Ritual(face), face),
            (Some(_), Some(_)) => return Err(Error::NotAMimic),
            (None, Some(face)) => (Layer::Mimic(Some(face)), face),
            (None, None) => return Err(Error::MimicUndeclared),
        };
        match top {
            Top::Dead => Err(Error::DeadStack(foundation)),
            Top::Face(top) if !top.rank.is_adjacent(face.rank) => Err(Error::NotAdjacent {
                card: face.rank,
                top: top.rank,
            }),
            Top::Face(_) | Top::Wild => Ok(layer),
        }
    }

    /// Placing the top demon to open a Sacrifice: onto a foundation whose top shares a suit or
    /// a rank with one of its symbols (a starting Mimic matches any rank symbol).
    fn check_sacrifice(&self, foundation: u8) -> Result<(), Error> {
        let demon = self.top_demon().ok_or(Error::NoDemon)?;
        match self.foundation_top(foundation)? {
            Top::Dead => Err(Error::DeadStack(foundation)),
            top if !top.matches_demon(demon) => Err(Error::DemonDoesNotMatch {
                demon: demon.name,
                foundation,
            }),
            _ => Ok(()),
        }
    }

    /// One card offered to the demon being sacrificed (proposal 6): a card that was visible
    /// when the demon was placed, matching a copy of `symbol` not yet satisfied; a Mimic is
    /// declared as a card matching that symbol (proposal 5). Returns the layer it makes and
    /// the bit of the symbol copy it satisfies (the first one left).
    fn check_offer(
        &self,
        column: u8,
        symbol: Symbol,
        declare: Option<Face>,
    ) -> Result<(Layer, u8), Error> {
        let (pending, demon) = self.sacrificed_demon().ok_or(Error::NoSacrifice)?;
        let card = self.column_card(column)?;
        if pending.eligible & 1 << column == 0 {
            return Err(Error::NotVisibleWhenPlaced(column));
        }
        let (layer, face) = match (card.face(), declare) {
            (Some(face), None) => (Layer::Ritual(face), face),
            (Some(_), Some(_)) => return Err(Error::NotAMimic),
            (None, Some(face)) => (Layer::Mimic(Some(face)), face),
            (None, None) => return Err(Error::MimicUndeclared),
        };
        let copy = demon
            .symbols
            .iter()
            .enumerate()
            .find(|&(i, &s)| s == symbol && pending.unused & 1 << i != 0)
            .map(|(i, _)| 1u8 << i);
        let Some(bit) = copy else {
            return Err(Error::SymbolNotWanted {
                demon: demon.name,
                symbol,
            });
        };
        if !face.matches(symbol) {
            return Err(Error::DoesNotMatchSymbol { face, symbol });
        }
        Ok((layer, bit))
    }
}
