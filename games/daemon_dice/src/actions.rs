//! What a seat can ask of the engine, and why it may be refused. Every decision is one small
//! step (one die assigned at a time), so the list of legal actions stays short and complete.

use pandemonium_game_contract::{RuleError, Seat, SharedRefusal};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::dice::{Breed, Part};

/// Every action of Daemon Dice, including the foe's pending decisions during your turn.
/// `die` is an index into a daemon's dice (whose daemon is said on each variant); `attack` an
/// index into a list of arrayed attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "type")]
#[ts(export_to = "daemon_dice/")]
pub enum DaemonAction {
    /// Construction: add a die to your (secret) daemon.
    Pick { breed: Breed, part: Part },
    /// Construction: your daemon is complete and ready for the reveal. An exact half-and-half
    /// daemon declares its breed here (every other daemon sends `None`), so that every build
    /// takes the same steps and none shows its shape before the reveal.
    Ready { breed: Option<Breed> },
    /// 1a: activate one of your grabbing Tentacles, releasing what it holds.
    Release { die: u8 },
    /// 1b, the foe's decision: the die of the active daemon a Wings minus takes.
    TargetMinus { die: u8 },
    /// 1b: set aside one of your active dice for an untargeted minus.
    SetAside { die: u8 },
    /// 2: recover one of your stunned dice (a mongrel's free recovery first, then a plus).
    Recover { die: u8 },
    /// 3a: add one of your rolled dice to your defence against an attack.
    Defend { attack: u8, die: u8 },
    /// 3, the foe's decision: the foe's undefended Mouth recovers one of its stunned dice.
    MouthRecover { die: u8 },
    /// 3b: the next point of damage goes on this die of the active daemon (placed by the foe
    /// for a Brain-targeted attack, by the active daemon otherwise).
    Suffer { die: u8 },
    /// 4, multiplayer: the daemon all of this turn's effects target.
    Target { seat: Seat },
    /// 4a: your rolled Tentacle grabs a die of your target.
    Grab { tentacle: u8, die: u8 },
    /// 4c: a rolled plus boosts one of your attacks.
    Boost { attack: u8 },
    /// 4c: a rolled Spike adds a wound to one of your attacks.
    Spike { attack: u8 },
    /// 4c: a rolled Brain targets one of your attacks.
    Brain { attack: u8 },
    /// 4c: your Stinger's attack will inject poison if undefended.
    Poison { attack: u8 },
    /// End of a Rot purebred's turn: rot a stunned die of the daemon it targeted.
    Rot { die: u8 },
    /// Multiplayer: a defeated daemon names the daemon who takes the next turn.
    NameNext { seat: Seat },
    /// Ends the current optional step (keep your grabs, stop recovering, stop defending, end
    /// your turn, no more rot).
    Done,
}

/// Why an action was refused. The state is untouched whenever one is returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DaemonError {
    /// A refusal every game shares.
    #[error(transparent)]
    Shared(#[from] SharedRefusal),
    #[error("That action does not belong to this step of the turn.")]
    WrongStep,
    #[error("There is no such die.")]
    NoSuchDie,
    #[error("There is no such attack.")]
    NoSuchAttack,
    #[error("That die cannot be chosen for this.")]
    NotEligible,
    #[error("Your daemon already has all its dice.")]
    DaemonComplete,
    #[error("Your daemon may not hold more copies of that die.")]
    TooManyCopies,
    #[error("Only the two breeds of an exact half-and-half daemon can be declared.")]
    NotYourBreed,
    #[error("An exact half-and-half daemon declares its breed as it gets ready.")]
    BreedUndeclared,
    #[error("Your daemon needs all its dice before it is ready.")]
    DaemonIncomplete,
    #[error("A mongrel recovers a stunned die before it does anything else.")]
    MongrelMustRecover,
    #[error("You have no plus left to recover with.")]
    NoPlus,
    #[error("That face is not a defence.")]
    NotADefence,
    #[error("Block, deflect and dodge cannot be combined in one defence.")]
    MixedDefence,
    #[error("A plus used to defend must be added to a block, deflect or dodge.")]
    PlusNeedsBase,
    #[error("Blocks cannot stop rays or sweeps, and dodges stop only rays and sweeps.")]
    UnsuitableDefence,
    #[error("That attack is already intercepted.")]
    AlreadyIntercepted,
    #[error("Your daemon is immune to that attack: it needs no defence.")]
    ImmuneAttack,
    #[error("Choose a daemon still in the battle other than your own.")]
    BadTarget,
    #[error("A Spike cannot go with an Eye's ray or a Brain-targeted attack.")]
    SpikeNotAllowed,
    #[error("A Brain pairs with one attack that carries no Spike.")]
    BrainNotAllowed,
    #[error("Only an unpoisoned Stinger's attack can inject poison.")]
    NotAStinger,
    #[error("You rolled no such face to use.")]
    NothingToUse,
}

impl RuleError for DaemonError {
    fn shared(&self) -> Option<SharedRefusal> {
        match self {
            DaemonError::Shared(shared) => Some(*shared),
            _ => None,
        }
    }

    fn rule(&self) -> &'static str {
        match self {
            DaemonError::Shared(shared) => shared.rule(),
            DaemonError::WrongStep => "wrong_step",
            DaemonError::NoSuchDie => "no_such_die",
            DaemonError::NoSuchAttack => "no_such_attack",
            DaemonError::NotEligible => "not_eligible",
            DaemonError::DaemonComplete => "daemon_complete",
            DaemonError::TooManyCopies => "too_many_copies",
            DaemonError::NotYourBreed => "not_your_breed",
            DaemonError::BreedUndeclared => "breed_undeclared",
            DaemonError::DaemonIncomplete => "daemon_incomplete",
            DaemonError::MongrelMustRecover => "mongrel_must_recover",
            DaemonError::NoPlus => "no_plus",
            DaemonError::NotADefence => "not_a_defence",
            DaemonError::MixedDefence => "mixed_defence",
            DaemonError::PlusNeedsBase => "plus_needs_base",
            DaemonError::UnsuitableDefence => "unsuitable_defence",
            DaemonError::AlreadyIntercepted => "already_intercepted",
            DaemonError::ImmuneAttack => "immune_attack",
            DaemonError::BadTarget => "bad_target",
            DaemonError::SpikeNotAllowed => "spike_not_allowed",
            DaemonError::BrainNotAllowed => "brain_not_allowed",
            DaemonError::NotAStinger => "not_a_stinger",
            DaemonError::NothingToUse => "nothing_to_use",
        }
    }

    const RULES: &'static [&'static str] = &[
        "match_over",
        "not_your_turn",
        "wrong_step",
        "no_such_die",
        "no_such_attack",
        "not_eligible",
        "daemon_complete",
        "too_many_copies",
        "not_your_breed",
        "breed_undeclared",
        "daemon_incomplete",
        "mongrel_must_recover",
        "no_plus",
        "not_a_defence",
        "mixed_defence",
        "plus_needs_base",
        "unsuitable_defence",
        "already_intercepted",
        "immune_attack",
        "bad_target",
        "spike_not_allowed",
        "brain_not_allowed",
        "not_a_stinger",
        "nothing_to_use",
    ];
}
