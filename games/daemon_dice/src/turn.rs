//! Steps 1 and 2 of a turn: activate dice (releasing grabs), apply the foe's minuses
//! (targeted first, picked by the foe; then untargeted, picked by the victim), roll, and
//! recover stunned dice.

use pandemonium_game_contract::{Chance, Seat};

use crate::actions::{DaemonAction, DaemonError};
use crate::breeds::Lineage;
use crate::dice::Face;
use crate::state::{Array, DaemonDice, DieRef, Health, Step, Zone};

impl DaemonDice {
    /// A new turn for `seat`, facing `pending`. Every die that is not stunned, wounded,
    /// grabbed or holding a grab is activated (proposal 16: spent and arrayed dice return).
    pub(crate) fn begin_turn(
        &mut self,
        seat: Seat,
        pending: Option<Array>,
        chance: &mut dyn Chance,
    ) {
        if self.turn >= self.config.turn_limit as u32 {
            self.finish();
            return;
        }
        self.turn += 1;
        self.active = seat;
        self.pending = pending;
        self.array = None;
        let daemon = self.daemon_mut(seat);
        daemon.stamina_used = false;
        daemon.frost_used = 0;
        for state in &mut daemon.state {
            let free = state.healthy() && state.grabbed_by.is_none() && state.holding.is_none();
            state.zone = if free { Zone::Active } else { Zone::Idle };
            if state.holding.is_none() {
                state.face = None;
            }
        }
        if self.holding(seat).next().is_some() {
            self.step = Step::Release;
        } else {
            self.start_minuses(chance);
        }
    }

    /// The seat's Tentacles holding a grab.
    fn holding(&self, seat: Seat) -> impl Iterator<Item = u8> + '_ {
        self.daemon(seat)
            .state
            .iter()
            .enumerate()
            .filter(|(_, s)| s.holding.is_some())
            .map(|(i, _)| i as u8)
    }

    /// A die a Wings minus may take: active, or a Tentacle holding a grab (proposal 5).
    fn wings_eligible(&self, die: u8) -> bool {
        let state = &self.daemon(self.active).state[die as usize];
        state.zone == Zone::Active || state.holding.is_some()
    }

    fn active_dice(&self) -> impl Iterator<Item = u8> + '_ {
        self.daemon(self.active)
            .state
            .iter()
            .enumerate()
            .filter(|(_, s)| s.zone == Zone::Active)
            .map(|(i, _)| i as u8)
    }

    pub(crate) fn check_turn_start(&self, action: &DaemonAction) -> Result<(), DaemonError> {
        let daemon = self.daemon(self.active);
        let die_of = |die: u8| daemon.state.get(die as usize).ok_or(DaemonError::NoSuchDie);
        match (&self.step, *action) {
            (Step::Release, DaemonAction::Done) => Ok(()),
            (Step::Release, DaemonAction::Release { die }) => die_of(die)?
                .holding
                .map(|_| ())
                .ok_or(DaemonError::NotEligible),
            (Step::TargetMinus { .. }, DaemonAction::TargetMinus { die }) => {
                die_of(die)?;
                self.wings_eligible(die)
                    .then_some(())
                    .ok_or(DaemonError::NotEligible)
            }
            (Step::SetAside { .. }, DaemonAction::SetAside { die }) => (die_of(die)?.zone
                == Zone::Active)
                .then_some(())
                .ok_or(DaemonError::NotEligible),
            (Step::Recover, DaemonAction::Recover { die }) => {
                if die_of(die)?.health != Health::Stunned {
                    return Err(DaemonError::NotEligible);
                }
                if self.stamina_ready() || daemon.rolled(Face::Plus).is_some() {
                    Ok(())
                } else {
                    Err(DaemonError::NoPlus)
                }
            }
            (Step::Recover, DaemonAction::Done) => {
                if self.stamina_ready() {
                    Err(DaemonError::MongrelMustRecover)
                } else {
                    Ok(())
                }
            }
            _ => Err(DaemonError::WrongStep),
        }
    }

    pub(crate) fn perform_turn_start(&mut self, action: &DaemonAction, chance: &mut dyn Chance) {
        let seat = self.active;
        match (&self.step, *action) {
            (Step::Release, DaemonAction::Done) => self.start_minuses(chance),
            (Step::Release, DaemonAction::Release { die }) => {
                self.release(DieRef { seat, die });
                let state = &mut self.daemon_mut(seat).state[die as usize];
                state.zone = Zone::Active;
                state.face = None;
                if self.holding(seat).next().is_none() {
                    self.start_minuses(chance);
                }
            }
            (&Step::TargetMinus { left }, DaemonAction::TargetMinus { die }) => {
                // A targeted minus on a grabbing Tentacle releases its grab.
                self.release(DieRef { seat, die });
                let state = &mut self.daemon_mut(seat).state[die as usize];
                state.zone = Zone::Minused;
                state.face = None;
                self.continue_wings(left - 1, chance);
            }
            (&Step::SetAside { left }, DaemonAction::SetAside { die }) => {
                self.daemon_mut(seat).state[die as usize].zone = Zone::Minused;
                if left > 1 {
                    self.step = Step::SetAside { left: left - 1 };
                } else {
                    self.roll(chance);
                }
            }
            (Step::Recover, DaemonAction::Recover { die }) => {
                let daemon = self.daemon_mut(seat);
                if daemon.lineage == Lineage::Mongrel && !daemon.stamina_used {
                    daemon.stamina_used = true;
                } else {
                    let plus = daemon.rolled(Face::Plus).expect("checked");
                    daemon.state[plus as usize].zone = Zone::Spent;
                }
                let state = &mut daemon.state[die as usize];
                state.health = Health::Healthy;
                state.zone = Zone::Spent;
                if !self.can_recover() {
                    self.start_defence(chance);
                }
            }
            (Step::Recover, DaemonAction::Done) => self.start_defence(chance),
            _ => unreachable!("checked"),
        }
    }

    /// 1b: the foe's Wings (targeted minuses) first.
    fn start_minuses(&mut self, chance: &mut dyn Chance) {
        let wings = self.pending.as_ref().map_or(0, |p| p.wings.len() as u8);
        self.continue_wings(wings, chance);
    }

    fn continue_wings(&mut self, left: u8, chance: &mut dyn Chance) {
        let dice = self.daemon(self.active).dice.len() as u8;
        if left > 0 && (0..dice).any(|d| self.wings_eligible(d)) {
            self.step = Step::TargetMinus { left };
        } else {
            self.untargeted_minuses(chance);
        }
    }

    /// 1b: the untargeted minuses, on dice the victim picks. Gas (Lungs) from a breed the
    /// victim is immune to is ignored. With as many minuses as active dice, every one is
    /// set aside and nothing is left to roll.
    fn untargeted_minuses(&mut self, chance: &mut dyn Chance) {
        let lineage = self.daemon(self.active).lineage;
        let count: u32 = self.pending.as_ref().map_or(0, |p| {
            p.minuses
                .iter()
                .filter(|(die, face)| {
                    *face != Face::Lungs
                        || !lineage.immune_to(self.daemon(p.by).dice[*die as usize].breed)
                })
                .map(|(_, face)| face.minuses() as u32)
                .sum()
        });
        let active: Vec<u8> = self.active_dice().collect();
        if count as usize >= active.len() {
            let seat = self.active;
            for die in active {
                self.daemon_mut(seat).state[die as usize].zone = Zone::Minused;
            }
            self.roll(chance);
        } else if count == 0 {
            self.roll(chance);
        } else {
            self.step = Step::SetAside { left: count as u8 };
        }
    }

    /// 1c: roll every active die. Nothing to roll: the daemon loses (proposal 6).
    fn roll(&mut self, chance: &mut dyn Chance) {
        let seat = self.active;
        let active: Vec<u8> = self.active_dice().collect();
        if active.is_empty() {
            self.defeat(seat);
            return;
        }
        let script = self.scripted_roll(seat);
        let daemon = self.daemon_mut(seat);
        for die in active {
            let d6 = script
                .as_ref()
                .map_or_else(|| chance.d6(), |s| s.d6(die as usize));
            let face = daemon.dice[die as usize].face(d6);
            let state = &mut daemon.state[die as usize];
            state.face = Some(face);
            state.zone = Zone::Rolled;
        }
        if self.can_recover() {
            self.step = Step::Recover;
        } else {
            self.start_defence(chance);
        }
    }

    /// A mongrel's free recovery is still to be taken.
    fn stamina_ready(&self) -> bool {
        let daemon = self.daemon(self.active);
        daemon.lineage == Lineage::Mongrel
            && !daemon.stamina_used
            && daemon.state.iter().any(|s| s.health == Health::Stunned)
    }

    fn can_recover(&self) -> bool {
        let daemon = self.daemon(self.active);
        daemon.state.iter().any(|s| s.health == Health::Stunned)
            && (self.stamina_ready() || daemon.rolled(Face::Plus).is_some())
    }
}
