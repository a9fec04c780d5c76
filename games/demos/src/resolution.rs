//! The round's resolution: combinations revealed, points recorded, the winner found by the
//! tie-breaks, the Harmonious Square's forced reveals, the figure draw and, in team modes, the
//! team's allocation of what it drew.

use pandemonium_game_contract::{Chance, Seat, SharedRefusal};

use crate::actions::{AllocationTargets, DemosError};
use crate::harmony::Held;
use crate::scoring::{CombinationKind, Standing, best_combination, round_winners, suit_count};
use crate::state::{Demos, Draw, MissedTake, PendingAllocation, RoundSummary, Step, Turn};

impl Demos {
    pub(crate) fn resolve(&mut self, chance: &mut dyn Chance) {
        let squares = self.mode().is_complete();
        let order: Vec<Seat> = self.dealing_order().collect();
        let mut combinations = vec![None; self.seats as usize];
        let mut standings = Vec::with_capacity(order.len());
        for &seat in &order {
            let player = &self.players[seat as usize];
            let favourite = player.declaration.map(|d| d.favourite);
            let scored = best_combination(&player.hand, squares, favourite);
            let standing = scored.as_ref().map(|s| Standing {
                points: s.combination.points,
                suit_count: suit_count(&player.hand),
                unplayed: s.unplayed,
            });
            standings.push((seat, standing));
            combinations[seat as usize] = scored.map(|s| s.combination);
        }
        for (seat, combination) in combinations.iter().enumerate() {
            let points = combination.as_ref().map_or(0, |c| c.points);
            let player = &mut self.players[seat];
            player.points += points as u16;
            player.round_points.push(points);
        }
        let (winners, decided_by) = match round_winners(&standings) {
            Some((winners, decided_by)) => (winners, Some(decided_by)),
            None => (Vec::new(), None),
        };
        let square = |seat: Seat| {
            combinations[seat as usize]
                .as_ref()
                .is_some_and(|c| c.kind == CombinationKind::HarmoniousSquare)
        };

        // A Harmonious Square makes every other player (in teams, every adverse player) turn
        // their earliest-acquired E/L/J face up, at once, before anyone draws.
        let mut square_reveals = Vec::new();
        for seat in 0..self.seats {
            let hit = winners
                .iter()
                .any(|&w| square(w) && self.side(w) != self.side(seat));
            let first = self.players[seat as usize]
                .figures
                .iter_mut()
                .find(|h| !h.figure.is_media());
            if let (true, Some(first)) = (hit, first)
                && !first.face_up
            {
                first.face_up = true;
                square_reveals.push(seat);
            }
        }

        // Each winning side draws 1 figure, 2 after a Square, in dealing order while any remain.
        let mut draws = Vec::new();
        let mut pending = Vec::new();
        let mut drawn_sides: Vec<u8> = Vec::new();
        for &winner in &winners {
            let side = self.side(winner);
            if drawn_sides.contains(&side) {
                continue;
            }
            drawn_sides.push(side);
            let wanted = if square(winner) { 2 } else { 1 };
            let count = wanted.min(self.power_pile.len());
            let figures: Vec<_> = (0..count)
                .map(|_| self.power_pile.pop().expect("counted"))
                .collect();
            draws.push(Draw {
                side,
                count: count as u8,
            });
            if figures.is_empty() {
                continue;
            }
            if self.members(side).len() > 1 {
                pending.push(PendingAllocation {
                    side,
                    figures,
                    winner,
                });
            } else {
                let player = &mut self.players[winner as usize];
                player
                    .figures
                    .extend(figures.into_iter().map(Held::face_down));
            }
        }
        let missed = self.missed_takes();
        self.last_round = Some(RoundSummary {
            round: self.round,
            dealer: self.dealer,
            combinations,
            winners,
            decided_by,
            veto: self.veto,
            draws,
            square_reveals,
            missed,
        });
        if pending.is_empty() {
            self.end_round(chance);
        } else {
            self.step = Step::Allocation { pending };
        }
    }

    fn pending_of(&self, seat: Seat) -> Option<&PendingAllocation> {
        let Step::Allocation { pending } = &self.step else {
            return None;
        };
        if seat >= self.seats {
            return None;
        }
        pending.iter().find(|p| p.side == self.side(seat))
    }

    pub(crate) fn check_allocation(
        &self,
        seat: Seat,
        to: &AllocationTargets,
    ) -> Result<(), DemosError> {
        let pending = self
            .pending_of(seat)
            .ok_or(DemosError::Shared(SharedRefusal::NotYourTurn))?;
        let members = self.members(pending.side);
        let to = to.as_slice();
        if to.len() == pending.figures.len() && to.iter().all(|&s| members.contains(s)) {
            Ok(())
        } else {
            Err(DemosError::BadAllocation)
        }
    }

    /// Every allocation of the seat's team's figures; the default (all to the round's winning
    /// player) first.
    pub(crate) fn allocation_actions(&self, seat: Seat) -> Vec<AllocationTargets> {
        let Some(pending) = self.pending_of(seat) else {
            return Vec::new();
        };
        let members: Vec<Seat> = self.members(pending.side).iter().collect();
        let default = vec![pending.winner; pending.figures.len()];
        let mut all = vec![AllocationTargets::new(&default)];
        let mut current = Vec::new();
        fn each(members: &[Seat], left: usize, current: &mut Vec<Seat>, out: &mut Vec<Vec<Seat>>) {
            if left == 0 {
                out.push(current.clone());
                return;
            }
            for &m in members {
                current.push(m);
                each(members, left - 1, current, out);
                current.pop();
            }
        }
        let mut combos = Vec::new();
        each(&members, pending.figures.len(), &mut current, &mut combos);
        all.extend(
            combos
                .into_iter()
                .filter(|c| *c != default)
                .map(|c| AllocationTargets::new(&c)),
        );
        all
    }

    pub(crate) fn default_allocation(&self, seat: Seat) -> Option<AllocationTargets> {
        self.pending_of(seat)
            .map(|p| AllocationTargets::new(&vec![p.winner; p.figures.len()]))
    }

    /// The team's figures go face down in front of the chosen members, in drawing order.
    pub(crate) fn perform_allocation(
        &mut self,
        seat: Seat,
        to: &AllocationTargets,
        chance: &mut dyn Chance,
    ) {
        let side = self.side(seat);
        let Step::Allocation { pending } = &mut self.step else {
            unreachable!("checked: an allocation is pending");
        };
        let index = pending
            .iter()
            .position(|p| p.side == side)
            .expect("checked");
        let allocation = pending.remove(index);
        let done = pending.is_empty();
        for (&figure, &member) in allocation.figures.iter().zip(to.as_slice()) {
            self.players[member as usize]
                .figures
                .push(Held::face_down(figure));
        }
        if done {
            self.end_round(chance);
        }
    }

    /// The Main Phase ends when the Power Pile is empty or at the round cap; otherwise the deal
    /// passes to the left.
    pub(crate) fn end_round(&mut self, chance: &mut dyn Chance) {
        if self.power_pile.is_empty() || self.round >= self.rules.round_cap {
            self.finish_main_phase();
        } else {
            self.dealer = (self.dealer + 1) % self.seats;
            self.start_round(chance);
        }
    }

    /// This round's visible discards asked for and taken first by someone else, seat by seat.
    fn missed_takes(&self) -> Vec<MissedTake> {
        let mut missed = Vec::new();
        for (seat, player) in self.players.iter().enumerate() {
            for turn in [Turn::Public, Turn::Secret, Turn::Unanimous] {
                if let Some(wanted) = player.turns[turn as usize].and_then(|r| r.wanted) {
                    missed.push(MissedTake {
                        seat: seat as Seat,
                        turn,
                        wanted,
                    });
                }
            }
        }
        missed
    }
}
