//! Step 3 of a turn: defences matched against the arrayed attacks (the boost arithmetic and
//! the combination limits), then the foe's Mouths, Stinger poison, and the damage placed
//! die by die — Brain-targeted damage by the foe first, the rest by the victim — with the
//! Fire and Frost powers.

use pandemonium_game_contract::{Chance, Seat};

use crate::actions::{DaemonAction, DaemonError};
use crate::dice::{Breed, Face, Guard, Reach};
use crate::state::{DaemonDice, Damage, DieRef, Health, Point, Step, Zone};

impl DaemonDice {
    /// 3a, or straight to the damage when nothing needs defending.
    pub(crate) fn start_defence(&mut self, chance: &mut dyn Chance) {
        let defendable = self
            .pending
            .as_ref()
            .is_some_and(|p| p.attacks.iter().any(|a| !self.void(p.by, p.against, a)));
        if defendable {
            self.step = Step::Defend;
        } else {
            self.resolve(chance);
        }
    }

    pub(crate) fn check_combat(
        &self,
        seat: Seat,
        action: &DaemonAction,
    ) -> Result<(), DaemonError> {
        let victim = self.daemon(self.active);
        match (&self.step, *action) {
            (Step::Defend, DaemonAction::Done) => Ok(()),
            (Step::Defend, DaemonAction::Defend { attack, die }) => self.check_defend(attack, die),
            (Step::MouthRecover { .. }, DaemonAction::MouthRecover { die }) => {
                let state = self
                    .daemon(seat)
                    .state
                    .get(die as usize)
                    .ok_or(DaemonError::NoSuchDie)?;
                (state.health == Health::Stunned)
                    .then_some(())
                    .ok_or(DaemonError::NotEligible)
            }
            (Step::Suffer { .. }, DaemonAction::Suffer { die }) => {
                let state = victim
                    .state
                    .get(die as usize)
                    .ok_or(DaemonError::NoSuchDie)?;
                state
                    .healthy()
                    .then_some(())
                    .ok_or(DaemonError::NotEligible)
            }
            _ => Err(DaemonError::WrongStep),
        }
    }

    fn check_defend(&self, attack: u8, die: u8) -> Result<(), DaemonError> {
        let pending = self.pending.as_ref().expect("a defence step has attacks");
        let target = pending
            .attacks
            .get(attack as usize)
            .ok_or(DaemonError::NoSuchAttack)?;
        if self.void(pending.by, pending.against, target) {
            return Err(DaemonError::ImmuneAttack);
        }
        let state = self
            .daemon(self.active)
            .state
            .get(die as usize)
            .ok_or(DaemonError::NoSuchDie)?;
        if state.zone != Zone::Rolled {
            return Err(DaemonError::NotEligible);
        }
        if self.intercepts(self.active, target) {
            return Err(DaemonError::AlreadyIntercepted);
        }
        let face = state.face.expect("rolled dice show a face");
        let existing = self.guard_of(self.active, target);
        if face == Face::Plus {
            return existing.map(|_| ()).ok_or(DaemonError::PlusNeedsBase);
        }
        let guard = face.guard().ok_or(DaemonError::NotADefence)?;
        if existing.is_some_and(|g| g != guard) {
            return Err(DaemonError::MixedDefence);
        }
        let suits = match guard {
            Guard::Block => target.reach() == Reach::Normal,
            Guard::Deflect => true,
            Guard::Dodge => target.reach() != Reach::Normal,
        };
        suits.then_some(()).ok_or(DaemonError::UnsuitableDefence)
    }

    pub(crate) fn perform_combat(
        &mut self,
        seat: Seat,
        action: &DaemonAction,
        chance: &mut dyn Chance,
    ) {
        match (&mut self.step, *action) {
            (Step::Defend, DaemonAction::Done) => self.resolve(chance),
            (Step::Defend, DaemonAction::Defend { attack, die }) => {
                let active = self.active;
                self.daemon_mut(active).state[die as usize].zone = Zone::Spent;
                let pending = self.pending.as_mut().expect("checked");
                pending.attacks[attack as usize].defence.push(die);
            }
            (&mut Step::MouthRecover { left }, DaemonAction::MouthRecover { die }) => {
                let state = &mut self.daemon_mut(seat).state[die as usize];
                state.health = Health::Healthy;
                state.zone = Zone::Spent;
                state.face = None;
                self.continue_mouths(left - 1);
            }
            (Step::Suffer { points }, DaemonAction::Suffer { die }) => {
                let points = std::mem::take(points);
                self.suffer(die, points);
            }
            _ => unreachable!("checked"),
        }
    }

    /// Attacks not intercepted (and not void against an immune defender), in array order.
    fn undefended(&self) -> Vec<u8> {
        let Some(pending) = &self.pending else {
            return Vec::new();
        };
        (0..pending.attacks.len() as u8)
            .filter(|&i| {
                let attack = &pending.attacks[i as usize];
                !self.void(pending.by, pending.against, attack)
                    && !self.intercepts(pending.against, attack)
            })
            .collect()
    }

    /// The defences are applied: undefended Mouths recover the foe's stunned dice first
    /// (proposal 11), then the Stingers' poison and the damage.
    fn resolve(&mut self, _chance: &mut dyn Chance) {
        let Some(pending) = &self.pending else {
            self.finish_suffer();
            return;
        };
        let mouths = self
            .undefended()
            .iter()
            .filter(|&&i| pending.attacks[i as usize].face == Face::Mouth)
            .count() as u8;
        self.continue_mouths(mouths);
    }

    fn continue_mouths(&mut self, left: u8) {
        let attacker = self.attacker().expect("mouths come from an attacker");
        let stunned = self
            .daemon(attacker)
            .state
            .iter()
            .any(|s| s.health == Health::Stunned);
        if left > 0 && stunned {
            self.step = Step::MouthRecover { left };
        } else {
            self.after_mouths();
        }
    }

    /// Poisoned Stingers stun themselves; the damage of every undefended attack is queued:
    /// targeted (Brain) points first, stuns before wounds, and a Fire purebred's first stuns
    /// become wounds.
    fn after_mouths(&mut self) {
        let pending = self.pending.as_ref().expect("an attack was resolved");
        let (by, victim) = (pending.by, pending.against);
        let undefended = self.undefended();
        let lineage = self.daemon(victim).lineage;
        let mut stingers = Vec::new();
        let mut targeted = Vec::new();
        let mut untargeted = Vec::new();
        for &i in &undefended {
            let attack = &pending.attacks[i as usize];
            let strike = attack.face.strike().expect("attacks are strike faces");
            let mut wounds = strike.wounds + attack.spikes.len() as u8;
            if attack.poison {
                stingers.push(attack.die);
                let stinger = self.daemon(by).dice[attack.die as usize].breed;
                if !lineage.immune_to(stinger) {
                    wounds += 1;
                }
            }
            let queue = if attack.brain.is_some() {
                &mut targeted
            } else {
                &mut untargeted
            };
            let point = |damage| Point {
                damage,
                attack: i,
                targeted: attack.brain.is_some(),
            };
            queue.extend((0..strike.stuns).map(|_| point(Damage::Stun)));
            queue.extend((0..wounds).map(|_| point(Damage::Wound)));
        }
        let mut points: Vec<Point> = targeted.into_iter().chain(untargeted).collect();
        if self.daemon(by).lineage.is_pure(Breed::Fire) {
            let mut left = self.level();
            for point in points.iter_mut().filter(|p| p.damage == Damage::Stun) {
                if left == 0 {
                    break;
                }
                point.damage = Damage::Wound;
                left -= 1;
            }
        }
        for die in stingers {
            let state = &mut self.daemon_mut(by).state[die as usize];
            state.health = Health::Stunned;
        }
        self.place(points);
    }

    /// Asks for the next point's die, placing it at once when only one die can take it.
    /// Damage with nowhere to go is lost (proposal 10).
    fn place(&mut self, points: Vec<Point>) {
        if points.is_empty() {
            self.finish_suffer();
            return;
        }
        let eligible: Vec<u8> = self
            .daemon(self.active)
            .state
            .iter()
            .enumerate()
            .filter(|(_, s)| s.healthy())
            .map(|(i, _)| i as u8)
            .collect();
        match eligible.len() {
            0 => self.finish_suffer(),
            1 => self.suffer(eligible[0], points),
            _ => self.step = Step::Suffer { points },
        }
    }

    /// The front point lands on `die`. A Frost purebred turns its first wounds each turn into
    /// stuns. Damage on a grabbed die ends the grab; on a grabbing Tentacle, releases it.
    fn suffer(&mut self, die: u8, mut points: Vec<Point>) {
        let point = points.remove(0);
        let seat = self.active;
        let level = self.level();
        let daemon = self.daemon_mut(seat);
        let mut damage = point.damage;
        if damage == Damage::Wound
            && daemon.lineage.is_pure(Breed::Frost)
            && daemon.frost_used < level
        {
            daemon.frost_used += 1;
            damage = Damage::Stun;
        }
        let state = &mut daemon.state[die as usize];
        state.health = match damage {
            Damage::Stun => Health::Stunned,
            Damage::Wound => Health::Wounded,
        };
        state.zone = Zone::Idle;
        state.face = None;
        let at = DieRef { seat, die };
        self.free(at);
        self.release(at);
        self.place(points);
    }

    /// 3b ends: a daemon whose every die is stunned, wounded or grabbed loses.
    fn finish_suffer(&mut self) {
        if self.daemon(self.active).overwhelmed() {
            self.defeat(self.active);
        } else {
            self.start_attack();
        }
    }

    /// Who places the next point: the foe for targeted damage, the victim otherwise.
    pub(crate) fn placer(&self, points: &[Point]) -> Seat {
        match points.first() {
            Some(p) if p.targeted => self.attacker().unwrap_or(self.active),
            _ => self.active,
        }
    }
}
