//! Re-dealing what a viewer cannot see, for the no-leak check: other hands, the pack, face-down
//! discards, other players' private commits, the Power Pile and face-down figures the viewer
//! may not look at are shuffled among their places; a team consultation the viewer is outside
//! of is replayed with other members proposing, passing and confirming; everything the viewer
//! sees stays put.

use pandemonium_game_contract::{Chance, Seat, SeatSet, Viewer, shuffle};

use crate::actions::{Declaration, DemosAction, Take};
use crate::cards::{Card, Figure, Suit};
use crate::state::{Demos, Step, Turn, VetoUsed};

impl Demos {
    /// Calls `visit` on every number card hidden from `viewer`, in a fixed order.
    fn hidden_cards(&mut self, viewer: Viewer, visit: &mut dyn FnMut(&mut Card)) {
        for seat in 0..self.seats {
            let sees_hand = self.sees_hand(viewer, seat);
            let player = &mut self.players[seat as usize];
            if !sees_hand {
                player.hand.iter_mut().for_each(&mut *visit);
            }
            for record in player.turns.iter_mut().flatten() {
                if let (false, false, Some(card)) =
                    (record.revealed, sees_hand, &mut record.discard)
                {
                    visit(card);
                }
            }
        }
        self.peoples_pack.iter_mut().for_each(visit);
    }

    /// Calls `visit` on every figure hidden from `viewer`, in a fixed order.
    fn hidden_figures(&mut self, viewer: Viewer, visit: &mut dyn FnMut(&mut Figure)) {
        for seat in 0..self.seats {
            let seen = self.sees_figures_of(viewer, seat);
            for held in &mut self.players[seat as usize].figures {
                if !held.face_up && !seen {
                    visit(&mut held.figure);
                }
            }
        }
        let sides: Vec<bool> = match &self.step {
            Step::Allocation { pending } => pending
                .iter()
                .map(|p| self.is_of_side(viewer, p.side))
                .collect(),
            _ => Vec::new(),
        };
        if let Step::Allocation { pending } = &mut self.step {
            for (allocation, seen) in pending.iter_mut().zip(sides) {
                if !seen {
                    allocation.figures.iter_mut().for_each(&mut *visit);
                }
            }
        }
        self.power_pile.iter_mut().for_each(visit);
    }

    pub(crate) fn redealt(&self, viewer: Viewer, chance: &mut dyn Chance) -> Demos {
        let mut game = self.clone();
        if self.sees_all(viewer) {
            return game;
        }
        let mut cards = Vec::with_capacity(48);
        game.hidden_cards(viewer, &mut |c| cards.push(*c));
        shuffle(&mut cards, chance);
        let mut cards = cards.into_iter();
        game.hidden_cards(viewer, &mut |c| *c = cards.next().expect("same places"));

        let mut figures = Vec::with_capacity(16);
        game.hidden_figures(viewer, &mut |f| figures.push(*f));
        shuffle(&mut figures, chance);
        let mut figures = figures.into_iter();
        game.hidden_figures(viewer, &mut |f| *f = figures.next().expect("same places"));

        // Other players' private commits and fallbacks are hidden too: choose them afresh.
        for seat in 0..self.seats {
            if viewer == Viewer::Seat(seat) {
                continue;
            }
            if game.commits[seat as usize].is_some() {
                game.commits[seat as usize] = Some(game.random_commit(seat, chance));
            }
            let pool: Vec<Card> = Card::all().collect();
            for record in game.players[seat as usize].turns.iter_mut().flatten() {
                if record.wanted.is_some() || chance.below(2) == 0 {
                    record.wanted = (chance.below(2) == 0).then(|| pool[chance.below(40) as usize]);
                }
            }
        }
        game.reconsult(viewer, chance);
        game
    }

    /// Who proposed, passed or confirmed in a team's consultation is hidden from those outside
    /// the team: choose it afresh (a pending poll may as well be a pending proposal), and let
    /// any member have proposed a spent veto.
    fn reconsult(&mut self, viewer: Viewer, chance: &mut dyn Chance) {
        let any_member = |members: SeatSet, chance: &mut dyn Chance| {
            let seats: Vec<Seat> = members.iter().collect();
            seats[chance.below(seats.len() as u32) as usize]
        };
        // Each member of `pool` joins the subset by a coin toss, short of all of them.
        let some_of = |pool: SeatSet, chance: &mut dyn Chance| loop {
            let subset: SeatSet = pool.iter().filter(|_| chance.below(2) == 0).collect();
            if subset.len() < pool.len() {
                return subset;
            }
        };
        if let Step::VetoPoll { position, .. } | Step::VetoConfirmation { position, .. } = self.step
        {
            let side = self.side(self.seat_at(position));
            if self.discreet_from(viewer, side) {
                let members = self.members(side);
                self.step = if chance.below(2) == 0 {
                    Step::VetoPoll {
                        position,
                        passed: some_of(members, chance),
                    }
                } else {
                    let proposer = any_member(members, chance);
                    let mut others = members;
                    others.remove(proposer);
                    Step::VetoConfirmation {
                        position,
                        proposer,
                        confirmed: some_of(others, chance),
                    }
                };
            }
        }
        let proposer = |game: &Demos, veto: VetoUsed, chance: &mut dyn Chance| VetoUsed {
            by: if game.discreet_from(viewer, veto.side) {
                Some(any_member(game.members(veto.side), chance))
            } else {
                veto.by
            },
            ..veto
        };
        if let Some(veto) = self.veto {
            self.veto = Some(proposer(self, veto, chance));
        }
        if let Some(veto) = self.last_round.as_ref().and_then(|r| r.veto) {
            let veto = proposer(self, veto, chance);
            if let Some(round) = self.last_round.as_mut() {
                round.veto = Some(veto);
            }
        }
    }

    /// A commit `seat` could have made in the current simultaneous step.
    fn random_commit(&self, seat: Seat, chance: &mut dyn Chance) -> DemosAction {
        let suit = |chance: &mut dyn Chance| Suit::ALL[chance.below(4) as usize];
        let Step::Discard { turn, .. } = self.step else {
            return DemosAction::Declare {
                declaration: Declaration {
                    favourite: suit(chance),
                    trio: [suit(chance), suit(chance), suit(chance)],
                },
            };
        };
        let hand = &self.players[seat as usize].hand;
        let card = hand[chance.below(hand.len() as u32) as usize];
        let mut takes: Vec<Take> = vec![Take::Pack];
        takes.extend(self.visible_discards().map(Take::Discard));
        let take = takes[chance.below(takes.len() as u32) as usize];
        match turn {
            Turn::Public => DemosAction::PublicDiscard { card },
            Turn::Secret if chance.below(4) == 0 => DemosAction::KeepHand,
            Turn::Secret => DemosAction::SecretDiscard { card, take },
            Turn::Unanimous => DemosAction::UnanimousDiscard { card, take },
        }
    }
}
