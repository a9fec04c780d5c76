//! Every legal action, complete (the harness checks "accepted if and only if listed"), and
//! plausible random actions for the harness to throw at the engine.

use pandemonium_game::Chance;

use crate::action::{Action, Offering};
use crate::cards::{Card, Demon, Face, Rank, Suit};
use crate::rules::{assignable, symbol_mask};
use crate::state::{COLUMNS, FOUNDATIONS, Soulitaire};

impl Soulitaire {
    /// Every legal action, in a stable order: Ritual moves, sacrifices, discard, concede.
    pub(crate) fn legal(&self) -> Vec<Action> {
        let mut legal = Vec::new();
        if !self.is_playing() {
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
            let matching: Vec<u8> = (0..FOUNDATIONS as u8)
                .filter(|&f| tops[f as usize].matches_demon(demon))
                .collect();
            if !matching.is_empty() {
                let offerings = self.offering_lists(demon);
                for &foundation in &matching {
                    legal.extend(offerings.iter().map(|offerings| Action::Sacrifice {
                        foundation,
                        offerings: offerings.clone(),
                    }));
                }
            }
            legal.push(Action::Discard);
        }
        legal.push(Action::Concede);
        legal
    }

    /// Every ordered list of visible cards `demon` can take: distinct columns, each card
    /// matching a different symbol, Mimics declared as any card matching a symbol. Includes
    /// the empty list.
    fn offering_lists(&self, demon: &Demon) -> Vec<Vec<Offering>> {
        // Per visible card, the ways it can be offered: (declaration, symbols matched).
        let mut choices: Vec<(u8, Ways)> = Vec::new();
        for (column, col) in self.spellboard.iter().enumerate() {
            let Some(card) = col.exposed() else { continue };
            let ways: Ways = match card {
                Card::Ritual { suit, rank } => {
                    vec![(None, symbol_mask(demon, Face { suit, rank }))]
                }
                Card::Mimic => Face::all()
                    .map(|face| (Some(face), symbol_mask(demon, face)))
                    .collect(),
            };
            let ways: Vec<_> = ways.into_iter().filter(|(_, mask)| *mask != 0).collect();
            if !ways.is_empty() {
                choices.push((column as u8, ways));
            }
        }
        let mut lists = Vec::new();
        let mut prefix = Vec::with_capacity(4);
        let mut masks = Vec::with_capacity(4);
        extend(
            &choices,
            demon.symbols.len(),
            0,
            &mut prefix,
            &mut masks,
            &mut lists,
        );
        lists
    }

    /// A random action: mostly plausible but illegal (a random column, foundation,
    /// declaration or set of offerings), sometimes a listed legal one.
    pub(crate) fn arbitrary(&self, chance: &mut dyn Chance) -> Action {
        let column = |chance: &mut dyn Chance| chance.below(COLUMNS as u32 + 1) as u8;
        let foundation = |chance: &mut dyn Chance| chance.below(FOUNDATIONS as u32 + 1) as u8;
        let declare = |chance: &mut dyn Chance| {
            (chance.below(3) == 0).then(|| {
                Face::new(
                    Suit::ALL[chance.below(4) as usize],
                    Rank::ALL[chance.below(13) as usize],
                )
            })
        };
        match chance.below(20) {
            0..=7 => Action::Move {
                column: column(chance),
                foundation: foundation(chance),
                declare: declare(chance),
            },
            8..=13 => {
                let count = chance.below(6);
                Action::Sacrifice {
                    foundation: foundation(chance),
                    offerings: (0..count)
                        .map(|_| Offering {
                            column: column(chance),
                            declare: declare(chance),
                        })
                        .collect(),
                }
            }
            14 => Action::Discard,
            15 => Action::Concede,
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

/// The ways one visible card can be offered: its declaration (for a Mimic) and the mask of
/// demon symbols it then matches.
type Ways = Vec<(Option<Face>, u8)>;

/// Depth-first over ordered lists: every prefix of a valid list is valid, so each valid list
/// is reached exactly once, by extending a shorter one.
fn extend(
    choices: &[(u8, Ways)],
    symbols: usize,
    used: u8,
    prefix: &mut Vec<Offering>,
    masks: &mut Vec<u8>,
    lists: &mut Vec<Vec<Offering>>,
) {
    lists.push(prefix.clone());
    if prefix.len() == symbols {
        return;
    }
    for (column, ways) in choices {
        if used & 1 << column != 0 {
            continue;
        }
        for &(declare, mask) in ways {
            masks.push(mask);
            if assignable(masks) {
                prefix.push(Offering {
                    column: *column,
                    declare,
                });
                extend(choices, symbols, used | 1 << column, prefix, masks, lists);
                prefix.pop();
            }
            masks.pop();
        }
    }
}
