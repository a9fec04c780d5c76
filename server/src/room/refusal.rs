//! Why a room refused what someone asked of it: one case per reason, each with the wire's error
//! code and the sentence the person reads.

use pandemonium_game_contract::Rejection;
use pandemonium_protocol::ErrorCode;

#[derive(Debug, Clone, thiserror::Error)]
pub(super) enum Refusal {
    #[error("No match is being played.")]
    NoMatch,
    #[error("Spectators cannot act.")]
    SpectatorsCannotAct,
    #[error("The match is over.")]
    MatchOver,
    #[error("It is not your turn to act.")]
    NotYourTurn,
    #[error("That action number was used long ago; send new actions with higher numbers.")]
    StaleSeq,
    /// The game refused the action by one of its rules.
    #[error("{}", .0.message)]
    Rule(Rejection),
    #[error("The action could not be saved, so it was not played. Try again.")]
    ActionNotSaved,
    #[error("The match could not be saved, so it did not start. Try again.")]
    MatchNotSaved,
    #[error("This table has no such seat.")]
    NoSuchSeat,
    #[error("That seat is taken.")]
    SeatTaken,
    #[error("A player holds that seat.")]
    PlayerHoldsSeat,
    #[error("The match is under way: leave the room to hand your seat to a bot.")]
    SeatKeptDuringMatch,
    #[error("You do not hold a seat here.")]
    NoSeatHeld,
    #[error("Take a seat first.")]
    TakeASeatFirst,
    #[error("That can only be done before the match starts.")]
    OnlyBeforeTheMatch,
    #[error("Only the host can do that.")]
    NotHost,
    #[error("Spectators watch; join the room as a player to take a seat.")]
    SpectatorsWatch,
    #[error("That message is not for a room.")]
    NotForARoom,
    #[error("Every seat needs a player or a bot before the match can start.")]
    SeatsEmpty,
    #[error("Everyone seated must be ready before the match can start.")]
    PlayersNotReady,
    /// The game's options no longer make a table (they are checked when the room opens).
    #[error("{0}")]
    BadConfig(String),
    #[error("A chat line is 1 to 500 characters.")]
    BadChat,
    #[error("Only players write in the players' chat; spectators have their own.")]
    PlayersChatIsForPlayers,
    #[error("Players cannot write in the spectators' chat.")]
    SpectatorsChatIsForSpectators,
    #[error("The spectators' chat is busy; try again in a moment.")]
    SpectatorsChatBusy,
    #[error("This game has no teams, or you have no seat.")]
    NoTeam,
    #[error("Team talk is only allowed during the rules' consultation windows.")]
    TeamChatClosed,
    #[error("Hints are for players in a match.")]
    NoHint,
    #[error("A rematch can be asked for once the match is over.")]
    MatchNotOver,
    #[error("Only the players of this match can ask for a rematch; you are watching.")]
    RematchIsForPlayers,
    #[error("This room has as many spectators as it can take; try again later.")]
    AudienceFull,
}

impl Refusal {
    /// The code the wire carries.
    pub fn code(&self) -> ErrorCode {
        use Refusal::*;
        match self {
            NoMatch => ErrorCode::NoMatch,
            SpectatorsCannotAct
            | NoSeatHeld
            | TakeASeatFirst
            | PlayersChatIsForPlayers
            | RematchIsForPlayers => ErrorCode::NotSeated,
            MatchOver => ErrorCode::MatchOver,
            NotYourTurn => ErrorCode::NotYourTurn,
            StaleSeq => ErrorCode::StaleSeq,
            Rule(rejection) => rejection.code,
            ActionNotSaved | MatchNotSaved => ErrorCode::StorageUnavailable,
            NoSuchSeat => ErrorCode::NoSuchSeat,
            SeatTaken | PlayerHoldsSeat => ErrorCode::SeatTaken,
            SeatKeptDuringMatch | OnlyBeforeTheMatch => ErrorCode::MatchStarted,
            NotHost => ErrorCode::NotHost,
            SpectatorsWatch => ErrorCode::Spectator,
            NotForARoom => ErrorCode::BadRequest,
            SeatsEmpty => ErrorCode::SeatsEmpty,
            PlayersNotReady => ErrorCode::PlayersNotReady,
            BadConfig(_) => ErrorCode::BadConfig,
            BadChat => ErrorCode::BadChat,
            SpectatorsChatIsForSpectators => ErrorCode::NotSpectator,
            SpectatorsChatBusy => ErrorCode::RateLimited,
            NoTeam => ErrorCode::NoTeam,
            TeamChatClosed => ErrorCode::TeamChatClosed,
            NoHint => ErrorCode::NoHint,
            MatchNotOver => ErrorCode::MatchNotOver,
            AudienceFull => ErrorCode::RoomFull,
        }
    }

    /// The game's name for the rule, for an action the game refused.
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            Refusal::Rule(rejection) => rejection.rule,
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_refusal_carries_the_games_code_rule_and_words() {
        let refusal = Refusal::Rule(Rejection {
            code: ErrorCode::IllegalAction,
            rule: Some("banish_needs_a_stain"),
            message: "Banish needs a stain.".into(),
        });
        assert_eq!(refusal.code(), ErrorCode::IllegalAction);
        assert_eq!(refusal.rule(), Some("banish_needs_a_stain"));
        assert_eq!(refusal.to_string(), "Banish needs a stain.");
        assert_eq!(Refusal::NotYourTurn.rule(), None);
    }
}
