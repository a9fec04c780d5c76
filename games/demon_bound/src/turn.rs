//! The turn: refresh, one card play with any number of banishes, the stain, the discard step,
//! being carried away to hell, and passing the turn. Pending decisions (who an appeased or
//! released demon attacks) are resolved here too, and `settle` does every automatic step.

use pandemonium_game_contract::{Chance, Seat, shuffle};

use crate::cards::{Card, Suit};
use crate::log::Event;
use crate::state::{DemonBound, Ending, HAND, Pending, Step, Why, take};

impl DemonBound {
    /// Step 1: refresh the hand to six (reshuffling the discards into a new draw pile when it
    /// runs out, except in solitaire), then note the demons the turn begins with.
    pub(crate) fn begin_turn(&mut self, seat: Seat, chance: &mut dyn Chance) {
        self.turn = seat;
        self.player_mut(seat).peeks.clear();
        let mut drew = 0;
        let mut reshuffled = false;
        while self.player(seat).hand.len() < HAND {
            if self.draw.is_empty() {
                if self.solitaire() || self.discard.is_empty() {
                    break;
                }
                if self.config.reshuffle_cap == Some(self.reshuffles) {
                    self.finish(Ending::ReshuffleCap);
                    return;
                }
                self.draw = std::mem::take(&mut self.discard);
                shuffle(&mut self.draw, chance);
                self.reshuffles += 1;
                reshuffled = true;
            }
            let card = self.draw.pop().expect("the draw pile is not empty");
            self.player_mut(seat).hand.push(card);
            drew += 1;
        }
        self.turn_start = self.player(seat).threats.clone();
        self.active = DemonBound::strongest(&self.turn_start);
        self.step = Step::Play { played: false };
        self.record(Event::TurnBegan {
            seat,
            drew,
            reshuffled,
        });
    }

    fn card_played(&mut self) {
        self.step = Step::Play { played: true };
    }

    /// A heart into the sacrifice.
    pub(crate) fn sacrifice(&mut self, card: Card) {
        let seat = self.turn;
        let player = self.player_mut(seat);
        player.take(card);
        player.sacrifice.push(card);
        self.record(Event::Sacrificed { seat, card });
        self.card_played();
    }

    /// A heart that brings the sacrifice to the demon's strength: the demon attacks `target`
    /// (is discarded in solitaire), and the whole sacrifice is discarded.
    pub(crate) fn appease(&mut self, card: Card, demon: Card, target: Option<Seat>) {
        let seat = self.turn;
        let player = self.player_mut(seat);
        player.take(card);
        player.sacrifice.push(card);
        take(&mut player.threats, demon);
        let sacrifice = std::mem::take(&mut player.sacrifice);
        self.discard.extend(sacrifice);
        self.record(Event::Appeased { seat, demon, card });
        self.send(demon, seat, target);
        self.card_played();
    }

    /// Places `demon` before `target` as an attacker, or discards it when there is nobody to
    /// attack (solitaire).
    fn send(&mut self, demon: Card, by: Seat, target: Option<Seat>) {
        match target {
            Some(t) => self.player_mut(t).threats.push(demon),
            None => self.discard.push(demon),
        }
        self.record(Event::Attacks { demon, by, target });
    }

    /// A spade onto a sacrifice. A sacrifice already at the demon's strength appeases it at
    /// once: it is discarded and the sacrificing player (not the summoner) chooses the target.
    pub(crate) fn summon(&mut self, card: Card, onto: Seat) {
        let seat = self.turn;
        self.player_mut(seat).take(card);
        self.record(Event::Summoned {
            seat,
            demon: card,
            onto,
        });
        let target = self.player_mut(onto);
        if target.sacrifice_total() >= card.value() as u32 {
            let sacrifice = std::mem::take(&mut target.sacrifice);
            self.discard.extend(sacrifice);
            self.record(Event::AutoAppeased {
                demon: card,
                sacrificer: onto,
            });
            self.pending.push(Pending {
                decider: onto,
                demon: card,
                why: Why::Appeased,
            });
        } else {
            target.threats.push(card);
        }
        self.card_played();
    }

    /// A club binds a demon before you: it goes to your right; the sacrifice and the club are
    /// discarded (proposal 14).
    pub(crate) fn bind(&mut self, card: Card, demon: Card) {
        let seat = self.turn;
        let player = self.player_mut(seat);
        player.take(card);
        take(&mut player.threats, demon);
        player.bound.push(demon);
        let sacrifice = std::mem::take(&mut player.sacrifice);
        self.discard.extend(sacrifice);
        self.discard.push(card);
        self.record(Event::Bound { seat, demon, card });
        self.card_played();
    }

    /// A diamond into the treasury, paid by releasing bound demons. The game ends at once
    /// when the tenth numbered diamond reaches a survivor's treasury.
    pub(crate) fn treasure(&mut self, card: Card, release: &[Card]) {
        let seat = self.turn;
        let player = self.player_mut(seat);
        player.take(card);
        player.treasury.push(card);
        for &demon in release {
            take(&mut player.bound, demon);
        }
        self.discard.extend_from_slice(release);
        self.record(Event::Treasure {
            seat,
            card,
            released: release.to_vec(),
        });
        self.card_played();
        self.check_treasures();
    }

    pub(crate) fn check_treasures(&mut self) {
        let claimed: usize = (0..self.seats)
            .filter(|&s| self.alive(s))
            .map(|s| {
                self.player(s)
                    .treasury
                    .iter()
                    .filter(|c| c.is_numbered_of(Suit::Diamonds))
                    .count()
            })
            .sum();
        if claimed == 10 {
            self.finish(Ending::TreasuresClaimed);
        }
    }

    /// Frees a bound demon to banish a demon before you: both are discarded. Not a card play.
    pub(crate) fn banish(&mut self, demon: Card, freed: Card) {
        let seat = self.turn;
        let player = self.player_mut(seat);
        take(&mut player.threats, demon);
        take(&mut player.bound, freed);
        self.discard.extend([demon, freed]);
        self.record(Event::Banished { seat, demon, freed });
    }

    /// The end of step 2: the active threat, if still before you, marks your soul and is
    /// discarded (proposal 10). Then the discard step, unless solitaire's deck has run out.
    pub(crate) fn end_play(&mut self) {
        let seat = self.turn;
        if let Some(demon) = self.active.take() {
            let player = self.player_mut(seat);
            if take(&mut player.threats, demon) {
                player.stain += 1;
                let stain = player.stain;
                self.discard.push(demon);
                self.record(Event::Stained { seat, demon, stain });
            }
        }
        if self.solitaire() && self.draw.is_empty() {
            // The game ends at the start of the discard phase after the last card is drawn.
            self.finish(Ending::DeckExhausted);
            return;
        }
        self.step = Step::Discard;
    }

    /// The fewest cards `seat` may discard now: its stain, or its whole hand if smaller.
    pub(crate) fn required_discards(&self, seat: Seat) -> usize {
        let player = self.player(seat);
        (player.stain as usize).min(player.hand.len())
    }

    /// Step 3. Every Joker among the cards opens Hell's Maw in turn (the Marcus King sees the
    /// spades discarded with it). An empty hand afterwards carries the player away to hell.
    pub(crate) fn discard_cards(&mut self, cards: &[Card], chance: &mut dyn Chance) {
        let seat = self.turn;
        for &card in cards {
            self.player_mut(seat).take(card);
        }
        self.discard.extend_from_slice(cards);
        self.record(Event::Discarded {
            seat,
            cards: cards.to_vec(),
        });
        for &card in cards.iter().filter(|c| c.is_maw()) {
            self.hells_maw(Some(seat), card, chance);
        }
        if self.player(seat).hand.is_empty() {
            self.carry_away(seat);
        } else {
            if self.solitaire() {
                self.turn_up(chance);
            }
            self.next_turn(chance);
        }
    }

    /// Carried away to hell: every table card but the bound demons goes to the discard pile;
    /// each bound demon is released to attack an opponent the player picks.
    fn carry_away(&mut self, seat: Seat) {
        self.eliminated += 1;
        let order = self.eliminated;
        let player = self.player_mut(seat);
        player.out = Some(order);
        player.stain = 0;
        let mut cards = std::mem::take(&mut player.sacrifice);
        cards.append(&mut player.treasury);
        cards.append(&mut player.threats);
        let bound = std::mem::take(&mut player.bound);
        self.discard.extend(cards);
        self.record(Event::Eliminated { seat });
        if self.solitaire() {
            self.discard.extend(bound);
            self.finish(Ending::CarriedAway);
            return;
        }
        self.pending.extend(bound.into_iter().map(|demon| Pending {
            decider: seat,
            demon,
            why: Why::Released,
        }));
        self.step = Step::Releasing;
    }

    /// The first pending demon attacks `target` (`None`: nobody to attack; it is discarded).
    pub(crate) fn resolve_pending(&mut self, target: Option<Seat>) {
        let pending = self.pending.remove(0);
        self.send(pending.demon, pending.decider, target);
    }

    /// Passes the turn clockwise, counting full rounds for the round cap.
    fn next_turn(&mut self, chance: &mut dyn Chance) {
        let current = self.turn;
        let next = self
            .clockwise_from((current + 1) % self.seats)
            .next()
            .expect("someone is still in the game");
        let position = |s: Seat| (s + self.seats - self.first) % self.seats;
        if position(next) <= position(current) {
            self.rounds += 1;
            if self.config.round_cap == Some(self.rounds) {
                self.finish(Ending::RoundCap);
                return;
            }
        }
        self.begin_turn(next, chance);
    }

    /// Performs every automatic step until someone has to decide something.
    pub(crate) fn settle(&mut self, chance: &mut dyn Chance) {
        while self.outcome.is_none() {
            if let Some(pending) = self.pending.first() {
                let targets = self.opponents(pending.decider);
                match targets.len() {
                    0 => self.resolve_pending(None),
                    1 => self.resolve_pending(Some(targets[0])),
                    _ => return,
                }
                continue;
            }
            match self.step {
                Step::Play { played: true } if !self.can_banish() => self.end_play(),
                Step::Spell { .. } if self.spell_actions(self.turn).is_empty() => {
                    self.step = Step::Play { played: true }
                }
                Step::Releasing => {
                    if self.survivors() <= 1 {
                        self.finish(Ending::LastSurvivor);
                    } else {
                        self.next_turn(chance);
                    }
                }
                _ => return,
            }
        }
    }

    pub(crate) fn can_banish(&self) -> bool {
        !self.player(self.turn).bound.is_empty() && self.answerable().next().is_some()
    }
}
