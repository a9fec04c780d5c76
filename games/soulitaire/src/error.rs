//! Why an action was refused: a stable code for clients and tests, a sentence for the player.

use pandemonium_game_contract::{ErrorCode, RuleError, SharedRefusal};

use crate::cards::{Face, Rank, Symbol};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A refusal every game shares.
    #[error(transparent)]
    Shared(#[from] SharedRefusal),
    #[error("Soulitaire has a single seat; seat {0} cannot act.")]
    NotYourSeat(u8),
    #[error("There is no column {0}: the Spellboard has columns 0 to 5.")]
    NoSuchColumn(u8),
    #[error("There is no Foundation Stack {0}: they are numbered 0 to 3.")]
    NoSuchFoundation(u8),
    #[error("Column {0} has no cards left.")]
    EmptyColumn(u8),
    #[error(
        "A card of rank {card} cannot go onto a {top}: the ranks must be one apart (A 2 … 10 E S K A)."
    )]
    NotAdjacent { card: Rank, top: Rank },
    #[error("Foundation Stack {0} is dead: a demon lies on top of it with no Ritual cards.")]
    DeadStack(u8),
    #[error("A Mimic must be declared as a card when it is placed.")]
    MimicUndeclared,
    #[error("Only a Mimic can be declared as another card.")]
    NotAMimic,
    #[error("The Demon Pile is empty.")]
    NoDemon,
    #[error("{demon} shares no suit or rank with the top of Foundation Stack {foundation}.")]
    DemonDoesNotMatch { demon: &'static str, foundation: u8 },
    #[error("A sacrifice is under way: offer a card to the demon or end the sacrifice first.")]
    SacrificeUnderWay,
    #[error("There is no sacrifice under way: sacrifice a demon first.")]
    NoSacrifice,
    #[error(
        "The card of column {0} was not visible when the demon was placed, so it cannot be offered."
    )]
    NotVisibleWhenPlaced(u8),
    #[error("{demon} has no {symbol} symbol left to satisfy.")]
    SymbolNotWanted { demon: &'static str, symbol: Symbol },
    #[error("The {face} does not match the {symbol} symbol.")]
    DoesNotMatchSymbol { face: Face, symbol: Symbol },
}

impl RuleError for Error {
    fn shared(&self) -> Option<SharedRefusal> {
        match self {
            Error::Shared(shared) => Some(*shared),
            _ => None,
        }
    }

    fn code(&self) -> ErrorCode {
        match self {
            Error::NotYourSeat(_) => ErrorCode::NotYourTurn,
            _ => self
                .shared()
                .map_or(ErrorCode::IllegalAction, SharedRefusal::code),
        }
    }

    fn rule(&self) -> &'static str {
        match self {
            Error::Shared(shared) => shared.rule(),
            Error::NotYourSeat(_) => "not_your_seat",
            Error::NoSuchColumn(_) => "no_such_column",
            Error::NoSuchFoundation(_) => "no_such_foundation",
            Error::EmptyColumn(_) => "empty_column",
            Error::NotAdjacent { .. } => "not_adjacent",
            Error::DeadStack(_) => "dead_stack",
            Error::MimicUndeclared => "mimic_undeclared",
            Error::NotAMimic => "not_a_mimic",
            Error::NoDemon => "no_demon",
            Error::DemonDoesNotMatch { .. } => "demon_does_not_match",
            Error::SacrificeUnderWay => "sacrifice_under_way",
            Error::NoSacrifice => "no_sacrifice",
            Error::NotVisibleWhenPlaced(_) => "not_visible_when_placed",
            Error::SymbolNotWanted { .. } => "symbol_not_wanted",
            Error::DoesNotMatchSymbol { .. } => "does_not_match_symbol",
        }
    }

    const RULES: &'static [&'static str] = &[
        "match_over",
        "not_your_seat",
        "no_such_column",
        "no_such_foundation",
        "empty_column",
        "not_adjacent",
        "dead_stack",
        "mimic_undeclared",
        "not_a_mimic",
        "no_demon",
        "demon_does_not_match",
        "sacrifice_under_way",
        "no_sacrifice",
        "not_visible_when_placed",
        "symbol_not_wanted",
        "does_not_match_symbol",
    ];
}
