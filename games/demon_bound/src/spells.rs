//! Face-card spells (proposal 15), Hell's Maw (proposals 16 and 17) and solitaire's turn-ups
//! (proposal 24).
//!
//! A spell is cast with one action (the card play) and then used one effect at a time, up to
//! its power (Jack 1, Queen 2, King 3), until its caster ends it or it can do nothing more.

use pandemonium_game_contract::{Chance, Seat, SeatSet, shuffle};

use crate::cards::{Card, Suit};
use crate::log::Event;
use crate::state::{DemonBound, Peek, Step, take};

impl DemonBound {
    /// The card play of a face card: it goes to the discard pile and its spell begins.
    pub(crate) fn cast(&mut self, card: Card) {
        let seat = self.turn;
        self.player_mut(seat).take(card);
        self.discard.push(card);
        self.record(Event::Cast { seat, card });
        self.step = Step::Spell {
            card,
            left: card.spell_power().expect("a face card"),
            scrying: None,
            scried: SeatSet::EMPTY,
        };
    }

    fn spend(&mut self) {
        if let Step::Spell { left, .. } = &mut self.step {
            *left -= 1;
        }
    }

    /// Takes a demon off the table wherever it is; returns whose it was.
    fn lift_demon(&mut self, demon: Card) -> Seat {
        let (owner, bound) = self.find_demon(demon).expect("checked: on the table");
        let player = self.player_mut(owner);
        take(
            if bound {
                &mut player.bound
            } else {
                &mut player.threats
            },
            demon,
        );
        owner
    }

    /// Demonic Visage: a demon anywhere is banished.
    pub(crate) fn spell_banish(&mut self, demon: Card) {
        let from = self.lift_demon(demon);
        self.discard.push(demon);
        self.record(Event::SpellBanished {
            seat: self.turn,
            demon,
            from,
        });
        self.spend();
    }

    /// Royal Sacrifice: a spade from the hand attacks any player, with no auto-appease check.
    pub(crate) fn spell_summon(&mut self, card: Card, onto: Seat) {
        let seat = self.turn;
        self.player_mut(seat).take(card);
        self.player_mut(onto).threats.push(card);
        self.record(Event::SpellSummoned {
            seat,
            demon: card,
            onto,
        });
        self.spend();
    }

    /// The Master's Voice: a demon anywhere becomes yours, bound. The sacrifice stays.
    pub(crate) fn spell_bind(&mut self, demon: Card) {
        let from = self.lift_demon(demon);
        let seat = self.turn;
        self.player_mut(seat).bound.push(demon);
        self.record(Event::SpellBound { seat, demon, from });
        self.spend();
    }

    /// Treasure Scrying: the caster sees `target`'s hand.
    pub(crate) fn scry(&mut self, target: Seat) {
        let seat = self.turn;
        let hand = self.player(target).hand.clone();
        self.player_mut(seat).peeks.push(Peek {
            target,
            hand,
            taken: Vec::new(),
        });
        if let Step::Spell {
            scrying, scried, ..
        } = &mut self.step
        {
            *scrying = Some(target);
            scried.insert(target);
        }
        self.record(Event::Scried { seat, target });
    }

    /// Treasure Scrying: a numbered diamond from the hand peeked at (solitaire: from the
    /// discard pile) into the caster's hand, not the treasury.
    pub(crate) fn steal(&mut self, card: Card) {
        let seat = self.turn;
        let from = match self.step {
            Step::Spell { scrying, .. } => scrying,
            _ => None,
        };
        match from {
            Some(victim) => {
                self.player_mut(victim).take(card);
                if let Some(peek) = self.player_mut(seat).peeks.last_mut() {
                    peek.taken.push(card);
                }
            }
            None => {
                take(&mut self.discard, card);
            }
        }
        self.player_mut(seat).hand.push(card);
        // Consecutive thefts from one place make one event: "took 2 diamonds from Bea".
        match self.log.last_mut() {
            Some(Event::Stole {
                seat: s,
                from: f,
                count,
                cards,
            }) if *s == seat && *f == from => {
                *count += 1;
                cards.push(card);
            }
            _ => self.record(Event::Stole {
                seat,
                from,
                count: 1,
                cards: vec![card],
            }),
        }
        self.spend();
    }

    /// Hell's Maw Gapes Wide. A Joker: every player pitches the numbered spades in hand. The
    /// Marcus King: the numbered spades of the discard pile. They are shuffled and dealt as
    /// attacking demons, one each, from the discarder's left round the players still in the
    /// game (the discarder included) until none remain. In solitaire they all attack you.
    pub(crate) fn hells_maw(&mut self, seat: Option<Seat>, card: Card, chance: &mut dyn Chance) {
        let mut demons: Vec<Card> = Vec::new();
        if card == Card::MARCUS_KING {
            demons.extend(self.discard.iter().copied().filter(|c| c.is_demon()));
            self.discard.retain(|c| !c.is_demon());
        } else {
            for s in 0..self.seats {
                if self.alive(s) {
                    let hand = &mut self.player_mut(s).hand;
                    demons.extend(hand.iter().copied().filter(|c| c.is_demon()));
                    hand.retain(|c| !c.is_demon());
                }
            }
        }
        shuffle(&mut demons, chance);
        let from = seat.map_or(0, |s| (s + 1) % self.seats);
        let recipients: Vec<Seat> = self.clockwise_from(from).collect();
        let mut dealt = Vec::with_capacity(demons.len());
        if !recipients.is_empty() {
            for (i, demon) in demons.into_iter().enumerate() {
                let to = recipients[i % recipients.len()];
                self.player_mut(to).threats.push(demon);
                dealt.push((to, demon));
            }
        }
        self.record(Event::HellsMaw { seat, card, dealt });
    }

    /// Solitaire: two cards turned up after the turn (one if only one is left), standing for
    /// the other players. A demon attacks you; a Joker or the Marcus King opens Hell's Maw on
    /// you; anything else is discarded.
    pub(crate) fn turn_up(&mut self, chance: &mut dyn Chance) {
        for _ in 0..2 {
            let Some(card) = self.draw.pop() else { break };
            self.record(Event::TurnedUp { card });
            if card.is_demon() {
                self.player_mut(0).threats.push(card);
            } else {
                self.discard.push(card);
                if card.is_maw() {
                    self.hells_maw(None, card, chance);
                }
            }
        }
    }

    /// Whether `seat`'s hand holds a numbered diamond.
    pub(crate) fn has_diamonds(&self, seat: Seat) -> bool {
        self.player(seat)
            .hand
            .iter()
            .any(|c| c.is_numbered_of(Suit::Diamonds))
    }
}
