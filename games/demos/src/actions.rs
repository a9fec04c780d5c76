//! What a seat can ask of the engine, and why it may be refused.

use pandemonium_game_contract::{RuleError, Seat, SharedRefusal};
use serde::{Deserialize, Deserializer, Serialize, de};
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, TS)]
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

/// Read as a flat struct of every field any action has, then put together by its `type`.
/// serde's reader of a tagged enum first copies the whole action into a buffer of its own to
/// find the tag (which may come after the fields), then reads the variant from that copy:
/// most of the cost of reading a move. As with that reader, a field the action does not have
/// is passed over here; the engine refuses it (`pandemonium_game_contract::dynamic::unknown_field`).
impl<'de> Deserialize<'de> for DemosAction {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename_all = "snake_case")]
        enum Kind {
            Proceed,
            Declare,
            PublicDiscard,
            SecretDiscard,
            UnanimousDiscard,
            KeepHand,
            Veto,
            Pass,
            ConfirmVeto,
            DeclineVeto,
            Allocate,
            Media,
        }
        #[derive(Deserialize)]
        struct Fields {
            #[serde(rename = "type")]
            kind: Kind,
            declaration: Option<Declaration>,
            card: Option<Card>,
            take: Option<Take>,
            to: Option<AllocationTargets>,
            target: Option<Seat>,
            position: Option<u8>,
            suit: Option<Suit>,
        }
        fn needs<T, E: de::Error>(field: Option<T>, name: &'static str) -> Result<T, E> {
            field.ok_or_else(|| E::missing_field(name))
        }
        let fields = Fields::deserialize(deserializer)?;
        Ok(match fields.kind {
            Kind::Proceed => DemosAction::Proceed,
            Kind::Declare => DemosAction::Declare {
                declaration: needs(fields.declaration, "declaration")?,
            },
            Kind::PublicDiscard => DemosAction::PublicDiscard {
                card: needs(fields.card, "card")?,
            },
            Kind::SecretDiscard => DemosAction::SecretDiscard {
                card: needs(fields.card, "card")?,
                take: needs(fields.take, "take")?,
            },
            Kind::UnanimousDiscard => DemosAction::UnanimousDiscard {
                card: needs(fields.card, "card")?,
                take: needs(fields.take, "take")?,
            },
            Kind::KeepHand => DemosAction::KeepHand,
            Kind::Veto => DemosAction::Veto,
            Kind::Pass => DemosAction::Pass,
            Kind::ConfirmVeto => DemosAction::ConfirmVeto,
            Kind::DeclineVeto => DemosAction::DeclineVeto,
            Kind::Allocate => DemosAction::Allocate {
                to: needs(fields.to, "to")?,
            },
            Kind::Media => DemosAction::Media {
                target: needs(fields.target, "target")?,
                position: needs(fields.position, "position")?,
                suit: needs(fields.suit, "suit")?,
            },
        })
    }
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
    /// A refusal every game shares.
    #[error(transparent)]
    Shared(#[from] SharedRefusal),
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
    fn shared(&self) -> Option<SharedRefusal> {
        match self {
            DemosError::Shared(shared) => Some(*shared),
            _ => None,
        }
    }

    fn rule(&self) -> &'static str {
        match self {
            DemosError::Shared(shared) => shared.rule(),
            DemosError::WrongStep => "wrong_step",
            DemosError::NotInHand => "not_in_hand",
            DemosError::NotAvailable => "not_available",
            DemosError::PackEmpty => "pack_empty",
            DemosError::DiscardRequired => "discard_required",
            DemosError::BadAllocation => "bad_allocation",
            DemosError::BadMediaTarget => "bad_media_target",
        }
    }

    const RULES: &'static [&'static str] = &[
        "match_over",
        "not_your_turn",
        "wrong_step",
        "not_in_hand",
        "not_available",
        "pack_empty",
        "discard_required",
        "bad_allocation",
        "bad_media_target",
    ];
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn one_of_each() -> Vec<DemosAction> {
        let card = Card::new(7, Suit::Hearts);
        let declaration = Declaration {
            favourite: Suit::Spades,
            trio: [Suit::Hearts, Suit::Clubs, Suit::Diamonds],
        };
        vec![
            DemosAction::Proceed,
            DemosAction::Declare { declaration },
            DemosAction::PublicDiscard { card },
            DemosAction::SecretDiscard {
                card,
                take: Take::Pack,
            },
            DemosAction::SecretDiscard {
                card,
                take: Take::Discard(Card::new(10, Suit::Spades)),
            },
            DemosAction::UnanimousDiscard {
                card,
                take: Take::Pack,
            },
            DemosAction::KeepHand,
            DemosAction::Veto,
            DemosAction::Pass,
            DemosAction::ConfirmVeto,
            DemosAction::DeclineVeto,
            DemosAction::Allocate {
                to: AllocationTargets::new(&[1, 3]),
            },
            DemosAction::Media {
                target: 2,
                position: 1,
                suit: Suit::Clubs,
            },
        ]
    }

    #[test]
    fn every_action_reads_back_as_written_whatever_the_order_of_its_fields() {
        for action in one_of_each() {
            let written = serde_json::to_value(action).unwrap();
            let read: DemosAction = serde_json::from_value(written.clone()).unwrap();
            assert_eq!(read, action);
            let Value::Object(fields) = written else {
                panic!("{action:?} is written as an object");
            };
            let reversed: Vec<String> = fields
                .iter()
                .rev()
                .map(|(key, value)| format!("{}:{value}", json!(key)))
                .collect();
            let reversed = format!("{{{}}}", reversed.join(","));
            let read: DemosAction = serde_json::from_str(&reversed).unwrap();
            assert_eq!(read, action, "{reversed}");
        }
    }

    #[test]
    fn an_action_missing_a_field_or_of_no_known_type_is_not_read() {
        for (text, says) in [
            (
                r#"{"type":"secret_discard","card":"7H"}"#,
                "missing field `take`",
            ),
            (r#"{"card":"7H"}"#, "missing field `type`"),
            (r#"{"type":"fly"}"#, "unknown variant `fly`"),
            (
                r#"{"type":"media","target":1,"suit":"hearts"}"#,
                "missing field `position`",
            ),
        ] {
            let error = serde_json::from_str::<DemosAction>(text)
                .unwrap_err()
                .to_string();
            assert!(error.contains(says), "{text}: {error}");
        }
    }
}
