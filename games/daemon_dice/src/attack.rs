//! Step 4 of a turn: the target is chosen (multiplayer), every unused attack, minus and
//! Wings is arrayed, and the player grabs with Tentacles and assigns pluses, Spikes, Brains
//! and poison; then a Rot purebred rots, and the turn passes to the target. Also defeat and
//! the end of the battle.

use pandemonium_game_contract::{Chance, Outcome, Seat};

use crate::actions::{DaemonAction, DaemonError};
use crate::dice::{Breed, Face};
use crate::state::{Array, DaemonDice, DieRef, Health, Step, Zone};

impl DaemonDice {
    /// Step 4 begins: the target is the only foe left, or the player picks one.
    pub(crate) fn start_attack(&mut self) {
        let foes: Vec<Seat> = self.living().filter(|&s| s != self.active).collect();
        if foes.len() == 1 {
            self.set_target(foes[0]);
        } else {
            self.step = Step::Target;
        }
    }

    /// Arraying an attack costs nothing, so every unused attack face is arrayed as its own
    /// attack, and every minus (4b) is set aside; what is left to decide is the grabs and how
    /// pluses, Spikes, Brains and poison go with the attacks.
    fn set_target(&mut self, target: Seat) {
        let seat = self.active;
        let mut array = Array::new(seat, target);
        let daemon = self.daemon_mut(seat);
        for (i, state) in daemon.state.iter_mut().enumerate() {
            let Some(face) = state.face.filter(|_| state.zone == Zone::Rolled) else {
                continue;
            };
            let die = i as u8;
            if face.strike().is_some() {
                array.attacks.push(crate::state::Attack::new(die, face));
            } else if face.minuses() > 0 {
                array.minuses.push((die, face));
            } else if face == Face::Wings {
                array.wings.push(die);
            } else {
                continue;
            }
            state.zone = Zone::Arrayed;
        }
        self.array = Some(array);
        self.step = Step::Attack;
    }

    pub(crate) fn check_attack(&self, action: &DaemonAction) -> Result<(), DaemonError> {
        let daemon = self.daemon(self.active);
        let attack_of = |attack: u8| {
            self.array
                .as_ref()
                .and_then(|a| a.attacks.get(attack as usize))
                .ok_or(DaemonError::NoSuchAttack)
        };
        let uses = |face: Face| {
            daemon
                .rolled(face)
                .map(|_| ())
                .ok_or(DaemonError::NothingToUse)
        };
        match (&self.step, *action) {
            (Step::Target, DaemonAction::Target { seat }) => {
                let ok = seat < self.seats && seat != self.active && !self.daemon(seat).defeated;
                ok.then_some(()).ok_or(DaemonError::BadTarget)
            }
            (Step::Attack, DaemonAction::Done) => Ok(()),
            (Step::Attack, DaemonAction::Grab { tentacle, die }) => {
                let state = daemon
                    .state
                    .get(tentacle as usize)
                    .ok_or(DaemonError::NoSuchDie)?;
                if !state.shows(Face::Tentacle) {
                    return Err(DaemonError::NothingToUse);
                }
                let target = self.target().expect("the attack step has a target");
                let held = self
                    .daemon(target)
                    .state
                    .get(die as usize)
                    .ok_or(DaemonError::NoSuchDie)?;
                (held.healthy() && held.grabbed_by.is_none())
                    .then_some(())
                    .ok_or(DaemonError::NotEligible)
            }
            (Step::Attack, DaemonAction::Boost { attack }) => {
                attack_of(attack)?;
                uses(Face::Plus)
            }
            (Step::Attack, DaemonAction::Spike { attack }) => {
                let a = attack_of(attack)?;
                if a.face == Face::Eye || a.brain.is_some() {
                    return Err(DaemonError::SpikeNotAllowed);
                }
                uses(Face::Spike)
            }
            (Step::Attack, DaemonAction::Brain { attack }) => {
                let a = attack_of(attack)?;
                if a.brain.is_some() || !a.spikes.is_empty() {
                    return Err(DaemonError::BrainNotAllowed);
                }
                uses(Face::Brain)
            }
            (Step::Attack, DaemonAction::Poison { attack }) => {
                let a = attack_of(attack)?;
                (a.face == Face::Stinger && !a.poison)
                    .then_some(())
                    .ok_or(DaemonError::NotAStinger)
            }
            (Step::Rot { .. }, DaemonAction::Done) => Ok(()),
            (Step::Rot { .. }, DaemonAction::Rot { die }) => {
                let target = self.target().expect("rot follows an attack");
                let state = self
                    .daemon(target)
                    .state
                    .get(die as usize)
                    .ok_or(DaemonError::NoSuchDie)?;
                (state.health == Health::Stunned)
                    .then_some(())
                    .ok_or(DaemonError::NotEligible)
            }
            (Step::NameNext, DaemonAction::NameNext { seat }) => {
                let ok = seat < self.seats && !self.daemon(seat).defeated;
                ok.then_some(()).ok_or(DaemonError::BadTarget)
            }
            _ => Err(DaemonError::WrongStep),
        }
    }

    pub(crate) fn perform_attack(&mut self, action: &DaemonAction, chance: &mut dyn Chance) {
        let seat = self.active;
        match (&self.step, *action) {
            (Step::Target, DaemonAction::Target { seat: target }) => self.set_target(target),
            (Step::Attack, DaemonAction::Done) => self.after_attack(chance),
            (Step::Attack, DaemonAction::Grab { tentacle, die }) => {
                let target = self.target().expect("checked");
                let held = DieRef { seat: target, die };
                // Grabbing a grabbing Tentacle releases whatever it held.
                self.release(held);
                let holder = DieRef {
                    seat,
                    die: tentacle,
                };
                let state = &mut self.daemon_mut(seat).state[tentacle as usize];
                state.zone = Zone::Arrayed;
                state.holding = Some(held);
                self.daemon_mut(target).state[die as usize].grabbed_by = Some(holder);
            }
            (Step::Attack, DaemonAction::Boost { attack }) => self.attach(attack, Face::Plus),
            (Step::Attack, DaemonAction::Spike { attack }) => self.attach(attack, Face::Spike),
            (Step::Attack, DaemonAction::Brain { attack }) => self.attach(attack, Face::Brain),
            (Step::Attack, DaemonAction::Poison { attack }) => {
                self.array.as_mut().expect("checked").attacks[attack as usize].poison = true;
            }
            (Step::Rot { .. }, DaemonAction::Done) => self.end_turn(chance),
            (&Step::Rot { left }, DaemonAction::Rot { die }) => {
                let target = self.target().expect("checked");
                self.daemon_mut(target).state[die as usize].health = Health::Wounded;
                self.continue_rot(left - 1, chance);
            }
            (Step::NameNext, DaemonAction::NameNext { seat: next }) => {
                self.begin_turn(next, None, chance)
            }
            _ => unreachable!("checked"),
        }
    }

    /// A rolled plus, Spike or Brain (the lowest-indexed: they are interchangeable) joins an
    /// attack.
    fn attach(&mut self, attack: u8, face: Face) {
        let seat = self.active;
        let die = self.daemon(seat).rolled(face).expect("checked");
        self.daemon_mut(seat).state[die as usize].zone = Zone::Arrayed;
        let attack = &mut self.array.as_mut().expect("checked").attacks[attack as usize];
        match face {
            Face::Plus => attack.pluses.push(die),
            Face::Spike => attack.spikes.push(die),
            _ => attack.brain = Some(die),
        }
    }

    /// A Rot purebred may rot stunned dice of the daemon it targeted, once per 13 dice.
    fn after_attack(&mut self, chance: &mut dyn Chance) {
        if self.daemon(self.active).lineage.is_pure(Breed::Rot) {
            self.continue_rot(self.level(), chance);
        } else {
            self.end_turn(chance);
        }
    }

    fn continue_rot(&mut self, left: u8, chance: &mut dyn Chance) {
        let target = self.target().expect("rot follows an attack");
        let stunned = self
            .daemon(target)
            .state
            .iter()
            .any(|s| s.health == Health::Stunned);
        if left > 0 && stunned {
            self.step = Step::Rot { left };
        } else {
            self.end_turn(chance);
        }
    }

    /// The target takes the next turn, facing this turn's array.
    fn end_turn(&mut self, chance: &mut dyn Chance) {
        let seat = self.active;
        for state in &mut self.daemon_mut(seat).state {
            if state.zone == Zone::Rolled {
                state.zone = Zone::Spent;
            }
        }
        let array = self
            .array
            .take()
            .expect("a turn ends after its attack step");
        self.begin_turn(array.against, Some(array), chance);
    }

    /// `seat` loses: it releases everything it grabbed, and grabs on its dice end (a defeated
    /// daemon can no longer be attacked). The last daemon standing wins; otherwise the
    /// defeated daemon names who takes the next turn, with nothing arrayed against them.
    pub(crate) fn defeat(&mut self, seat: Seat) {
        self.daemon_mut(seat).defeated = true;
        self.defeated.push(seat);
        for die in 0..self.daemon(seat).state.len() as u8 {
            let at = DieRef { seat, die };
            self.release(at);
            self.free(at);
        }
        self.pending = None;
        self.array = None;
        if self.living().count() <= 1 {
            self.finish();
        } else {
            self.step = Step::NameNext;
        }
    }

    /// The battle ends: the survivor wins; when the turn limit stops a battle, survivors are
    /// ranked by healthy dice. Defeated daemons follow, the last defeated first.
    pub(crate) fn finish(&mut self) {
        let survivors: Vec<Seat> = self.living().collect();
        let healthy = |s: Seat| self.daemon(s).healthy_count() as i64;
        let mut placements = vec![0u8; self.seats as usize];
        let mut scores = vec![0i64; self.seats as usize];
        for &s in &survivors {
            scores[s as usize] = healthy(s);
            placements[s as usize] = 1 + survivors
                .iter()
                .filter(|&&o| healthy(o) > healthy(s))
                .count() as u8;
        }
        for (i, &s) in self.defeated.iter().rev().enumerate() {
            placements[s as usize] = (survivors.len() + i + 1) as u8;
        }
        let winners: Vec<Seat> = survivors
            .iter()
            .copied()
            .filter(|&s| placements[s as usize] == 1)
            .collect();
        let summary = if survivors.len() == 1 {
            format!(
                "Seat {}'s daemon is the last one standing",
                survivors[0] + 1
            )
        } else {
            format!(
                "Turn limit reached: {} daemons still standing",
                survivors.len()
            )
        };
        self.outcome = Some(Outcome {
            winners,
            placements,
            scores,
            summary,
        });
        self.step = Step::Over;
        self.pending = None;
        self.array = None;
    }
}
