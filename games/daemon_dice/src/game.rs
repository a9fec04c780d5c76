//! The `Game` contract: who is to act, the step's candidate actions filtered through the same
//! checks `apply` uses (so the legal list is complete by construction), the documented
//! defaults, and the conformance configurations.

use pandemonium_game_contract::{
    Chance, ConfigError, Conformance, Game, GameInfo, Outcome, Seat, SeatSet, SharedRefusal, Viewer,
};

use crate::actions::{DaemonAction, DaemonError};
use crate::config::{DaemonDiceConfig, option_specs};
use crate::dice::{Breed, Face, Part};
use crate::state::{DaemonDice, Health, Step, Zone};
use crate::view::DaemonDiceView;

impl DaemonDice {
    pub(crate) fn waiting(&self) -> SeatSet {
        match &self.step {
            Step::Construction => (0..self.seats).filter(|&s| !self.daemon(s).ready).collect(),
            Step::Over => SeatSet::EMPTY,
            Step::TargetMinus { .. } | Step::MouthRecover { .. } => {
                SeatSet::only(self.attacker().unwrap_or(self.active))
            }
            Step::Suffer { points } => SeatSet::only(self.placer(points)),
            _ => SeatSet::only(self.active),
        }
    }

    fn check(&self, seat: Seat, action: &DaemonAction) -> Result<(), DaemonError> {
        if self.outcome.is_some() {
            return Err(DaemonError::Shared(SharedRefusal::MatchOver));
        }
        if seat >= self.seats || !self.waiting().contains(seat) {
            return Err(DaemonError::Shared(SharedRefusal::NotYourTurn));
        }
        match self.step {
            Step::Construction => self.check_construction(seat, action),
            Step::Release | Step::TargetMinus { .. } | Step::SetAside { .. } | Step::Recover => {
                self.check_turn_start(action)
            }
            Step::Defend | Step::MouthRecover { .. } | Step::Suffer { .. } => {
                self.check_combat(seat, action)
            }
            Step::Target | Step::Attack | Step::Rot { .. } | Step::NameNext => {
                self.check_attack(action)
            }
            Step::Over => Err(DaemonError::Shared(SharedRefusal::MatchOver)),
        }
    }

    fn perform(&mut self, seat: Seat, action: &DaemonAction, chance: &mut dyn Chance) {
        match self.step {
            Step::Construction => self.perform_construction(seat, action, chance),
            Step::Release | Step::TargetMinus { .. } | Step::SetAside { .. } | Step::Recover => {
                self.perform_turn_start(action, chance)
            }
            Step::Defend | Step::MouthRecover { .. } | Step::Suffer { .. } => {
                self.perform_combat(seat, action, chance)
            }
            Step::Target | Step::Attack | Step::Rot { .. } | Step::NameNext => {
                self.perform_attack(action, chance)
            }
            Step::Over => unreachable!("checked"),
        }
    }

    /// Every action that might be legal in this step; `legal_actions` keeps those `check`
    /// accepts.
    fn candidates(&self, seat: Seat) -> Vec<DaemonAction> {
        use DaemonAction as A;
        let dice = |s: Seat| 0..self.daemon(s).state.len() as u8;
        let attacks =
            |array: Option<&crate::state::Array>| 0..array.map_or(0, |a| a.attacks.len() as u8);
        match &self.step {
            Step::Construction => {
                if self.daemon(seat).picks.len() < self.config.size as usize {
                    Breed::ALL
                        .into_iter()
                        .flat_map(|breed| Part::ALL.map(|part| A::Pick { breed, part }))
                        .collect()
                } else {
                    Breed::ALL
                        .map(|breed| A::Ready { breed: Some(breed) })
                        .into_iter()
                        .chain([A::Ready { breed: None }])
                        .collect()
                }
            }
            Step::Release => dice(seat)
                .map(|die| A::Release { die })
                .chain([A::Done])
                .collect(),
            Step::TargetMinus { .. } => dice(self.active)
                .map(|die| A::TargetMinus { die })
                .collect(),
            Step::SetAside { .. } => dice(seat).map(|die| A::SetAside { die }).collect(),
            Step::Recover => dice(seat)
                .map(|die| A::Recover { die })
                .chain([A::Done])
                .collect(),
            Step::Defend => {
                let rolled: Vec<u8> = dice(seat)
                    .filter(|&d| self.daemon(seat).state[d as usize].zone == Zone::Rolled)
                    .collect();
                attacks(self.pending.as_ref())
                    .flat_map(|attack| rolled.iter().map(move |&die| A::Defend { attack, die }))
                    .chain([A::Done])
                    .collect()
            }
            Step::MouthRecover { .. } => dice(seat).map(|die| A::MouthRecover { die }).collect(),
            Step::Suffer { .. } => dice(self.active).map(|die| A::Suffer { die }).collect(),
            Step::Target | Step::NameNext => (0..self.seats)
                .map(|s| match self.step {
                    Step::Target => A::Target { seat: s },
                    _ => A::NameNext { seat: s },
                })
                .collect(),
            Step::Attack => {
                let target = self.target().expect("the attack step has a target");
                let tentacles: Vec<u8> = dice(seat)
                    .filter(|&d| self.daemon(seat).state[d as usize].shows(Face::Tentacle))
                    .collect();
                let mut out: Vec<DaemonAction> = tentacles
                    .iter()
                    .flat_map(|&tentacle| dice(target).map(move |die| A::Grab { tentacle, die }))
                    .collect();
                for attack in attacks(self.array.as_ref()) {
                    out.extend([
                        A::Boost { attack },
                        A::Spike { attack },
                        A::Brain { attack },
                        A::Poison { attack },
                    ]);
                }
                out.push(A::Done);
                out
            }
            Step::Rot { .. } => dice(self.target().expect("rot has a target"))
                .map(|die| A::Rot { die })
                .chain([A::Done])
                .collect(),
            Step::Over => Vec::new(),
        }
    }

    /// The first die of `seat` satisfying `eligible`.
    fn lowest(&self, seat: Seat, eligible: impl Fn(u8) -> bool) -> Option<u8> {
        (0..self.daemon(seat).state.len() as u8).find(|&d| eligible(d))
    }

    /// The next daemon still standing clockwise after `seat`.
    fn next_living(&self, seat: Seat) -> Option<Seat> {
        (1..self.seats)
            .map(|step| (seat + step) % self.seats)
            .find(|&s| !self.daemon(s).defeated)
    }
}

impl Game for DaemonDice {
    type Config = DaemonDiceConfig;
    type Action = DaemonAction;
    type View = DaemonDiceView;
    type Error = DaemonError;

    const RULES_PAGE: &'static str = include_str!("../RULES.md");

    fn info() -> GameInfo {
        GameInfo {
            id: "daemon_dice".into(),
            name: "Daemon Dice".into(),
            short_name: "Daemon Dice".into(),
            min_seats: 2,
            max_seats: 6,
            description: "Build a daemon of body-part dice in secret, then roll, defend, grab \
                          and strike until only one daemon stands."
                .into(),
            options: option_specs(),
            teams: false,
            real_time: false,
            board: None,
            score_unit: "healthy parts of the daemon".into(),
            glyph: "⚅".into(),
            hue: 28,
        }
    }

    fn new(
        config: &DaemonDiceConfig,
        seats: u8,
        _chance: &mut dyn Chance,
    ) -> Result<DaemonDice, ConfigError> {
        DaemonDice::setup(config, seats)
    }

    fn to_act(&self) -> SeatSet {
        self.waiting()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<DaemonAction> {
        if self.outcome.is_some() || !self.waiting().contains(seat) {
            return Vec::new();
        }
        self.candidates(seat)
            .into_iter()
            .filter(|a| self.check(seat, a).is_ok())
            .collect()
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &DaemonAction,
        chance: &mut dyn Chance,
    ) -> Result<(), DaemonError> {
        self.check(seat, action)?;
        self.perform(seat, action, chance);
        Ok(())
    }

    fn view(&self, viewer: Viewer) -> DaemonDiceView {
        self.build_view(viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// The documented defaults: a foe's choice (Wings target, Mouth recovery, Brain damage)
    /// and damage placement take the lowest-indexed eligible die; the active daemon keeps its
    /// grabs, sets aside its lowest active dice, recovers nothing it need not (a mongrel its
    /// lowest stunned die), does not defend, arrays its attacks as they are, rots its target's
    /// lowest stunned die; targets and the next daemon are the next clockwise.
    fn default_action(&self, seat: Seat) -> Option<DaemonAction> {
        use DaemonAction as A;
        if !self.waiting().contains(seat) {
            return None;
        }
        let active = self.active;
        let state = |s: Seat, d: u8| self.daemon(s).state[d as usize];
        let action = match &self.step {
            Step::Construction => self.default_pick(seat),
            Step::Release | Step::Defend | Step::Attack => A::Done,
            Step::TargetMinus { .. } => A::TargetMinus {
                die: self.lowest(active, |d| {
                    self.check(seat, &A::TargetMinus { die: d }).is_ok()
                })?,
            },
            Step::SetAside { .. } => A::SetAside {
                die: self.lowest(active, |d| state(active, d).zone == Zone::Active)?,
            },
            Step::Recover => match self.check(seat, &A::Done) {
                Ok(()) => A::Done,
                Err(_) => A::Recover {
                    die: self.lowest(active, |d| state(active, d).health == Health::Stunned)?,
                },
            },
            Step::MouthRecover { .. } => A::MouthRecover {
                die: self.lowest(seat, |d| state(seat, d).health == Health::Stunned)?,
            },
            Step::Suffer { .. } => A::Suffer {
                die: self.lowest(active, |d| state(active, d).healthy())?,
            },
            Step::Target => A::Target {
                seat: self.next_living(active)?,
            },
            Step::Rot { .. } => {
                let target = self.target()?;
                match self.lowest(target, |d| state(target, d).health == Health::Stunned) {
                    Some(die) => A::Rot { die },
                    None => A::Done,
                }
            }
            Step::NameNext => A::NameNext {
                seat: self.next_living(active)?,
            },
            Step::Over => return None,
        };
        Some(action)
    }
}

impl Conformance for DaemonDice {
    fn redeal_hidden(&self, viewer: Viewer, chance: &mut dyn Chance) -> DaemonDice {
        self.redealt(viewer, chance)
    }

    fn arbitrary_action(&self, chance: &mut dyn Chance) -> DaemonAction {
        use DaemonAction as A;
        let to_act: Vec<Seat> = self.waiting().iter().collect();
        if !to_act.is_empty() && chance.below(2) == 0 {
            let seat = to_act[chance.below(to_act.len() as u32) as usize];
            let legal = self.legal_actions(seat);
            if !legal.is_empty() {
                return legal[chance.below(legal.len() as u32) as usize];
            }
        }
        let small = |chance: &mut dyn Chance| chance.below(30) as u8;
        let seat = chance.below(7) as Seat;
        match chance.below(18) {
            0 => A::Pick {
                breed: Breed::ALL[chance.below(8) as usize],
                part: Part::ALL[chance.below(13) as usize],
            },
            1 => A::Ready {
                breed: Breed::ALL.get(chance.below(9) as usize).copied(),
            },
            2 => A::Release { die: small(chance) },
            3 => A::TargetMinus { die: small(chance) },
            4 => A::SetAside { die: small(chance) },
            5 => A::Recover { die: small(chance) },
            6 => A::Defend {
                attack: small(chance),
                die: small(chance),
            },
            7 => A::MouthRecover { die: small(chance) },
            8 => A::Suffer { die: small(chance) },
            9 => A::Target { seat },
            10 => A::Grab {
                tentacle: small(chance),
                die: small(chance),
            },
            11 => A::Boost {
                attack: small(chance),
            },
            12 => A::Spike {
                attack: small(chance),
            },
            13 => A::Brain {
                attack: small(chance),
            },
            14 => A::Poison {
                attack: small(chance),
            },
            15 => A::Rot { die: small(chance) },
            16 => A::NameNext { seat },
            _ => A::Done,
        }
    }

    /// Construction takes `size + 1` actions a seat (the picks and the ready). Every action of a turn uses up a
    /// die (a release, a minus, a recovery, a defence, a Mouth, a point of damage, a grab, a
    /// boost, a Spike, a Brain, a poison, a rot) or ends a step, so a turn takes fewer than
    /// `12 × size + 12`; and there are at most `turn_limit` turns.
    fn max_actions(config: &DaemonDiceConfig, seats: u8) -> usize {
        let size = config.size as usize;
        seats as usize * (size + 1) + config.turn_limit as usize * (12 * size + 12)
    }

    /// 2, 3 and 6 players with daemons of 5, 13 and 26 dice, and the other options. The
    /// harness plays the list in turn and checks every view after every action, so a random
    /// battle of six mega-daemons costs a hundred small ones: the heaviest battles stop at a
    /// turn limit (itself a rule under test), and small battles with other options fill out
    /// the list.
    fn conformance_configs() -> Vec<(DaemonDiceConfig, u8)> {
        let config = |size, lungs_initiative, max_copies, turn_limit| DaemonDiceConfig {
            size,
            lungs_initiative,
            max_copies,
            turn_limit,
        };
        let mut configs = Vec::new();
        for size in [5, 13, 26] {
            for seats in [2, 3, 6] {
                let turn_limit = match (size, seats) {
                    (26, 6) => 6,
                    (13, 6) | (26, 3) => 10,
                    (5, 6) => 20,
                    (13, 3) | (26, 2) => 40,
                    _ => 200,
                };
                configs.push((config(size, 0, 0, turn_limit), seats));
            }
        }
        for size in 1..=12 {
            configs.push((config(size, size % 3, size % 4, 200), 2));
            configs.push((
                config(size.div_ceil(2), (size + 1) % 3, 0, 200),
                2 + size % 2,
            ));
        }
        configs.extend([
            (config(4, 2, 1, 30), 4),
            (config(6, 1, 2, 200), 3),
            (config(5, 0, 0, 12), 3),
            (config(7, 1, 0, 25), 5),
            (config(2, 2, 0, 200), 6),
            (config(3, 1, 0, 200), 3),
            (config(4, 0, 0, 200), 3),
        ]);
        configs
    }
}
