//! Every refusal the server sends, by one stable code: HTTP error bodies ([`crate::ApiError`]),
//! WebSocket `error` frames, and `reject`s of actions.
//!
//! A client matches on the code and shows the message (a sentence written for people). A
//! game's own reason for refusing an action is not a code of its own: the action is refused
//! with [`ErrorCode::IllegalAction`], the game's name for the rule travels beside it (`rule`,
//! such as `not_adjacent`), and the sentence says what was wrong. `docs/protocol.md` lists
//! every code in one table; a test holds the table and this enum to each other.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Declares the enum and the list of its variants with their wire names at once, so neither
/// can be forgotten when a code is added.
macro_rules! error_codes {
    ($($(#[doc = $doc:literal])* $variant:ident = $wire:literal,)*) => {
        /// Why the server refused something. Serialised as a snake_case string.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
        #[serde(rename_all = "snake_case")]
        pub enum ErrorCode {
            $($(#[doc = $doc])* $variant,)*
        }

        impl ErrorCode {
            /// Every code, in declaration order.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The code as it is written on the wire.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $wire,)*
                }
            }
        }
    };
}

error_codes! {
    // Requests and messages that cannot be read.
    /// The request or message is not valid for this endpoint or this moment.
    BadRequest = "bad_request",
    /// A WebSocket frame is not a protocol message (not JSON, or an unknown `type`).
    Malformed = "malformed",
    /// A binary WebSocket frame: the protocol is JSON text.
    BinaryFrame = "binary_frame",
    /// A WebSocket message over `--max-frame-bytes`.
    FrameTooLarge = "frame_too_large",
    /// There is no such HTTP endpoint or file.
    NotFound = "not_found",

    // Identity.
    /// The first WebSocket message must be `hello`.
    HelloFirst = "hello_first",
    /// A second `hello` on the same connection.
    AlreadyGreeted = "already_greeted",
    /// The token is not known here (a wiped database): start afresh with a name.
    UnknownToken = "unknown_token",
    /// A display name must be 1 to 32 readable characters.
    BadName = "bad_name",

    // Limits.
    /// Over a rate or quota: wait and send it again (an `act` so refused was not applied).
    RateLimited = "rate_limited",
    /// That guest already hosts `--max-rooms-per-guest` open rooms.
    TooManyRooms = "too_many_rooms",
    /// The server holds `--max-rooms` open rooms.
    ServerFull = "server_full",
    /// The room has `--max-spectators-per-room` spectators already.
    RoomFull = "room_full",
    /// WebSockets are not accepted from pages of that origin.
    ForbiddenOrigin = "forbidden_origin",
    /// The server is shutting down or its database does not answer; try again shortly.
    Unavailable = "unavailable",
    /// Something failed on the server; the details are in its log.
    Internal = "internal",

    // Games, rooms and matches.
    /// There is no game with that id.
    UnknownGame = "unknown_game",
    /// The game refused an option or the seat count; the message names the option.
    BadConfig = "bad_config",
    /// No open room has that code.
    RoomNotFound = "room_not_found",
    /// The room is served by another server of the cluster: open the socket as
    /// `/ws?room=CODE`, which reaches it.
    RoomElsewhere = "room_elsewhere",
    /// No finished match has that id.
    MatchNotFound = "match_not_found",
    /// Join a room before sending room messages.
    NotInRoom = "not_in_room",
    /// Only the host may do that.
    NotHost = "not_host",
    /// There is no seat with that number at this table.
    NoSuchSeat = "no_such_seat",
    /// Someone else holds that seat.
    SeatTaken = "seat_taken",
    /// That needs a seat: spectators cannot act or write in the players' chat.
    NotSeated = "not_seated",
    /// A spectator connection cannot take a seat: join the room as a player.
    Spectator = "spectator",
    /// Players cannot write in the spectators' chat.
    NotSpectator = "not_spectator",
    /// Every seat needs a player or a bot before the match can start.
    SeatsEmpty = "seats_empty",
    /// Every seated player must be ready before the match can start.
    PlayersNotReady = "players_not_ready",
    /// Seats cannot change once the match has started.
    MatchStarted = "match_started",
    /// No match is being played in this room.
    NoMatch = "no_match",
    /// The match is over.
    MatchOver = "match_over",
    /// A rematch can only be asked for once the match is over.
    MatchNotOver = "match_not_over",
    /// You have nothing to decide now (or have already committed your choice).
    NotYourTurn = "not_your_turn",
    /// The action is not one of this game's actions (its JSON does not fit, or has a field the
    /// action does not have).
    MalformedAction = "malformed_action",
    /// The game's rules refuse the action now; `rule` names the rule, `message` explains it.
    IllegalAction = "illegal_action",
    /// That `seq` is at or below the last one answered, and its answer is not kept (too old,
    /// or never sent); number new acts higher.
    StaleSeq = "stale_seq",
    /// The action could not be saved, so it was not played: send it again, under a new `seq`
    /// (the refused one counts as answered).
    StorageUnavailable = "storage_unavailable",
    /// Hints are for seated players in a match.
    NoHint = "no_hint",

    // Chat.
    /// A chat line is 1 to 500 characters.
    BadChat = "bad_chat",
    /// The game has no teams, or you have no seat.
    NoTeam = "no_team",
    /// Team talk is allowed only during the rules' consultation windows.
    TeamChatClosed = "team_chat_closed",
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn every_code_is_written_on_the_wire_as_its_snake_case_name() {
        for code in ErrorCode::ALL {
            let json = serde_json::to_string(code).unwrap();
            assert_eq!(json, format!("\"{}\"", code.as_str()));
            let back: ErrorCode = serde_json::from_str(&json).unwrap();
            assert_eq!(back, *code);
        }
    }

    /// The codes in the "Error codes" table of docs/protocol.md.
    fn documented_codes() -> Vec<String> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/protocol.md");
        let docs = std::fs::read_to_string(path).expect("docs/protocol.md is readable");
        let section = docs
            .split("### Error codes")
            .nth(1)
            .expect("docs/protocol.md has an `### Error codes` section");
        let section = section.split("\n#").next().unwrap_or(section);
        section
            .lines()
            .filter_map(|line| line.strip_prefix("| `"))
            .filter_map(|rest| rest.split('`').next())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn the_documented_error_codes_are_exactly_the_enum() {
        let documented = documented_codes();
        let unique: BTreeSet<&str> = documented.iter().map(String::as_str).collect();
        assert_eq!(
            unique.len(),
            documented.len(),
            "a code is listed twice in docs/protocol.md"
        );
        let variants: BTreeSet<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        let undocumented: Vec<_> = variants.difference(&unique).collect();
        let unknown: Vec<_> = unique.difference(&variants).collect();
        assert!(
            undocumented.is_empty() && unknown.is_empty(),
            "docs/protocol.md does not list {undocumented:?}; it lists codes that are not \
             ErrorCode variants: {unknown:?}"
        );
    }
}
