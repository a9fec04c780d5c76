//! What each viewer may see, and the re-deal of everything else that proves it. Every die is
//! public once the daemons are revealed; before that, a player sees only their own picks,
//! and everyone sees how far each player has got and who is ready.

use pandemonium_game_contract::{Chance, Seat, Viewer};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::breeds::{Lineage, declaration_needed};
use crate::config::DaemonDiceConfig;
use crate::dice::{Breed, Die, Face, Part};
use crate::state::{Array, DaemonDice, DieRef, Health, Initiative, Step, Zone};

/// One viewer's picture of the battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "daemon_dice/")]
pub struct DaemonDiceView {
    /// The viewer's seat (`None` for spectators and replays).
    pub you: Option<Seat>,
    pub config: DaemonDiceConfig,
    pub step: Step,
    /// Turns begun so far (0 during construction).
    pub turn: u32,
    /// The daemon whose turn it is (`None` during construction).
    pub active: Option<Seat>,
    /// Who must act now (a foe deciding during your turn included).
    pub to_act: Vec<Seat>,
    /// Purebred powers act this many times per turn (one per started block of 13 dice).
    pub power_level: u8,
    pub daemons: Vec<DaemonView>,
    /// What is arrayed against the active daemon, and how each attack stands.
    pub pending: Option<Array>,
    pub pending_status: Vec<AttackStatus>,
    /// What the active daemon is arraying against its target.
    pub array: Option<Array>,
    pub initiative: Option<Initiative>,
    /// Defeated seats, first defeated first.
    pub defeated: Vec<Seat>,
    /// THE HOUSE SET: the six faces of each body part's die, the same for every breed (see
    /// `data`), so the board draws dice from the server's table.
    pub faces: Vec<(Part, [Face; 6])>,
}

/// How an attack against the active daemon stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "daemon_dice/")]
pub struct AttackStatus {
    /// The boosts a defence must match.
    pub boosts: u32,
    /// The defence assigned so far intercepts it.
    pub intercepted: bool,
    /// A ray against a daemon immune to its breed: it does nothing.
    pub immune: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "daemon_dice/")]
pub struct DaemonView {
    pub ready: bool,
    /// Dice picked so far.
    pub picked: u8,
    /// During construction, your own picks (and declared breed); `None` otherwise.
    pub picks: Option<Vec<Die>>,
    pub declared: Option<Breed>,
    /// The revealed daemon (empty during construction).
    pub dice: Vec<DieView>,
    pub lineage: Option<Lineage>,
    pub defeated: bool,
}

/// A revealed die and its state. Empty fields are left out: a battle of six mega-daemons
/// shows 156 dice in every frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "daemon_dice/")]
pub struct DieView {
    pub breed: Breed,
    pub part: Part,
    /// Left out when healthy.
    #[serde(default, skip_serializing_if = "Health::is_healthy")]
    #[ts(as = "Option<Health>", optional)]
    pub health: Health,
    /// Left out when idle.
    #[serde(default, skip_serializing_if = "Zone::is_idle")]
    #[ts(as = "Option<Zone>", optional)]
    pub zone: Zone,
    /// The face it shows, once rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub face: Option<Face>,
    /// The Tentacle holding this die.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub grabbed_by: Option<DieRef>,
    /// For a Tentacle: the die it holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub holding: Option<DieRef>,
}

impl DaemonDice {
    pub(crate) fn build_view(&self, viewer: Viewer) -> DaemonDiceView {
        let building = self.step == Step::Construction;
        let sees_picks =
            |seat: Seat| !building || viewer == Viewer::Seat(seat) || viewer == Viewer::Omniscient;
        let daemons = (0..self.seats)
            .map(|seat| {
                let d = self.daemon(seat);
                let own = building && sees_picks(seat);
                DaemonView {
                    ready: d.ready,
                    picked: d.picks.len() as u8,
                    picks: own.then(|| d.picks.clone()),
                    declared: if own || !building { d.declared } else { None },
                    dice: d
                        .dice
                        .iter()
                        .zip(&d.state)
                        .map(|(die, s)| DieView {
                            breed: die.breed,
                            part: die.part,
                            health: s.health,
                            zone: s.zone,
                            face: s.face,
                            grabbed_by: s.grabbed_by,
                            holding: s.holding,
                        })
                        .collect(),
                    lineage: (!building).then_some(d.lineage),
                    defeated: d.defeated,
                }
            })
            .collect();
        let pending_status = self
            .pending
            .as_ref()
            .map(|p| {
                p.attacks
                    .iter()
                    .map(|a| AttackStatus {
                        boosts: a.boosts(),
                        intercepted: self.intercepts(p.against, a),
                        immune: self.void(p.by, p.against, a),
                    })
                    .collect()
            })
            .unwrap_or_default();
        DaemonDiceView {
            you: viewer.seat(),
            config: self.config.clone(),
            step: self.step.clone(),
            turn: self.turn,
            active: (!building).then_some(self.active),
            to_act: self.waiting().iter().collect(),
            power_level: self.level(),
            daemons,
            pending: self.pending.clone(),
            pending_status,
            array: self.array.clone(),
            initiative: self.initiative.clone(),
            defeated: self.defeated.clone(),
            faces: crate::data::FACES.to_vec(),
        }
    }

    /// Deals every other player's secret picks again (keeping how many they made and whether
    /// they are ready). Nothing else is hidden.
    pub(crate) fn redealt(&self, viewer: Viewer, chance: &mut dyn Chance) -> DaemonDice {
        let mut copy = self.clone();
        if self.step != Step::Construction || viewer == Viewer::Omniscient {
            return copy;
        }
        let random_die = |chance: &mut dyn Chance| {
            Die::new(
                Breed::ALL[chance.below(8) as usize],
                Part::ALL[chance.below(13) as usize],
            )
        };
        for (seat, daemon) in copy.daemons.iter_mut().enumerate() {
            if viewer == Viewer::Seat(seat as Seat) {
                continue;
            }
            let count = daemon.picks.len();
            daemon.picks = (0..count).map(|_| random_die(chance)).collect();
            daemon.declared = None;
            if daemon.ready
                && let Some(pair) = declaration_needed(&daemon.picks)
            {
                daemon.declared = Some(pair[chance.below(2) as usize]);
            }
        }
        copy
    }
}
