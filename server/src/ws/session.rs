//! What the client says and what it is answered: hello, joining a room, handing acts and other
//! messages to the room, and the rate limit on every frame.

use std::net::IpAddr;
use tokio::sync::mpsc;

use pandemonium_protocol::{ClientMsg, ErrorCode, JoinRole, RawAct, RoomCode, ServerMsg};

use super::closing::CLOSE_POLICY;
use crate::app::AppState;
use crate::config::Limits;
use crate::error::AppError;
use crate::http::Peer;
use crate::identity::{self, Player};
use crate::limiter::{Rate, TokenBucket};
use crate::resumption::{self, Found};
use crate::room::{ConnId, Outgoing, Patches, RoomCmd, RoomHandle};

/// What the server knows of one connection's client, and the answers it gives it.
pub(super) struct Connection {
    id: ConnId,
    pub(super) state: AppState,
    pub(super) limits: Limits,
    pub(super) player: Option<Player>,
    /// Whether the client said it applies `patch` frames, and which operations.
    patches: Patches,
    /// Counts this person as online (the lobby's presence line) while the connection lives.
    here: Option<crate::online::Here>,
    pub(super) room: Option<(RoomCode, RoomHandle)>,
    pub(super) outbox: Option<mpsc::Receiver<Outgoing>>,
    bucket: TokenBucket,
    /// Refusals for going over the rate: a client that keeps going after being told empties
    /// this too, and is closed.
    patience: TokenBucket,
    peer: Peer,
    client: IpAddr,
}

/// What to do about a message from the client: answer it, or close.
pub(super) enum Reply {
    Send(String),
    Close(u16, &'static str),
}

fn rate_limited() -> String {
    error(ErrorCode::RateLimited, "Too many messages; slow down.")
}

fn error(code: ErrorCode, message: &str) -> String {
    serde_json::to_string(&ServerMsg::Error {
        code,
        message: message.into(),
    })
    .expect("serialises")
}

impl Connection {
    pub(super) fn new(
        id: ConnId,
        state: AppState,
        limits: Limits,
        peer: Peer,
        client: IpAddr,
    ) -> Connection {
        Connection {
            id,
            bucket: TokenBucket::full(Rate::per_second(limits.rate_per_second, limits.rate_burst)),
            patience: TokenBucket::full(Rate::per_second(
                limits.rate_per_second.div_ceil(2),
                limits.rate_burst,
            )),
            limits,
            state,
            player: None,
            patches: Patches::Off,
            here: None,
            room: None,
            outbox: None,
            peer,
            client,
        }
    }

    /// Takes a token for one frame from the client; `None` when there was one, otherwise what
    /// to answer: `rate_limited`, and the door once the client has ignored that for too long.
    fn over_rate(&mut self, refusal: impl FnOnce() -> String) -> Option<Vec<Reply>> {
        if self.bucket.take() {
            return None;
        }
        if self.patience.take() {
            return Some(vec![Reply::Send(refusal())]);
        }
        // Sustained flooding: tell, then close.
        Some(vec![
            Reply::Send(rate_limited()),
            Reply::Close(CLOSE_POLICY, "rate limit exceeded"),
        ])
    }

    /// A binary frame: the protocol is JSON text.
    pub(super) fn binary(&mut self) -> Vec<Reply> {
        self.over_rate(rate_limited).unwrap_or_else(|| {
            vec![Reply::Send(error(
                ErrorCode::BinaryFrame,
                "Send JSON text frames.",
            ))]
        })
    }

    /// A ping or a pong: answered by the library, counted here.
    pub(super) fn control(&mut self) -> Vec<Reply> {
        self.over_rate(rate_limited).unwrap_or_default()
    }

    /// Handles one text frame from the client.
    pub(super) async fn receive(&mut self, text: &str) -> Vec<Reply> {
        let limited = || {
            // An action over the rate is refused like any other refused action: with its seq,
            // so a fast client knows which ones to send again.
            match RawAct::from_json(text) {
                Some(RawAct { seq, .. }) => serde_json::to_string(&ServerMsg::Reject {
                    seq,
                    code: ErrorCode::RateLimited,
                    rule: None,
                    message: "Too many messages; slow down and send it again.".into(),
                })
                .expect("serialises"),
                _ => rate_limited(),
            }
        };
        if let Some(replies) = self.over_rate(limited) {
            return replies;
        }
        if text.len() > self.limits.max_frame_bytes {
            return vec![Reply::Send(error(
                ErrorCode::FrameTooLarge,
                "That message is too large to be a move.",
            ))];
        }
        // An action (nearly every message in play) goes to the room as the text it came in,
        // which the game reads into its own type: read as a `ClientMsg`, it would become a
        // JSON tree first, and the room would write it back to text for the game.
        if self.player.is_some()
            && let Some(act) = RawAct::from_json(text)
        {
            return self.act(act.seq, act.action.get().to_owned()).await;
        }
        // Every other message is rare (once a connection, or a few a match) and its future is
        // boxed where it is awaited: inline, the largest of them (a hello's, through the
        // store) would size every connection's task for its whole life, idle or not.
        let msg = match serde_json::from_str::<ClientMsg>(text) {
            Ok(msg) => msg,
            Err(e) => {
                return vec![Reply::Send(error(
                    ErrorCode::Malformed,
                    &format!("That message could not be read: {e}"),
                ))];
            }
        };
        match msg {
            ClientMsg::Hello {
                token,
                name,
                patches,
                products,
            } => {
                let replies = Box::pin(self.hello(token, name)).await;
                if self.player.is_some() {
                    self.patches = Patches::asked(patches, products);
                }
                replies
            }
            _ if self.player.is_none() => vec![Reply::Send(error(
                ErrorCode::HelloFirst,
                "Say hello (with your token) before anything else.",
            ))],
            ClientMsg::Join {
                room,
                role,
                version,
            } => Box::pin(self.join(room, role, version)).await,
            msg => Box::pin(self.forward_to_room(msg)).await,
        }
    }

    async fn hello(&mut self, token: Option<String>, name: Option<String>) -> Vec<Reply> {
        if self.player.is_some() {
            return vec![Reply::Send(error(
                ErrorCode::AlreadyGreeted,
                "You have said hello already.",
            ))];
        }
        let store = &self.state.store;
        let result: Result<(Player, Option<String>), AppError> = match token {
            Some(token) => identity::authenticate(store, &token)
                .await
                .map(|p| (p, None)),
            None => match self.state.quotas.guest(self.client) {
                Ok(()) => {
                    let name = name.unwrap_or_default();
                    identity::create_guest(store, &name)
                        .await
                        .map(|(p, t)| (p, Some(t)))
                }
                Err(limited) => Err(limited),
            },
        };
        match result {
            Ok((player, token)) => {
                let welcome = ServerMsg::Welcome {
                    player_id: player.id.clone(),
                    name: player.name.clone(),
                    token,
                };
                self.here = Some(self.state.lobby.online().arrive(&player.id));
                tracing::Span::current().record("guest", player.id.as_str());
                self.player = Some(player);
                self.peer.greeted();
                vec![Reply::Send(
                    serde_json::to_string(&welcome).expect("serialises"),
                )]
            }
            Err(e) => {
                if let AppError::Store(store) = &e {
                    tracing::error!(error = %store, "hello failed in the store");
                }
                vec![Reply::Send(error(e.code(), &e.to_string()))]
            }
        }
    }

    async fn join(&mut self, code: RoomCode, role: JoinRole, version: Option<u64>) -> Vec<Reply> {
        let player = self.player.clone().expect("greeted");
        let code = RoomCode::parse(code.as_str());
        if let Some(code) = &code
            && let Some(replies) = Box::pin(self.bring_here(code)).await
        {
            return replies;
        }
        let found = code.and_then(|code| Some((self.state.lobby.room(&code)?, code)));
        // Every join counts against the address's lookups, found or not, so guessing codes is
        // slow; coming back to a seat you hold is no guess, and a neighbour guessing on the
        // same address must not keep you from your own table.
        let home = found
            .as_ref()
            .is_some_and(|(room, _)| room.has_seat_for(&player.id));
        if !home && let Err(limited) = self.state.quotas.lookup(self.client) {
            return vec![Reply::Send(error(limited.code(), &limited.to_string()))];
        }
        let Some((handle, code)) = found else {
            return vec![Reply::Send(error(
                ErrorCode::RoomNotFound,
                "No room has that code.",
            ))];
        };
        self.leave_room().await;
        let (tx, rx) = mpsc::channel(self.limits.outbox_capacity());
        let cmd = RoomCmd::Join {
            conn: self.id,
            player,
            role,
            version,
            patches: self.patches,
            outbox: tx,
        };
        if handle.tx.send(cmd).await.is_err() {
            return vec![Reply::Send(error(
                ErrorCode::RoomNotFound,
                "That room has closed.",
            ))];
        }
        self.room = Some((code, handle));
        self.outbox = Some(rx);
        Vec::new()
    }

    /// In cluster mode, a room not open here is looked for: taken over if its node stopped,
    /// or, if another node holds it, the client is told where (a socket opened for the room,
    /// `/ws?room=CODE`, is passed on to it before the join). `None`: carry on with the join.
    async fn bring_here(&mut self, code: &RoomCode) -> Option<Vec<Reply>> {
        let state = &self.state;
        state.store.node()?;
        match resumption::find_room(&state.lobby, &state.store, &state.takeovers, code).await {
            Ok(Found::Here | Found::Nowhere) => None,
            Ok(Found::Elsewhere { .. }) => Some(vec![Reply::Send(error(
                ErrorCode::RoomElsewhere,
                "That room is served by another server: connect to /ws?room=CODE to reach it.",
            ))]),
            Err(store) => {
                tracing::warn!(error = %store, "could not look for a room in the cluster");
                Some(vec![Reply::Send(error(
                    ErrorCode::Unavailable,
                    "The server cannot reach its database; try again in a moment.",
                ))])
            }
        }
    }

    async fn forward_to_room(&mut self, msg: ClientMsg) -> Vec<Reply> {
        match msg {
            ClientMsg::Act { seq, action } => self.act(seq, action.to_string()).await,
            msg => {
                let leaving = matches!(msg, ClientMsg::Leave);
                let cmd = RoomCmd::Client { conn: self.id, msg };
                self.hand_to_room(cmd, None, leaving).await
            }
        }
    }

    /// An action, as the JSON text the room's game reads.
    async fn act(&mut self, seq: u64, action: String) -> Vec<Reply> {
        let cmd = RoomCmd::Act {
            conn: self.id,
            seq,
            action,
        };
        self.hand_to_room(cmd, Some(seq), false).await
    }

    /// Hands `cmd` to the room; an action's `seq` is answered here if there is no room to
    /// take it.
    async fn hand_to_room(&mut self, cmd: RoomCmd, seq: Option<u64>, leaving: bool) -> Vec<Reply> {
        let Some((_, handle)) = &self.room else {
            if let Some(seq) = seq {
                // Never drop an action silently: every seq gets an answer.
                let reject = ServerMsg::Reject {
                    seq,
                    code: ErrorCode::NotInRoom,
                    rule: None,
                    message: "Join a room before acting.".into(),
                };
                return vec![Reply::Send(
                    serde_json::to_string(&reject).expect("serialises"),
                )];
            }
            return vec![Reply::Send(error(
                ErrorCode::NotInRoom,
                "Join a room first.",
            ))];
        };
        if !Self::send_to_room(handle, cmd).await {
            self.room = None;
            self.outbox = None;
            let reply = match seq {
                // Never drop an action silently: its seq gets an answer.
                Some(seq) => serde_json::to_string(&ServerMsg::Reject {
                    seq,
                    code: ErrorCode::RoomNotFound,
                    rule: None,
                    message: "That room has closed.".into(),
                })
                .expect("serialises"),
                None => error(ErrorCode::RoomNotFound, "That room has closed."),
            };
            return vec![Reply::Send(reply)];
        }
        if leaving {
            self.room = None;
            self.outbox = None;
        }
        Vec::new()
    }

    /// Queues `cmd` in the room's mailbox, waiting only if it is full; `false` if the room is
    /// gone. Nearly always there is space: the wait's future (the command and a place in the
    /// semaphore's queue) is boxed, so it does not size every connection's task.
    async fn send_to_room(handle: &RoomHandle, cmd: RoomCmd) -> bool {
        match handle.tx.try_send(cmd) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(cmd)) => {
                Box::pin(handle.tx.send(cmd)).await.is_ok()
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// The room turned the join down (and said why): this connection is in no room.
    pub(super) fn refused_by_room(&mut self) {
        self.room = None;
        self.outbox = None;
    }

    pub(super) async fn leave_room(&mut self) {
        if let Some((_, handle)) = self.room.take() {
            let _ = handle.tx.send(RoomCmd::Leave { conn: self.id }).await;
        }
        self.outbox = None;
    }
}
