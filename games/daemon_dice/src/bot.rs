//! [`DaemonBot`]: builds a Fire purebred that mixes wounds, sweeps, gas and shells, defends
//! the most dangerous attacks with the cheapest dice that intercept them, puts its own damage
//! on dice it has already used, and focuses its damage, grabs and minuses on the foe's most
//! valuable dice and on the weakest daemon.

use pandemonium_game_contract::{Bot, Chance, Seat};

use crate::actions::DaemonAction;
use crate::dice::{Breed, Face, Guard, Part, Reach};
use crate::state::{Damage, Health, Step, Zone};
use crate::view::{DaemonDiceView, DieView};

/// The bot's daemon: Fire (one stun a turn becomes a wound), parts in this order, repeated.
const BREED: Breed = Breed::Fire;
const PLAN: [Part; 13] = [
    Part::Pincer,
    Part::Lungs,
    Part::Tail,
    Part::Leg,
    Part::Shell,
    Part::Spike,
    Part::Lungs,
    Part::Pincer,
    Part::Stinger,
    Part::Leg,
    Part::Tail,
    Part::Shell,
    Part::Tentacle,
];

#[derive(Debug, Clone, Copy, Default)]
pub struct DaemonBot;

/// How much a body part is worth keeping (or taking from a foe).
fn worth(part: Part) -> i32 {
    match part {
        Part::Lungs => 7,
        Part::Pincer | Part::Tail | Part::Leg | Part::Tentacle => 6,
        Part::Eye | Part::Stinger | Part::Wings => 5,
        Part::Mouth | Part::Spike | Part::Arm => 4,
        Part::Brain | Part::Shell => 3,
    }
}

/// A die's worth right now: its part, plus what its rolled face could still do this turn.
fn value(die: &DieView) -> i32 {
    let mut v = worth(die.part) * 10;
    if die.zone == Zone::Rolled {
        v += 40;
    }
    if die.holding.is_some() {
        v += 30;
    }
    v
}

/// What an attack would do undefended, roughly, in stun-equivalents.
fn threat(face: Face, spikes: usize, poison: bool) -> i32 {
    let strike = face.strike().map_or((0, 0), |s| (s.stuns, s.wounds));
    strike.0 as i32 + 3 * (strike.1 as i32 + spikes as i32 + poison as i32)
}

impl Bot<crate::state::DaemonDice> for DaemonBot {
    fn choose(
        &self,
        view: &DaemonDiceView,
        legal: &[DaemonAction],
        chance: &mut dyn Chance,
    ) -> DaemonAction {
        assert!(!legal.is_empty(), "the bot is asked only when it can act");
        let me = view.you.unwrap_or(0);
        let pick = self.decide(view, me, legal);
        match pick {
            Some(action) if legal.contains(&action) => action,
            _ => {
                // Nothing better: finish the step if allowed, else any legal action.
                if legal.contains(&DaemonAction::Done) {
                    DaemonAction::Done
                } else {
                    legal[chance.below(legal.len() as u32) as usize]
                }
            }
        }
    }
}

impl DaemonBot {
    fn decide(
        &self,
        view: &DaemonDiceView,
        me: Seat,
        legal: &[DaemonAction],
    ) -> Option<DaemonAction> {
        use DaemonAction as A;
        let best = |candidates: Vec<(i32, DaemonAction)>| {
            candidates
                .into_iter()
                .filter(|(_, a)| legal.contains(a))
                .max_by_key(|(score, _)| *score)
                .map(|(_, a)| a)
        };
        let dice = |seat: Seat| &view.daemons[seat as usize].dice;
        let indexed = |seat: Seat| dice(seat).iter().enumerate().map(|(i, d)| (i as u8, d));
        let active = view.active.unwrap_or(me);
        match &view.step {
            Step::Construction => {
                let picked = view.daemons[me as usize].picked as usize;
                (0..PLAN.len())
                    .map(|i| A::Pick {
                        breed: BREED,
                        part: PLAN[(picked + i) % PLAN.len()],
                    })
                    .find(|a| legal.contains(a))
                    .or_else(|| legal.iter().copied().find(|a| matches!(a, A::Ready { .. })))
                    .or_else(|| legal.first().copied())
            }
            Step::TargetMinus { .. } => best(
                indexed(active)
                    .map(|(i, d)| (value(d), A::TargetMinus { die: i }))
                    .collect(),
            ),
            Step::SetAside { .. } => best(
                indexed(me)
                    .map(|(i, d)| (-worth(d.part), A::SetAside { die: i }))
                    .collect(),
            ),
            Step::Recover | Step::MouthRecover { .. } => best(
                indexed(me)
                    .filter(|(_, d)| d.health == Health::Stunned)
                    .map(|(i, d)| {
                        let a = match view.step {
                            Step::Recover => A::Recover { die: i },
                            _ => A::MouthRecover { die: i },
                        };
                        (worth(d.part), a)
                    })
                    .collect(),
            ),
            Step::Defend => self.defend(view, me),
            Step::Suffer { points } => {
                let wound = points.first().is_some_and(|p| p.damage == Damage::Wound);
                if active == me {
                    // Our own damage: on used dice first; grabbed dice are freed by it; a
                    // wound on the least valuable part.
                    best(
                        indexed(me)
                            .map(|(i, d)| {
                                let mut cost = value(d);
                                if d.grabbed_by.is_some() && !wound {
                                    cost -= 50;
                                }
                                (-cost, A::Suffer { die: i })
                            })
                            .collect(),
                    )
                } else {
                    best(
                        indexed(active)
                            .map(|(i, d)| (value(d), A::Suffer { die: i }))
                            .collect(),
                    )
                }
            }
            Step::Target => best(
                (0..view.daemons.len() as Seat)
                    .map(|s| {
                        let healthy = dice(s)
                            .iter()
                            .filter(|d| d.health == Health::Healthy)
                            .count() as i32;
                        (-healthy, A::Target { seat: s })
                    })
                    .collect(),
            ),
            Step::Attack => self.attack(view, me, legal),
            Step::Rot { .. } => {
                let target = view.array.as_ref().map_or(active, |a| a.against);
                best(
                    indexed(target)
                        .map(|(i, d)| (worth(d.part), A::Rot { die: i }))
                        .collect(),
                )
            }
            _ => None,
        }
    }

    /// The most dangerous attack that the dice left can still intercept gets its next die:
    /// every defence takes `boosts + 1` dice, at least one a suitable guard; plain guards are
    /// spent before pluses, and Arms (which could attack) last.
    fn defend(&self, view: &DaemonDiceView, me: Seat) -> Option<DaemonAction> {
        let pending = view.pending.as_ref()?;
        let mine = &view.daemons[me as usize].dice;
        let mut pool: Vec<(u8, Face)> = mine
            .iter()
            .enumerate()
            .filter(|(_, d)| d.zone == Zone::Rolled)
            .filter_map(|(i, d)| d.face.map(|f| (i as u8, f)))
            .filter(|(_, f)| *f == Face::Plus || f.guard().is_some())
            .collect();
        let cost = |f: Face| match f {
            Face::Plus => 2,
            Face::Arm => 3,
            _ => 1,
        };
        pool.sort_by_key(|&(i, f)| (cost(f), i));
        let mut order: Vec<usize> = (0..pending.attacks.len()).collect();
        order.sort_by_key(|&i| {
            let a = &pending.attacks[i];
            -threat(a.face, a.spikes.len(), a.poison)
        });
        for i in order {
            let attack = &pending.attacks[i];
            let status = view.pending_status.get(i)?;
            if status.intercepted || status.immune {
                continue;
            }
            let reach = attack.face.strike().map_or(Reach::Normal, |s| s.reach);
            let have: Vec<Face> = attack
                .defence
                .iter()
                .filter_map(|&d| mine[d as usize].face)
                .collect();
            let existing = have.iter().find_map(|f| f.guard());
            let needed = (status.boosts as usize + 1).saturating_sub(have.len());
            let guards: Vec<Guard> = match existing {
                Some(g) => vec![g],
                None => match reach {
                    Reach::Normal => vec![Guard::Block, Guard::Deflect],
                    _ => vec![Guard::Dodge, Guard::Deflect],
                },
            };
            for guard in guards {
                let usable: Vec<(u8, Face)> = pool
                    .iter()
                    .copied()
                    .filter(|(_, f)| *f == Face::Plus || f.guard() == Some(guard))
                    .collect();
                let has_guard = existing.is_some() || usable.iter().any(|(_, f)| *f != Face::Plus);
                if usable.len() >= needed && has_guard {
                    let next = if existing.is_none() {
                        usable.iter().find(|(_, f)| *f != Face::Plus)
                    } else {
                        usable.first()
                    };
                    if let Some(&(die, _)) = next {
                        return Some(DaemonAction::Defend {
                            attack: i as u8,
                            die,
                        });
                    }
                }
            }
        }
        None
    }

    /// Grabs on the foe's best dice, poison, Spikes on the hardest-hitting attack, a Brain on
    /// the biggest plain attack, pluses on Eyes first and then on the most damaging attack.
    fn attack(
        &self,
        view: &DaemonDiceView,
        me: Seat,
        legal: &[DaemonAction],
    ) -> Option<DaemonAction> {
        use DaemonAction as A;
        let array = view.array.as_ref()?;
        let foe = &view.daemons[array.against as usize].dice;
        let grab = legal
            .iter()
            .filter_map(|a| match *a {
                A::Grab { die, .. } => Some((value(&foe[die as usize]), *a)),
                _ => None,
            })
            .max_by_key(|(v, _)| *v)
            .map(|(_, a)| a);
        if grab.is_some() {
            return grab;
        }
        let attacks = &array.attacks;
        let by_threat = |eye_bonus: i32| {
            let mut order: Vec<usize> = (0..attacks.len()).collect();
            order.sort_by_key(|&i| {
                let a = &attacks[i];
                let bonus = if a.face == Face::Eye { eye_bonus } else { 0 };
                -(threat(a.face, a.spikes.len(), a.poison) + bonus)
            });
            order
        };
        let first_legal = |make: &dyn Fn(u8) -> DaemonAction, order: Vec<usize>| {
            order
                .into_iter()
                .map(|i| make(i as u8))
                .find(|a| legal.contains(a))
        };
        let _ = me;
        first_legal(&|attack| A::Poison { attack }, by_threat(0))
            .or_else(|| first_legal(&|attack| A::Spike { attack }, by_threat(0)))
            .or_else(|| first_legal(&|attack| A::Brain { attack }, by_threat(0)))
            .or_else(|| first_legal(&|attack| A::Boost { attack }, by_threat(10)))
    }
}
