//! What a seat can ask of the engine, and why it may be refused.

use pandemonium_game::{ErrorCode, RuleError, Seat};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::cards::{Card, Suit};

/// Where the replacement card of a Secret or Unanimous Discard comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "demos/")]
pub enum Take {
    /// The top card of the People's Pack.
    Pack,
    /// A visible discard (a public discard nobody took, or a revealed secret discard).
    Discard(Card),
}

/// The Creator's Suggestion: a favourite suit and the figure trio a player aims for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "demos/")]
pub struct Declaration {
    pub favourite: Suit,
    /// The suits of the Executive, Legislative and Judicial of the declared trio.
    pub trio: [Suit; 3],
}

/// Every action of DēmoS, including the answers to pending decisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "type")]
#[ts(export_to = "demos/")]
pub enum DemosAction {
    /// Ends your part of a team consultation window.
    Proceed,
    /// Creator's Suggestion, before the first round.
    Declare { declaration: Declaration },
    /// Public Discard: the card goes face up; you receive the top card of the pack.
    PublicDiscard { card: Card },
    /// Secret Discard: the card goes face down; you take a replacement.
    SecretDiscard { card: Card, take: Take },
    /// Unanimous Discard: the card goes face down; you take a replacement.
    UnanimousDiscard { card: Card, take: Take },
    /// Keep your hand: the optional Secret Discard of the complete game, or the pack guard
    /// when there is nothing to take.
    KeepHand,
    /// Veto the Unanimous Discard (in a team: propose the team's veto).
    Veto,
    /// Let the Unanimous Discard go ahead.
    Pass,
    /// Agree to a teammate's veto proposal.
    ConfirmVeto,
    /// Refuse a teammate's veto proposal.
    DeclineVeto,
    /// Team modes: give each figure your team drew (in drawing order) to a member.
    Allocate { to: AllocationTargets },
    /// Scandal Phase: turn up the target's face-down figure at `position` (its place in
    /// acquisition order) and give it `suit`.
    Media {
        target: Seat,
        position: u8,
        suit: Suit,
    },
}

/// The recipients of one or two drawn figures, in drawing order. A fixed array keeps
/// [`DemosAction`] `Copy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(into = "Vec<Seat>", try_from = "Vec<Seat>")]
#[ts(export_to = "demos/", type = "Array<number>")]
pub struct AllocationTargets {
    seats: [Seat; 2],
    len: u8,
}

impl AllocationTargets {
    pub fn new(seats: &[Seat]) -> AllocationTargets {
        assert!(seats.len() <= 2, "a team draws at most two figures at once");
        let mut array = [0; 2];
        array[..seats.len()].copy_from_slice(seats);
        AllocationTargets {
            seats: array,
            len: seats.len() as u8,
        }
    }

    pub fn as_slice(&self) -> &[Seat] {
        &self.seats[..self.len as usize]
    }
}

impl From<AllocationTargets> for Vec<Seat> {
    fn from(targets: AllocationTargets) -> Vec<Seat> {
        targets.as_slice().to_vec()
    }
}

impl TryFrom<Vec<Seat>> for AllocationTargets {
    type Error = String;

    fn try_from(seats: Vec<Seat>) -> Result<AllocationTargets, String> {
        if seats.len() <= 2 {
            Ok(AllocationTargets::new(&seats))
        } else {
            Err("a team draws at most two figures at once".into())
        }
    }
}

/// Why an action was refused. The state is untouched whenever one is returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DemosError {
    #[error("The match is over.")]
    MatchOver,
    #[error("It is not your move: you have nothing to decide now, or you already committed.")]
    NotYourTurn,
    #[error("That action does not belong to this moment of the round.")]
    WrongStep,
    #[error("You do not hold that card.")]
    NotInHand,
    #[error("That card is not among the discards you may take.")]
    NotAvailable,
    #[error("The People's Pack is empty: take a visible discard instead.")]
    PackEmpty,
    #[error("You must discard this turn; keeping your hand is not allowed.")]
    DiscardRequired,
    #[error("Each figure your team drew must go to a member of your team.")]
    BadAllocation,
    #[error("A Media targets a face-down figure of another player.")]
    BadMediaTarget,
}

impl RuleError for DemosError {
    fn code(&self) -> ErrorCode {
        match self {
            DemosError::MatchOver => ErrorCode::MatchOver,
            DemosError::NotYourTurn => ErrorCode::NotYourTurn,
            _ => ErrorCode::IllegalAction,
        }
    }

    fn rule(&self) -> &'static str {
        match self {
            DemosError::MatchOver => "match_over",
            DemosError::NotYourTurn => "not_your_turn",
            DemosError::WrongStep => "wrong_step",
            DemosError::NotInHand => "not_in_hand",
            DemosError::NotAvailable => "not_available",
            DemosError::PackEmpty => "pack_empty",
            DemosError::DiscardRequired => "discard_required",
            DemosError::BadAllocation => "bad_allocation",
            DemosError::BadMediaTarget => "bad_media_target",
        }
    }
}
