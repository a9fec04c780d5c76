//! WebSocket messages. One connection speaks for one person and is in at most one room.
//!
//! The first client message is always [`ClientMsg::Hello`]: it presents the identity token
//! the browser keeps (or asks for a new identity). Every `Act` carries a client sequence
//! number that the server answers with exactly one `Ack` or `Reject`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::game::Outcome;
use crate::ids::{RoomCode, Seat};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum ClientMsg {
    /// Present a saved identity token, or omit it to be given a new identity.
    Hello {
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        name: Option<String>,
        /// This client applies `patch` frames: after a full `state`, it is sent each new
        /// version as the difference from the previous one. Off unless asked for.
        #[serde(default)]
        #[ts(optional)]
        patches: Option<bool>,
        /// With `patches`: this client also reads the `products` operation, which writes a new
        /// array of objects (a list of legal actions) in far fewer bytes. Without it, patches
        /// hold only JSON Patch's `add`, `remove` and `replace`.
        #[serde(default)]
        #[ts(optional)]
        products: Option<bool>,
    },
    /// Enter a room. `version` is the last state version this client saw, if it is resuming.
    Join {
        room: RoomCode,
        #[serde(default)]
        role: JoinRole,
        #[serde(default)]
        #[ts(type = "number | null")]
        version: Option<u64>,
    },
    /// Leave the current room (a seated player's seat is freed before the match starts and
    /// handed to a bot after it).
    Leave,
    TakeSeat {
        seat: Seat,
    },
    LeaveSeat,
    /// Host only: put a bot in an empty seat, or take it out.
    SetBot {
        seat: Seat,
        bot: bool,
        /// How quickly the bot acts; unchanged when omitted.
        #[serde(default)]
        #[ts(optional)]
        pace: Option<BotPace>,
    },
    Ready {
        ready: bool,
    },
    /// Host only, once every seat is filled and every person is ready.
    Start,
    /// A game action. `action` is the game's own `Action` type as JSON.
    Act {
        #[ts(type = "number")]
        seq: u64,
        #[ts(type = "unknown")]
        action: serde_json::Value,
    },
    Chat {
        channel: ChatChannel,
        text: String,
    },
    /// Ask the game's bot what it would do in your seat now ("is there a move?"). It sees only
    /// your view, as a bot in your seat would.
    Hint,
    /// Seated players, once the match is over: play again at this table (`accept: false`
    /// withdraws). When every seated person has accepted (bots always do), the same room starts
    /// a new match with the same seats and options.
    Rematch {
        /// Omitted: accept.
        #[serde(default)]
        #[ts(optional)]
        accept: Option<bool>,
    },
}

/// An `act` message as it came: its `seq`, and its action as the JSON text it was sent in,
/// for the game to read into its own type. Read as a [`ClientMsg`], the action would become a
/// JSON tree first, and serde's reader of a tagged enum copies the whole message into a
/// buffer of its own to find the tag before it reads the variant from that copy.
#[derive(Debug, Deserialize)]
pub struct RawAct<'a> {
    #[serde(rename = "type", borrow)]
    kind: std::borrow::Cow<'a, str>,
    pub seq: u64,
    #[serde(borrow)]
    pub action: &'a serde_json::value::RawValue,
}

impl<'a> RawAct<'a> {
    /// Reads `text` as an `act`: `None` if it is any other message, or an `act` a plain
    /// struct cannot read, which the derived reader of [`ClientMsg`] then reads (or refuses)
    /// whole.
    pub fn from_json(text: &'a str) -> Option<RawAct<'a>> {
        serde_json::from_str::<RawAct>(text)
            .ok()
            .filter(|act| act.kind == "act")
    }
}

/// How quickly a bot acts, from the server's base bot delay: a person can race slow bots in a
/// real-time game, and watch fast ones.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum BotPace {
    Slow,
    #[default]
    Normal,
    Fast,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum JoinRole {
    /// Reclaim your seat if you have one, otherwise watch until you take a seat.
    #[default]
    Player,
    Spectator,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ChatChannel {
    /// Everyone seated.
    Players,
    /// Spectators among themselves; players do not see it.
    Spectators,
    /// Your team, only while the rules open a consultation window.
    Team,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum ServerMsg {
    /// Answer to `Hello`. `token` is present only when a new identity was issued: the
    /// client must keep it, since the server stores only its hash.
    Welcome {
        player_id: String,
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
    },
    /// The room around the game: seats, presence, status. Sent on join and on every change.
    Room(RoomSnapshot),
    /// The game as this connection may see it.
    State(GameState),
    /// The game at `version`, as the changes to the state this connection was sent at `base`
    /// (only to connections that said `hello {patches: true}`). `ops` apply, in order, to the
    /// previous state's body: `{view, to_act, legal, deadline_ms, outcome}`.
    Patch {
        #[ts(type = "number")]
        version: u64,
        #[ts(type = "number")]
        base: u64,
        ops: Vec<crate::patch::PatchOp>,
    },
    /// Action `seq` was accepted and is in the log as of `version`.
    Ack {
        #[ts(type = "number")]
        seq: u64,
        #[ts(type = "number")]
        version: u64,
    },
    /// Action `seq` was refused; nothing changed.
    Reject {
        #[ts(type = "number")]
        seq: u64,
        code: crate::ErrorCode,
        /// With `illegal_action`: the game's own name for the rule the action broke (such as
        /// `not_adjacent`), for clients that explain it in their own words.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        rule: Option<String>,
        message: String,
    },
    Chat(ChatLine),
    /// On join: the room's recent chat (oldest first) that this connection may read.
    ChatHistory {
        lines: Vec<ChatLine>,
    },
    /// Answer to `Hint`: the action the bot would take, or none when you have nothing to do.
    Hint {
        #[ts(type = "number")]
        version: u64,
        #[ts(type = "unknown")]
        action: Option<serde_json::Value>,
    },
    /// Anything else that went wrong for this connection alone.
    Error {
        code: crate::ErrorCode,
        message: String,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RoomSnapshot {
    pub code: RoomCode,
    pub game: String,
    #[ts(type = "Record<string, unknown>")]
    pub options: serde_json::Value,
    pub seats: Vec<SeatInfo>,
    pub host: Option<String>,
    pub status: RoomStatus,
    pub spectators: u32,
    pub public: bool,
    /// Your seat in this room, if you hold one.
    pub you: Option<Seat>,
    /// The highest act `seq` the room has answered for your seat: a client resuming in the
    /// seat numbers its new acts above it (a resent act at or below it gets its original
    /// answer and is not applied again).
    #[ts(type = "number | null")]
    pub last_seq: Option<u64>,
    /// The match's id once it has started (for history and replay links).
    pub match_id: Option<String>,
    /// SHA-256 of the match's seed, published at the start (the seed itself at the end).
    pub seed_hash: Option<String>,
    /// Whether your team's chat window is open now.
    pub team_chat_open: bool,
    /// Seconds a player may take for one decision, if the room has a clock.
    pub turn_seconds: Option<u32>,
    /// Seconds a player who drops keeps their seat before a bot plays it (before the match:
    /// before the seat is freed).
    pub grace_seconds: u32,
    /// Once the match is over: the seats that have accepted a rematch (bot seats always have).
    pub rematch: Vec<Seat>,
    /// The match this room played before the current one, when the current one is a rematch.
    pub previous_match: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct SeatInfo {
    pub seat: Seat,
    /// The person holding the seat, if any.
    pub player: Option<SeatPlayer>,
    pub presence: Presence,
    pub ready: bool,
    /// Team number in team games.
    pub team: Option<u8>,
    /// A bot seat's pace.
    pub pace: Option<BotPace>,
    /// While the seat's player is away (`reconnecting`): milliseconds left before a bot takes
    /// the seat over (before the match: before the seat is freed).
    #[ts(type = "number | null")]
    pub away_ms: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct SeatPlayer {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Presence {
    Empty,
    Online,
    /// The player dropped; their seat is kept until the grace period ends.
    Reconnecting,
    /// A bot plays this seat (from the start, or for a player who is away).
    Bot,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RoomStatus {
    Waiting,
    Playing,
    Finished,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct GameState {
    /// Increases by one with every accepted action.
    #[ts(type = "number")]
    pub version: u64,
    /// The game's `View` for this connection. Actions themselves are never echoed to other
    /// seats (a secret discard is an action); what a seat may know of them is in its view.
    #[ts(type = "unknown")]
    pub view: serde_json::Value,
    /// Seats that may act now (several at simultaneous steps).
    pub to_act: Vec<Seat>,
    /// Your legal actions now (empty when it is not your move or you are watching).
    #[ts(type = "Array<unknown>")]
    pub legal: Vec<serde_json::Value>,
    /// Milliseconds until the clock acts for whoever has not, if a clock runs.
    #[ts(type = "number | null")]
    pub deadline_ms: Option<u64>,
    pub outcome: Option<Outcome>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ChatLine {
    /// Numbers the room's lines in order, so a client that hears a line twice (live, then in
    /// the history after a reconnect) keeps it once.
    #[ts(type = "number")]
    pub id: u64,
    pub channel: ChatChannel,
    pub from: String,
    pub text: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the derived reader makes of `text`: the message, or that it is an error.
    fn derived(text: &str) -> Option<ClientMsg> {
        serde_json::from_str(text).ok()
    }

    /// The `act` the derived reader makes of `text`, if that is what it reads.
    fn derived_act(text: &str) -> Option<(u64, serde_json::Value)> {
        match derived(text)? {
            ClientMsg::Act { seq, action } => Some((seq, action)),
            _ => None,
        }
    }

    #[test]
    fn a_message_reads_as_the_derived_reader_reads_it() {
        let texts = [
            r#"{"type":"act","seq":3,"action":{"type":"public_discard","card":"7S"}}"#,
            r#"{"seq":3,"action":null,"type":"act"}"#,
            r#"{"type":"act","seq":3,"action":[1,{"a":"b"}],"extra":true}"#,
            r#"{"type":"\u0061ct","seq":4,"action":1}"#,
            r#"{"type":"act","seq":-1,"action":1}"#,
            r#"{"type":"act","seq":1}"#,
            r#"{"type":"act","action":{}}"#,
            r#"{"type":"act","seq":1,"action":{},"seq":2}"#,
            r#"{"type":"hello","seq":1,"action":{}}"#,
            r#"{"type":"hello","token":"t"}"#,
            r#"{"type":"chat","channel":"players","text":"hi"}"#,
            r#"{"type":"leave"}"#,
            r#"{"type":"acts","seq":1,"action":{}}"#,
            r#"{"type":"act","seq":1,"action":{}"#,
            r#"[1,2]"#,
            "",
        ];
        // An act read as a plain struct is the act the derived reader reads, and a text the
        // struct does not take is left to the derived reader, which reads no act from it.
        for text in texts {
            let raw = RawAct::from_json(text).map(|act| {
                let action = serde_json::from_str(act.action.get()).expect("raw JSON reads");
                (act.seq, action)
            });
            assert_eq!(raw, derived_act(text), "{text}");
        }
        assert!(matches!(
            RawAct::from_json(r#"{"type":"act","seq":9,"action":{"x":1}}"#),
            Some(RawAct { seq: 9, .. })
        ));
    }
}
