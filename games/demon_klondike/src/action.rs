//! What a seat can ask for, and why the engine may refuse it.
//!
//! Actions name their card and their target precisely, because Demon is played in real time:
//! an action may arrive after someone else's move has changed the table. A foundation move
//! names the foundation it expects to land on (foundations are numbered in the order their
//! Aces arrived and never disappear), so a move that lost a race is refused with
//! `foundation_moved` rather than landing somewhere its player did not choose.

use pandemonium_game_contract::SharedRefusal;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::cards::Card;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "type")]
#[ts(rename = "DemonAction", export_to = "demon_klondike/")]
pub enum Action {
    /// Turn three cards (or what is left) from the stock onto the waste.
    Draw,
    /// Turn the waste over to form a new stock (only when the stock is empty).
    Recycle,
    /// Play `card` (the waste top or the top card of a pile) onto foundation number
    /// `foundation`, or, for an Ace, start a new foundation (`null`).
    ToFoundation { card: Card, foundation: Option<u16> },
    /// Move `card` (the waste top, or a face-up tableau card with the cards on it) onto tableau
    /// pile `pile` (0 to 6).
    ToPile { card: Card, pile: u8 },
    /// "We're stuck": this seat sees no play and stops racing for the rest of the deal. The
    /// deal ends when every seat has said so.
    Stuck,
    /// Between deals: ready for the next one. It starts when everyone is ready.
    Ready,
}

/// Why an action was refused. The state is untouched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A refusal every game shares.
    #[error(transparent)]
    Shared(#[from] SharedRefusal),
    #[error("That seat is not at this table.")]
    NoSuchSeat,
    #[error("The deal is over: the next one starts when everyone is ready.")]
    BetweenDeals,
    #[error("The deal is under way.")]
    DealUnderway,
    #[error("You are already ready for the next deal.")]
    AlreadyReady,
    #[error("You said you are stuck: you have stopped racing this deal.")]
    Stopped,
    #[error("The stock is empty: turn the waste over.")]
    StockEmpty,
    #[error("The stock is not empty yet.")]
    StockNotEmpty,
    #[error("The waste is empty.")]
    WasteEmpty,
    #[error("That card is not playable: only the top of your waste and your face-up cards are.")]
    NotPlayable,
    #[error("Only the top card of a pile can go to a foundation.")]
    NotTopCard,
    #[error("Whole face-up runs only: move the run from its first face-up card.")]
    WholeRunOnly,
    #[error("There is no such foundation.")]
    NoSuchFoundation,
    #[error("Only an Ace starts a foundation.")]
    NotAnAce,
    #[error("An Ace starts a new foundation.")]
    AceStartsAFoundation,
    #[error("That foundation is of another suit.")]
    WrongSuit,
    #[error("Someone got there first: that foundation has moved on.")]
    FoundationMoved,
    #[error("That card is not next on that foundation.")]
    NotNextOnFoundation,
    #[error("There is no such pile.")]
    NoSuchPile,
    #[error("The run is already on that pile.")]
    SamePile,
    #[error("An empty pile takes only a King or a run headed by a King.")]
    EmptyPileNeedsAKing,
    #[error("Build down in alternating colours: one rank lower, the other colour.")]
    DoesNotBuild,
}

impl pandemonium_game_contract::RuleError for Error {
    fn shared(&self) -> Option<SharedRefusal> {
        match self {
            Error::Shared(shared) => Some(*shared),
            _ => None,
        }
    }

    fn rule(&self) -> &'static str {
        match self {
            Error::Shared(shared) => shared.rule(),
            Error::NoSuchSeat => "no_such_seat",
            Error::BetweenDeals => "between_deals",
            Error::DealUnderway => "deal_underway",
            Error::AlreadyReady => "already_ready",
            Error::Stopped => "stopped",
            Error::StockEmpty => "stock_empty",
            Error::StockNotEmpty => "stock_not_empty",
            Error::WasteEmpty => "waste_empty",
            Error::NotPlayable => "not_playable",
            Error::NotTopCard => "not_top_card",
            Error::WholeRunOnly => "whole_run_only",
            Error::NoSuchFoundation => "no_such_foundation",
            Error::NotAnAce => "not_an_ace",
            Error::AceStartsAFoundation => "ace_starts_a_foundation",
            Error::WrongSuit => "wrong_suit",
            Error::FoundationMoved => "foundation_moved",
            Error::NotNextOnFoundation => "not_next_on_foundation",
            Error::NoSuchPile => "no_such_pile",
            Error::SamePile => "same_pile",
            Error::EmptyPileNeedsAKing => "empty_pile_needs_a_king",
            Error::DoesNotBuild => "does_not_build",
        }
    }

    const RULES: &'static [&'static str] = &[
        "match_over",
        "no_such_seat",
        "between_deals",
        "deal_underway",
        "already_ready",
        "stopped",
        "stock_empty",
        "stock_not_empty",
        "waste_empty",
        "not_playable",
        "not_top_card",
        "whole_run_only",
        "no_such_foundation",
        "not_an_ace",
        "ace_starts_a_foundation",
        "wrong_suit",
        "foundation_moved",
        "not_next_on_foundation",
        "no_such_pile",
        "same_pile",
        "empty_pile_needs_a_king",
        "does_not_build",
    ];
}
