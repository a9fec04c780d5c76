//! Every legal action, complete (the harness checks "accepted if and only if listed"), and
//! plausible random actions for the harness to throw at the engine.
//!
//! Playing a Sacrifice one card at a time keeps the list short: a placement per matching
//! foundation, then per step an offer per eligible card and symbol it matches (a Mimic once
//! per card it may be declared as: 13 for a suit symbol, 4 for a rank).

use pandemonium_game_contract::Chance;

use crate::action::Action;
use crate::cards::{Face, Rank, Suit, Symbol};
use crate::state::{COLUMNS, FOUNDATIONS, Soulitaire};

impl Soulitaire {
    /// Every legal action, in a stable order: Ritual moves, the sacrifice, discard, concede;
    /// during a sacrifice, offers, ending it, concede.
    pub(crate) fn legal(&self) -> Vec<Action> {
        let mut legal = Vec::new();
        if !self.is_playing() {
            return legal;
        }
        if self.sacrifice.is_some() {
            self.offers(&mut legal);
            legal.push(Action::EndSacrifice);
            legal.push(Action::Concede);
            return legal;
        }
        let tops = self.tops();
        for (column, col) in self.spellboard.iter().enumerate() {
            let Some(card) = col.exposed() else { continue };
            for (foundation, top) in tops.iter().enumerate() {
                let (column, foundation) = (column as u8, foundation as u8);
                match card.face() {
                    Some(face) if top.accepts(face.rank) => legal.push(Action::Move {
                        column,
                        foundation,
                        declare: None,
                    }),
                    Some(_) => {}
                    None => {
                        for rank in top.accepted_ranks() {
                            for suit in Suit::ALL {
                                legal.push(Action::Move {
                                    column,
                                    foundation,
                                    declare: Some(Face::new(suit, rank)),
                                });
                            }
                        }
                    }
                }
            }
        }
        if let Some(demon) = self.top_demon() {
            for (foundation, top) in tops.iter().enumerate() {
                if top.matches_demon(demon) {
                    legal.push(Action::Sacrifice {
                        foundation: foundation as u8,
                    });
                }
            }
            legal.push(Action::Discard);
        }
        legal.push(Action::Concede);
        legal
    }

    /// The offers open in the sacrifice under way: each eligible card for each distinct
    /// symbol still unsatisfied that it matches (a Mimic declared as each card matching it).
    fn offers(&self, legal: &mut Vec<Action>) {
        let Some((pending, demon)) = self.sacrificed_demon() else {
            return;
        };
        let mut symbols: Vec<Symbol> = Vec::with_capacity(4);
        for (i, &symbol) in demon.symbols.iter().enumerate() {
            if pending.unused & 1 << i != 0 && !symbols.contains(&symbol) {
                symbols.push(symbol);
            }
        }
        for column in 0..COLUMNS as u8 {
            if pending.eligible & 1 << column == 0 {
                continue;
            }
            let Some(card) = self.spellboard[column as usize].exposed() else {
                continue;
            };
            for &symbol in &symbols {
                match card.face() {
                    Some(face) if face.matches(symbol) => legal.push(Action::Offer {
                        column,
                        symbol,
                        declare: None,
                    }),
                    Some(_) => {}
                    None => legal.extend(faces_matching(symbol).map(|face| Action::Offer {
                        column,
                        symbol,
                        declare: Some(face),
                    })),
                }
            }
        }
    }

    /// A random action: mostly plausible but illegal (a random column, foundation, symbol or
    /// declaration), sometimes a listed legal one.
    pub(crate) fn arbitrary(&self, chance: &mut dyn Chance) -> Action {
        let column = |chance: &mut dyn Chance| chance.below(COLUMNS as u32 + 1) as u8;
        let foundation = |chance: &mut dyn Chance| chance.below(FOUNDATIONS as u32 + 1) as u8;
        let suit = |chance: &mut dyn Chance| Suit::ALL[chance.below(4) as usize];
        let rank = |chance: &mut dyn Chance| Rank::ALL[chance.below(13) as usize];
        let declare = |chance: &mut dyn Chance| {
            (chance.below(3) == 0).then(|| Face::new(suit(chance), rank(chance)))
        };
        match chance.below(24) {
            0..=6 => Action::Move {
                column: column(chance),
                foundation: foundation(chance),
                declare: declare(chance),
            },
            7..=8 => Action::Sacrifice {
                foundation: foundation(chance),
            },
            9..=14 => {
                // Mostly a symbol of the demon being sacrificed, when there is one.
                let own = self
                    .sacrificed_demon()
                    .map(|(_, demon)| demon.symbols)
                    .filter(|symbols| !symbols.is_empty() && chance.below(4) != 0);
                let symbol = match own {
                    Some(symbols) => symbols[chance.below(symbols.len() as u32) as usize],
                    None if chance.below(2) == 0 => Symbol::Suit(suit(chance)),
                    None => Symbol::Rank(rank(chance)),
                };
                Action::Offer {
                    column: column(chance),
                    symbol,
                    declare: declare(chance),
                }
            }
            15 => Action::EndSacrifice,
            16 => Action::Discard,
            17 => Action::Concede,
            _ => {
                let legal = self.legal();
                if legal.is_empty() {
                    Action::Concede
                } else {
                    legal[chance.below(legal.len() as u32) as usize].clone()
                }
            }
        }
    }
}

/// Every card a Mimic may be declared as to match `symbol`: the 13 cards of a suit, or the
/// four cards of a rank.
pub(crate) fn faces_matching(symbol: Symbol) -> impl Iterator<Item = Face> {
    Face::all().filter(move |face| face.matches(symbol))
}
