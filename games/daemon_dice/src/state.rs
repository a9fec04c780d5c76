//! The battle as plain data, and the queries the steps share.

use pandemonium_game_contract::{Outcome, Seat};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::breeds::{Lineage, power_level};
use crate::config::DaemonDiceConfig;
use crate::dice::{Breed, Die, Face, Guard, Reach};

/// A die's health: stunned dice can be recovered by pluses, wounded ones cannot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "daemon_dice/")]
pub enum Health {
    #[default]
    Healthy,
    Stunned,
    Wounded,
}

/// Where a die is in its owner's sequence of play.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "daemon_dice/")]
pub enum Zone {
    /// Not taking part: between turns, or stunned, wounded, grabbed or holding a grab.
    #[default]
    Idle,
    /// Activated this turn, not yet rolled.
    Active,
    /// Set aside for a foe's minus: not rolled this turn.
    Minused,
    /// Rolled and not yet used: its face is an effect the daemon may still take.
    Rolled,
    /// Used this turn (a recovering plus, a recovered die, a defence) or left unused.
    Spent,
    /// Set in front of the daemon as a minus, an attack, a boost, a Spike, a Brain or a grab.
    Arrayed,
}

impl Health {
    pub fn is_healthy(&self) -> bool {
        *self == Health::Healthy
    }
}

impl Zone {
    pub fn is_idle(&self) -> bool {
        *self == Zone::Idle
    }
}

/// A die of some daemon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "daemon_dice/")]
pub struct DieRef {
    pub seat: Seat,
    pub die: u8,
}

/// The state of one die in play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "daemon_dice/")]
pub struct DieState {
    pub health: Health,
    pub zone: Zone,
    /// The face it shows, once rolled (kept while it is spent or arrayed).
    pub face: Option<Face>,
    /// The Tentacle holding this die.
    pub grabbed_by: Option<DieRef>,
    /// For a Tentacle: the die it holds.
    pub holding: Option<DieRef>,
}

impl DieState {
    pub(crate) const FRESH: DieState = DieState {
        health: Health::Healthy,
        zone: Zone::Idle,
        face: None,
        grabbed_by: None,
        holding: None,
    };

    /// Neither stunned nor wounded: it may suffer damage.
    pub fn healthy(&self) -> bool {
        self.health == Health::Healthy
    }

    /// Rolled showing `face` and not yet used.
    pub(crate) fn shows(&self, face: Face) -> bool {
        self.zone == Zone::Rolled && self.face == Some(face)
    }
}

/// One attack arrayed against a daemon, with what boosts and defends it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "daemon_dice/")]
pub struct Attack {
    /// The attacking die (of the attacker) and the face it attacks with.
    pub die: u8,
    pub face: Face,
    /// The attacker's boosting pluses.
    pub pluses: Vec<u8>,
    /// The attacker's Spikes, each adding a wound if the attack is not defended.
    pub spikes: Vec<u8>,
    /// The attacker's Brain: the attacker places this attack's damage.
    pub brain: Option<u8>,
    /// A Stinger's poison, declared when arrayed.
    pub poison: bool,
    /// The defender's dice defending it.
    pub defence: Vec<u8>,
}

impl Attack {
    pub(crate) fn new(die: u8, face: Face) -> Attack {
        Attack {
            die,
            face,
            pluses: Vec::new(),
            spikes: Vec::new(),
            brain: None,
            poison: false,
            defence: Vec::new(),
        }
    }

    pub fn reach(&self) -> Reach {
        self.face.strike().map_or(Reach::Normal, |s| s.reach)
    }

    /// Boosts: each plus counts one, two on an Eye's ray.
    pub fn boosts(&self) -> u32 {
        let per = if self.face == Face::Eye { 2 } else { 1 };
        self.pluses.len() as u32 * per
    }
}

/// What one daemon sets against another for its next turn: minuses and attacks. Named
/// `DaemonArray` in TypeScript, where `Array` would shadow the built-in generic type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "daemon_dice/", rename = "DaemonArray")]
pub struct Array {
    pub by: Seat,
    pub against: Seat,
    /// Untargeted minuses: each die and the face that made it (a Minus counts one, Lungs two,
    /// as gas).
    pub minuses: Vec<(u8, Face)>,
    /// Wings: targeted minuses, applied first, on dice the attacker picks.
    pub wings: Vec<u8>,
    pub attacks: Vec<Attack>,
}

impl Array {
    pub(crate) fn new(by: Seat, against: Seat) -> Array {
        Array {
            by,
            against,
            minuses: Vec::new(),
            wings: Vec::new(),
            attacks: Vec::new(),
        }
    }
}

/// A kind of damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "daemon_dice/")]
pub enum Damage {
    Stun,
    Wound,
}

/// One point of undefended damage waiting to be placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "daemon_dice/")]
pub struct Point {
    pub damage: Damage,
    /// The attack it comes from.
    pub attack: u8,
    /// Brain-targeted: the attacker places it.
    pub targeted: bool,
}

/// One player's daemon.
#[derive(Debug, Clone, PartialEq)]
pub struct Daemon {
    /// Secret until everyone is ready.
    pub picks: Vec<Die>,
    pub declared: Option<Breed>,
    pub ready: bool,
    /// The revealed dice (empty during construction) and their states.
    pub dice: Vec<Die>,
    pub state: Vec<DieState>,
    pub lineage: Lineage,
    pub defeated: bool,
    /// This turn: a mongrel's free recovery used, Frost conversions made.
    pub stamina_used: bool,
    pub frost_used: u8,
}

impl Daemon {
    pub(crate) fn new() -> Daemon {
        Daemon {
            picks: Vec::new(),
            declared: None,
            ready: false,
            dice: Vec::new(),
            state: Vec::new(),
            lineage: Lineage::Crossbred,
            defeated: false,
            stamina_used: false,
            frost_used: 0,
        }
    }

    /// Dice showing `face`, rolled and unused, lowest index first.
    pub(crate) fn rolled(&self, face: Face) -> Option<u8> {
        self.state
            .iter()
            .position(|s| s.shows(face))
            .map(|i| i as u8)
    }

    /// Every die is stunned, wounded or grabbed: the daemon has lost.
    pub(crate) fn overwhelmed(&self) -> bool {
        self.state
            .iter()
            .all(|s| !s.healthy() || s.grabbed_by.is_some())
    }

    pub(crate) fn healthy_count(&self) -> usize {
        self.state.iter().filter(|s| s.healthy()).count()
    }
}

/// The steps of play. The sequence of a turn is Release (1a), TargetMinus and SetAside (1b),
/// the roll (1c, automatic), Recover (2), Defend (3a), MouthRecover and Suffer (3b), Target,
/// Attack (4) and Rot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "step")]
#[ts(export_to = "daemon_dice/")]
pub enum Step {
    /// Everyone builds a daemon in secret.
    Construction,
    /// 1a: the active daemon may release its grabs by activating its Tentacles.
    Release,
    /// 1b: the foe picks the dice its Wings minus; `left` still to place.
    TargetMinus {
        left: u8,
    },
    /// 1b: the active daemon sets aside dice for untargeted minuses.
    SetAside {
        left: u8,
    },
    /// 2: pluses (and a mongrel's stamina) recover stunned dice.
    Recover,
    /// 3a: defences are matched against the arrayed attacks.
    Defend,
    /// 3b: the foe's undefended Mouths recover its stunned dice.
    MouthRecover {
        left: u8,
    },
    /// 3b: undefended damage is placed, front point first.
    Suffer {
        points: Vec<Point>,
    },
    /// 4, multiplayer: the active daemon picks its target.
    Target,
    /// 4: grabs, boosts, Spikes, Brains and poison; minuses and attacks are arrayed.
    Attack,
    /// After the attack: a Rot purebred rots stunned dice of its target.
    Rot {
        left: u8,
    },
    /// Multiplayer: the defeated active daemon names who takes the next turn.
    NameNext,
    Over,
}

/// One initiative roll: the faces each rolling seat showed (`None`: did not roll again).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "daemon_dice/")]
pub struct InitiativeRoll {
    pub faces: Vec<Option<Vec<Face>>>,
    pub totals: Vec<Option<u32>>,
}

/// How the initiative was settled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "daemon_dice/")]
pub struct Initiative {
    pub rolls: Vec<InitiativeRoll>,
    /// Tied three times: decided by a coin (a random pick among the tied).
    pub coin: bool,
    pub winner: Seat,
    /// Whose minuses count against the winner's first turn.
    pub minuses_from: Option<Seat>,
}

/// A Daemon Dice battle.
#[derive(Debug, Clone, PartialEq)]
pub struct DaemonDice {
    pub(crate) config: DaemonDiceConfig,
    pub(crate) seats: u8,
    pub(crate) daemons: Vec<Daemon>,
    pub(crate) step: Step,
    /// Turns begun so far.
    pub(crate) turn: u32,
    pub(crate) active: Seat,
    /// What is arrayed against the active daemon.
    pub(crate) pending: Option<Array>,
    /// What the active daemon arrays in its attack step.
    pub(crate) array: Option<Array>,
    pub(crate) initiative: Option<Initiative>,
    /// Defeated seats, first defeated first.
    pub(crate) defeated: Vec<Seat>,
    pub(crate) outcome: Option<Outcome>,
    /// Fixed rolls for tests (`None` in every real battle: rolls come from the `Chance`).
    pub(crate) script: Option<crate::rigged::ScriptedRolls>,
}

impl DaemonDice {
    pub(crate) fn level(&self) -> u8 {
        power_level(self.config.size)
    }

    pub(crate) fn daemon(&self, seat: Seat) -> &Daemon {
        &self.daemons[seat as usize]
    }

    pub(crate) fn daemon_mut(&mut self, seat: Seat) -> &mut Daemon {
        &mut self.daemons[seat as usize]
    }

    pub(crate) fn living(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..self.seats).filter(|&s| !self.daemons[s as usize].defeated)
    }

    /// The daemon whose array the active daemon faces.
    pub(crate) fn attacker(&self) -> Option<Seat> {
        self.pending.as_ref().map(|p| p.by)
    }

    /// The daemon the active daemon's effects target this turn.
    pub(crate) fn target(&self) -> Option<Seat> {
        self.array.as_ref().map(|a| a.against)
    }

    /// Ends a grab held by the Tentacle `holder`, if any.
    pub(crate) fn release(&mut self, holder: DieRef) {
        let held = self.daemons[holder.seat as usize].state[holder.die as usize]
            .holding
            .take();
        if let Some(held) = held {
            self.daemons[held.seat as usize].state[held.die as usize].grabbed_by = None;
        }
    }

    /// Ends the grab on `held`, freeing the Tentacle holding it.
    pub(crate) fn free(&mut self, held: DieRef) {
        let holder = self.daemons[held.seat as usize].state[held.die as usize]
            .grabbed_by
            .take();
        if let Some(holder) = holder {
            let tentacle = &mut self.daemons[holder.seat as usize].state[holder.die as usize];
            tentacle.holding = None;
        }
    }

    /// Whether the defence on `attack` intercepts it: (k − 1) + p boosts against the
    /// attack's boosts, with at least one block, deflect or dodge.
    pub(crate) fn intercepts(&self, defender: Seat, attack: &Attack) -> bool {
        let daemon = self.daemon(defender);
        let faces = attack
            .defence
            .iter()
            .filter_map(|&d| daemon.state[d as usize].face);
        let (mut guards, mut pluses) = (0u32, 0u32);
        for face in faces {
            if face == Face::Plus {
                pluses += 1;
            } else if face.guard().is_some() {
                guards += 1;
            }
        }
        guards > 0 && guards - 1 + pluses >= attack.boosts()
    }

    /// The kind of guard a defence already uses.
    pub(crate) fn guard_of(&self, defender: Seat, attack: &Attack) -> Option<Guard> {
        let daemon = self.daemon(defender);
        attack
            .defence
            .iter()
            .find_map(|&d| daemon.state[d as usize].face.and_then(Face::guard))
    }

    /// An Eye's ray against a daemon immune to the Eye's breed does nothing.
    pub(crate) fn void(&self, by: Seat, against: Seat, attack: &Attack) -> bool {
        attack.face == Face::Eye
            && self
                .daemon(against)
                .lineage
                .immune_to(self.daemon(by).dice[attack.die as usize].breed)
    }
}
