//! Why an action was refused: a stable code for clients and tests, a sentence for the player.

use pandemonium_game::RuleError;

use crate::cards::Rank;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("The match is over.")]
    GameOver,
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
    #[error("{demon} has {symbols} symbols, so it can take at most {symbols} cards.")]
    TooManyOfferings { demon: &'static str, symbols: usize },
    #[error("Column {0} is offered twice: only its visible card can be taken.")]
    ColumnOfferedTwice(u8),
    #[error("Those cards cannot each match a different symbol of {demon}.")]
    OfferingsDoNotMatch { demon: &'static str },
}

impl RuleError for Error {
    fn code(&self) -> &'static str {
        match self {
            Error::GameOver => "game_over",
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
            Error::TooManyOfferings { .. } => "too_many_offerings",
            Error::ColumnOfferedTwice(_) => "column_offered_twice",
            Error::OfferingsDoNotMatch { .. } => "offerings_do_not_match",
        }
    }
}
