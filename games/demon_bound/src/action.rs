//! What a seat can ask of the engine, and why it may be refused.

use pandemonium_game_contract::{RuleError, Seat, SharedRefusal};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::cards::{Card, CardSet};

/// Every action of Demon Bound!, including the answers to pending decisions.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "type")]
#[ts(export_to = "demon_bound/")]
pub enum DemonBoundAction {
    /// Setup, in secret: sacrifice this numbered heart.
    SetupSacrifice { card: Card },
    /// Setup, in secret: discard a random card of your hand instead.
    SetupDiscard,
    /// Card play: a numbered heart into your sacrifice.
    Sacrifice { card: Card },
    /// Card play: a numbered heart into your sacrifice that brings it to `demon`'s strength;
    /// the demon attacks `target` (`None` in solitaire, where it is discarded) and the
    /// sacrifice is discarded.
    Appease {
        card: Card,
        demon: Card,
        target: Option<Seat>,
    },
    /// Card play: a numbered spade summoned onto `onto`'s sacrifice.
    Summon { card: Card, onto: Seat },
    /// Card play: a numbered club binds `demon`, standing before you since your turn began.
    Bind { card: Card, demon: Card },
    /// Card play: a numbered diamond into your treasury, paid by releasing bound demons
    /// (each one needed to reach the diamond's value).
    Treasure { card: Card, release: CardSet },
    /// Not a card play: free your bound demon `freed` to banish `demon`, standing before you
    /// since your turn began.
    Banish { demon: Card, freed: Card },
    /// Card play: a Jack, Queen or King cast as a spell of power 1, 2 or 3.
    Cast { card: Card },
    /// Demonic Visage: banish a demon anywhere, bound or not.
    SpellBanish { demon: Card },
    /// Royal Sacrifice: send a numbered spade from your hand to attack `onto`.
    SpellSummon { card: Card, onto: Seat },
    /// The Master's Voice: bind a demon anywhere, even another player's bound demon.
    SpellBind { demon: Card },
    /// Treasure Scrying: peek at `seat`'s hand.
    Scry { seat: Seat },
    /// Treasure Scrying: take a numbered diamond from the hand you peek at (in solitaire,
    /// from the discard pile) into your hand.
    Steal { card: Card },
    /// Stop casting the spell (its power need not be used up).
    EndSpell,
    /// End the card-play step. A threat still before you marks your soul.
    EndPlay,
    /// The discard step: at least as many cards as your stain (all of them if you hold fewer).
    Discard { cards: CardSet },
    /// A pending decision: the demon waiting for a target attacks `target`.
    Attack { target: Seat },
}

/// Why an action was refused. The state is untouched whenever one is returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DemonBoundError {
    /// A refusal every game shares.
    #[error(transparent)]
    Shared(#[from] SharedRefusal),
    #[error("That action does not belong to this moment of the turn.")]
    WrongStep,
    #[error("You do not hold that card.")]
    NotInHand,
    #[error("That card cannot be played that way.")]
    WrongCard,
    #[error("You have already played a card this turn.")]
    AlreadyPlayed,
    #[error("That demon is not one you may deal with now.")]
    NotAThreat,
    #[error("That player cannot be chosen.")]
    BadTarget,
    #[error("Demons are summoned onto a sacrifice: that player has none.")]
    NoSacrifice,
    #[error("Your sacrifice would not reach the demon's strength.")]
    SacrificeTooSmall,
    #[error("The club is weaker than the demon.")]
    BindingTooWeak,
    #[error("Those bound demons do not pay for that treasure exactly as needed.")]
    BadRelease,
    #[error("That is not one of your bound demons.")]
    NotBound,
    #[error("The spell can do no more of that.")]
    SpellSpent,
    #[error("Discard at least as many cards as your stain.")]
    TooFewDiscards,
}

impl RuleError for DemonBoundError {
    fn shared(&self) -> Option<SharedRefusal> {
        match self {
            DemonBoundError::Shared(shared) => Some(*shared),
            _ => None,
        }
    }

    fn rule(&self) -> &'static str {
        match self {
            DemonBoundError::Shared(shared) => shared.rule(),
            DemonBoundError::WrongStep => "wrong_step",
            DemonBoundError::NotInHand => "not_in_hand",
            DemonBoundError::WrongCard => "wrong_card",
            DemonBoundError::AlreadyPlayed => "already_played",
            DemonBoundError::NotAThreat => "not_a_threat",
            DemonBoundError::BadTarget => "bad_target",
            DemonBoundError::NoSacrifice => "no_sacrifice",
            DemonBoundError::SacrificeTooSmall => "sacrifice_too_small",
            DemonBoundError::BindingTooWeak => "binding_too_weak",
            DemonBoundError::BadRelease => "bad_release",
            DemonBoundError::NotBound => "not_bound",
            DemonBoundError::SpellSpent => "spell_spent",
            DemonBoundError::TooFewDiscards => "too_few_discards",
        }
    }

    const RULES: &'static [&'static str] = &[
        "match_over",
        "not_your_turn",
        "wrong_step",
        "not_in_hand",
        "wrong_card",
        "already_played",
        "not_a_threat",
        "bad_target",
        "no_sacrifice",
        "sacrifice_too_small",
        "binding_too_weak",
        "bad_release",
        "not_bound",
        "spell_spent",
        "too_few_discards",
    ];
}
