//! Checking and carrying out actions. Every action is checked in full before anything
//! changes, so a refused action leaves the match exactly as it was.

use pandemonium_game::Seat;

use crate::action::{Action, Offering};
use crate::cards::{Card, Demon, Face};
use crate::error::Error;
use crate::state::{COLUMNS, FOUNDATIONS, Layer, Soulitaire, Status, Top};

/// Bit `i` is set when `face` matches the demon's symbol `i`.
pub(crate) fn symbol_mask(demon: &Demon, face: Face) -> u8 {
    demon
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, symbol)| face.matches(**symbol))
        .fold(0, |mask, (i, _)| mask | 1 << i)
}

/// Whether each card (given by the symbols it matches) can take a different symbol: "for
/// each symbol, one card" (proposal 6). At most four cards and four symbols, so a plain
/// search is instant.
pub(crate) fn assignable(masks: &[u8]) -> bool {
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

impl Soulitaire {
    /// Checks `action` for `seat` without changing anything.
    pub(crate) fn check(&self, seat: Seat, action: &Action) -> Result<(), Error> {
        if !self.is_playing() {
            return Err(Error::GameOver);
        }
        if seat != 0 {
            return Err(Error::NotYourSeat(seat));
        }
        match action {
            Action::Move {
                column,
                foundation,
                declare,
            } => self.check_move(*column, *foundation, *declare).map(|_| ()),
            Action::Sacrifice {
                foundation,
                offerings,
            } => self.check_sacrifice(*foundation, offerings),
            Action::Discard => self.top_demon().map(|_| ()).ok_or(Error::NoDemon),
            Action::Concede => Ok(()),
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
            Action::Sacrifice {
                foundation,
                offerings,
            } => {
                let layers = &mut self.foundations[*foundation as usize].layers;
                layers.push(Layer::Demon(self.next_demon));
                for offering in offerings {
                    let card = self.spellboard[offering.column as usize].take();
                    layers.push(match (card.face(), offering.declare) {
                        (Some(face), _) => Layer::Ritual(face),
                        (None, declared) => Layer::Mimic(declared),
                    });
                }
                self.next_demon += 1;
            }
            Action::Discard => {
                self.discarded.push(self.next_demon);
                self.next_demon += 1;
            }
            Action::Concede => self.status = Status::Conceded,
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

    /// A Sacrifice: the top demon onto a foundation whose top matches one of its symbols,
    /// then at most one visible card per symbol, each matching its own symbol (proposal 6).
    /// One card per column: a card uncovered during the sacrifice was not visible when the
    /// cards were chosen.
    fn check_sacrifice(&self, foundation: u8, offerings: &[Offering]) -> Result<(), Error> {
        let demon = self.top_demon().ok_or(Error::NoDemon)?;
        match self.foundation_top(foundation)? {
            Top::Dead => return Err(Error::DeadStack(foundation)),
            top if !top.matches_demon(demon) => {
                return Err(Error::DemonDoesNotMatch {
                    demon: demon.name,
                    foundation,
                });
            }
            _ => {}
        }
        if offerings.len() > demon.symbols.len() {
            return Err(Error::TooManyOfferings {
                demon: demon.name,
                symbols: demon.symbols.len(),
            });
        }
        let mut used = 0u8;
        let mut masks = [0u8; 4];
        for (i, offering) in offerings.iter().enumerate() {
            let card = self.column_card(offering.column)?;
            if used & 1 << offering.column != 0 {
                return Err(Error::ColumnOfferedTwice(offering.column));
            }
            used |= 1 << offering.column;
            let face = match (card.face(), offering.declare) {
                (Some(face), None) | (None, Some(face)) => face,
                (Some(_), Some(_)) => return Err(Error::NotAMimic),
                (None, None) => return Err(Error::MimicUndeclared),
            };
            masks[i] = symbol_mask(demon, face);
        }
        if !assignable(&masks[..offerings.len()]) {
            return Err(Error::OfferingsDoNotMatch { demon: demon.name });
        }
        Ok(())
    }
}
