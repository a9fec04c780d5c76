//! A round up to its resolution: the deal, the three discard turns (simultaneous commits or
//! one after another) and the veto poll before the Unanimous Discard.

use pandemonium_game_contract::{Chance, Seat, SeatSet, shuffle};

use crate::actions::{DemosAction, DemosError, Take};
use crate::cards::Card;
use crate::json::{Kind, Members};
use crate::state::{Demos, Step, Turn, TurnRecord, VetoUsed};

/// Cards in a hand.
pub const HAND: usize = 5;

impl Demos {
    /// A new round: the cards are collected; in team modes the round opens with the team
    /// consultation window, before the deal.
    pub(crate) fn start_round(&mut self, chance: &mut dyn Chance) {
        self.round += 1;
        self.veto = None;
        for player in &mut self.players {
            player.hand.clear();
            player.turns = [None; 3];
        }
        self.peoples_pack.clear();
        if self.mode().is_team() {
            self.step = Step::Consultation {
                waiting: SeatSet::all(self.seats),
            };
        } else {
            self.deal(chance);
        }
    }

    /// Shuffles the People's Pack (or takes the rigged one) and deals five cards, one by one,
    /// clockwise from the dealer's left.
    pub(crate) fn deal(&mut self, chance: &mut dyn Chance) {
        self.peoples_pack = if self.rigged_decks.is_empty() {
            let aces = self.mode().is_complete();
            let mut pack: Vec<Card> = Card::all().filter(|c| aces || c.rank() > 1).collect();
            shuffle(&mut pack, chance);
            pack
        } else {
            let mut pack = self.rigged_decks.remove(0);
            pack.reverse();
            pack
        };
        for _ in 0..HAND {
            for seat in self.dealing_order() {
                let card = self
                    .peoples_pack
                    .pop()
                    .expect("a pack holds a deal for five");
                self.players[seat as usize].hand.push(card);
            }
        }
        self.start_turn(Turn::Public);
    }

    fn start_turn(&mut self, turn: Turn) {
        let waiting = if self.rules.sequential {
            SeatSet::only(self.seat_at(0))
        } else {
            SeatSet::all(self.seats)
        };
        self.step = Step::Discard {
            turn,
            waiting,
            position: 0,
        };
    }

    /// Whether `take` may be asked for now.
    fn check_take(&self, take: Take) -> Result<(), DemosError> {
        match take {
            Take::Pack if self.peoples_pack.is_empty() => Err(DemosError::PackEmpty),
            Take::Pack => Ok(()),
            Take::Discard(card) if self.visible_discards().any(|c| c == card) => Ok(()),
            Take::Discard(_) => Err(DemosError::NotAvailable),
        }
    }

    /// Keeping the hand is a choice in the complete game's Secret Discard, and otherwise only
    /// the pack guard: nothing left to receive (proposal 3).
    pub(crate) fn may_keep_hand(&self, turn: Turn) -> bool {
        match turn {
            Turn::Secret if self.mode().is_complete() => true,
            Turn::Public => self.peoples_pack.is_empty(),
            Turn::Secret | Turn::Unanimous => {
                self.peoples_pack.is_empty() && self.visible_discards().next().is_none()
            }
        }
    }

    /// Validates a discard-turn action for a seat that is to act.
    pub(crate) fn check_discard(
        &self,
        seat: Seat,
        turn: Turn,
        action: &DemosAction,
    ) -> Result<(), DemosError> {
        let holds = |card: Card| {
            if self.players[seat as usize].hand.contains(&card) {
                Ok(())
            } else {
                Err(DemosError::NotInHand)
            }
        };
        match (turn, *action) {
            (_, DemosAction::KeepHand) if self.may_keep_hand(turn) => Ok(()),
            (_, DemosAction::KeepHand) => Err(DemosError::DiscardRequired),
            (Turn::Public, DemosAction::PublicDiscard { card }) => {
                holds(card)?;
                if self.peoples_pack.is_empty() {
                    Err(DemosError::PackEmpty)
                } else {
                    Ok(())
                }
            }
            (Turn::Secret, DemosAction::SecretDiscard { card, take })
            | (Turn::Unanimous, DemosAction::UnanimousDiscard { card, take }) => {
                holds(card)?;
                self.check_take(take)
            }
            _ => Err(DemosError::WrongStep),
        }
    }

    /// Every legal action of a discard turn, the documented default first (discard the first
    /// card and draw from the pack; keep the hand where the complete game allows it).
    pub(crate) fn discard_actions(&self, seat: Seat, turn: Turn) -> Vec<DemosAction> {
        let mut actions = Vec::new();
        self.each_discard_action(seat, turn, |action| actions.push(action));
        actions
    }

    /// [`Demos::discard_actions`] as the JSON array the list serialises to, written action by
    /// action without building it: a secret turn offers every card of the hand with every
    /// take (25 actions with five cards and four visible discards), in the frame of every
    /// seat still to commit, after every commit. The conformance harness holds the text to
    /// the list's, byte for byte.
    pub(crate) fn write_discard_actions(&self, seat: Seat, turn: Turn, out: &mut Vec<u8>) {
        out.push(b'[');
        let mut first = true;
        self.each_discard_action(seat, turn, |action| {
            if !std::mem::take(&mut first) {
                out.push(b',');
            }
            write_discard_json(&action, out);
        });
        out.push(b']');
    }

    /// Hands `each` the legal actions of a discard turn, in [`Demos::discard_actions`]'s order.
    fn each_discard_action(&self, seat: Seat, turn: Turn, mut each: impl FnMut(DemosAction)) {
        if self.may_keep_hand(turn) {
            each(DemosAction::KeepHand);
        }
        let hand = &self.players[seat as usize].hand;
        let pack = !self.peoples_pack.is_empty();
        if turn == Turn::Public {
            if pack {
                hand.iter()
                    .for_each(|&card| each(DemosAction::PublicDiscard { card }));
            }
            return;
        }
        let discard = |card, take| match turn {
            Turn::Secret => DemosAction::SecretDiscard { card, take },
            _ => DemosAction::UnanimousDiscard { card, take },
        };
        for &card in hand {
            if pack {
                each(discard(card, Take::Pack));
            }
            for visible in self.visible_discards() {
                each(discard(card, Take::Discard(visible)));
            }
        }
    }

    /// Accepts a checked discard-turn action: a private commit, or (sequential order, or the
    /// last commit in) the turn's resolution.
    pub(crate) fn perform_discard(
        &mut self,
        seat: Seat,
        action: DemosAction,
        chance: &mut dyn Chance,
    ) {
        let Step::Discard {
            turn,
            mut waiting,
            position,
        } = self.step
        else {
            unreachable!("checked: a discard turn is under way");
        };
        waiting.remove(seat);
        if self.rules.sequential {
            self.apply_discard(seat, turn, action);
            let next = position + 1;
            if next < self.seats {
                self.step = Step::Discard {
                    turn,
                    waiting: SeatSet::only(self.seat_at(next)),
                    position: next,
                };
            } else {
                self.finish_turn(turn, chance);
            }
            return;
        }
        self.commits[seat as usize] = Some(action);
        if !waiting.is_empty() {
            self.step = Step::Discard {
                turn,
                waiting,
                position,
            };
            return;
        }
        // The last commit is in: apply them all in clockwise priority from the dealer's left.
        for seat in self.dealing_order() {
            let commit = self.commits[seat as usize]
                .take()
                .expect("every seat committed");
            self.apply_discard(seat, turn, commit);
        }
        self.finish_turn(turn, chance);
    }

    /// One player's discard and replacement. A visible discard already taken by an earlier
    /// player becomes the top of the pack; with the pack empty too, the hand is kept.
    fn apply_discard(&mut self, seat: Seat, turn: Turn, action: DemosAction) {
        let kept = TurnRecord {
            discard: None,
            took: None,
            wanted: None,
            revealed: false,
            taken_by: None,
        };
        let (card, asked) = match action {
            DemosAction::PublicDiscard { card } => (card, Take::Pack),
            DemosAction::SecretDiscard { card, take }
            | DemosAction::UnanimousDiscard { card, take } => (card, take),
            _ => {
                self.players[seat as usize].turns[turn as usize] = Some(kept);
                return;
            }
        };
        let mut wanted = None;
        let received = match asked {
            Take::Discard(wish) if self.take_visible(wish, seat) => Some((wish, asked)),
            Take::Discard(wish) => {
                wanted = Some(wish);
                self.peoples_pack.pop().map(|top| (top, Take::Pack))
            }
            Take::Pack => self.peoples_pack.pop().map(|top| (top, Take::Pack)),
        };
        let player = &mut self.players[seat as usize];
        player.turns[turn as usize] = Some(match received {
            Some((new, took)) => {
                let slot = player
                    .hand
                    .iter()
                    .position(|&c| c == card)
                    .expect("checked");
                player.hand[slot] = new;
                TurnRecord {
                    discard: Some(card),
                    took: Some(took),
                    wanted,
                    revealed: turn == Turn::Public,
                    taken_by: None,
                }
            }
            None => TurnRecord { wanted, ..kept },
        });
    }

    fn finish_turn(&mut self, turn: Turn, chance: &mut dyn Chance) {
        match turn {
            Turn::Public => self.start_turn(Turn::Secret),
            Turn::Secret if self.mode().is_complete() => self.advance_poll(0),
            Turn::Secret | Turn::Unanimous => self.resolve(chance),
        }
    }

    /// The position (from the dealer's left) at which `side` is polled: its first member's.
    fn poll_position(&self, side: u8) -> u8 {
        self.members(side)
            .iter()
            .map(|s| self.position_of(s))
            .min()
            .unwrap_or(0)
    }

    /// Polls the next side with a veto left, from `position` on; when nobody is left to ask,
    /// the Unanimous Discard is agreed: secret discards turn face up and the turn is played.
    fn advance_poll(&mut self, from: u8) {
        for position in from..self.seats {
            let side = self.side(self.seat_at(position));
            if self.vetoes[side as usize] > 0 && self.poll_position(side) == position {
                self.step = Step::VetoPoll {
                    position,
                    passed: SeatSet::EMPTY,
                };
                return;
            }
        }
        for player in &mut self.players {
            if let Some(record) = &mut player.turns[Turn::Secret as usize] {
                record.revealed = record.discard.is_some();
            }
        }
        self.start_turn(Turn::Unanimous);
    }

    /// The seats still to answer the poll or a veto proposal.
    pub(crate) fn poll_to_act(&self) -> SeatSet {
        match self.step {
            Step::VetoPoll { position, passed } => {
                let mut seats = self.members(self.side(self.seat_at(position)));
                for seat in passed.iter() {
                    seats.remove(seat);
                }
                seats
            }
            Step::VetoConfirmation {
                position,
                proposer,
                confirmed,
            } => {
                let mut seats = self.members(self.side(self.seat_at(position)));
                seats.remove(proposer);
                for seat in confirmed.iter() {
                    seats.remove(seat);
                }
                seats
            }
            _ => SeatSet::EMPTY,
        }
    }

    /// Veto, Pass, ConfirmVeto or DeclineVeto from a seat that is to answer (checked).
    pub(crate) fn perform_poll(
        &mut self,
        seat: Seat,
        action: DemosAction,
        chance: &mut dyn Chance,
    ) {
        let side = self.side(seat);
        let members = self.members(side);
        match (self.step.clone(), action) {
            (Step::VetoPoll { position, .. }, DemosAction::Veto) => {
                if members.len() == 1 {
                    self.spend_veto(side, seat, chance);
                } else {
                    self.step = Step::VetoConfirmation {
                        position,
                        proposer: seat,
                        confirmed: SeatSet::EMPTY,
                    };
                }
            }
            (
                Step::VetoPoll {
                    position,
                    mut passed,
                },
                _,
            ) => {
                passed.insert(seat);
                if passed == members {
                    self.advance_poll(position + 1);
                } else {
                    self.step = Step::VetoPoll { position, passed };
                }
            }
            (
                Step::VetoConfirmation {
                    position,
                    proposer,
                    mut confirmed,
                },
                DemosAction::ConfirmVeto,
            ) => {
                confirmed.insert(seat);
                if confirmed.len() + 1 == members.len() {
                    self.spend_veto(side, proposer, chance);
                } else {
                    self.step = Step::VetoConfirmation {
                        position,
                        proposer,
                        confirmed,
                    };
                }
            }
            // A declined proposal: the team does not veto this round.
            (Step::VetoConfirmation { position, .. }, _) => self.advance_poll(position + 1),
            _ => unreachable!("checked: a veto poll is under way"),
        }
    }

    /// The first veto cancels the Unanimous Discard: secret discards stay hidden and the round
    /// goes to its resolution.
    fn spend_veto(&mut self, side: u8, by: Seat, chance: &mut dyn Chance) {
        self.vetoes[side as usize] -= 1;
        self.veto = Some(VetoUsed { side, by: Some(by) });
        self.resolve(chance);
    }
}

/// A discard turn's action as its derived `Serialize` writes it, without going through serde's
/// tagged enum and key escaper (other actions are serialised).
fn write_discard_json(action: &DemosAction, out: &mut Vec<u8>) {
    let (kind, card, take) = match action {
        DemosAction::PublicDiscard { card } => ("public_discard", card, None),
        DemosAction::SecretDiscard { card, take } => ("secret_discard", card, Some(take)),
        DemosAction::UnanimousDiscard { card, take } => ("unanimous_discard", card, Some(take)),
        other => {
            serde_json::to_writer(out, other).expect("actions serialise");
            return;
        }
    };
    let mut json = Members::open(out);
    json.plain("type", Kind(kind));
    json.plain("card", card);
    if let Some(take) = take {
        json.plain("take", take);
    }
    json.close();
}
