//! One WebSocket connection: handshake, parsing at the edge, rate limiting, and forwarding
//! between the socket and the room the person is in.
//!
//! The task owns the socket. It writes its own replies (welcome, errors) directly and forwards
//! the room's frames from a bounded outbox; when the room drops that outbox (the client was
//! too slow, or the room closed) the socket is closed so the client reconnects and resyncs.

use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

use pandemonium_protocol::{ClientMsg, JoinRole, RoomCode, ServerMsg};

use crate::app::AppState;
use crate::config::Limits;
use crate::error::AppError;
use crate::identity::{self, Player};
use crate::room::{ConnId, Outgoing, RoomCmd, RoomHandle};

/// Policy violation: the close code for flooding.
const CLOSE_POLICY: u16 = 1008;
/// Try again later: the close code for a client dropped for being too slow.
const CLOSE_TRY_AGAIN: u16 = 1013;
const CLOSE_NORMAL: u16 = 1000;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

pub async fn upgrade(ws: WebSocketUpgrade, State(state): State<AppState>) -> Response {
    let limits = state.config.limits.clone();
    ws
        // Small buffers: an idle connection should cost a few KiB, not tungstenite's ~135 KiB
        // of defaults. Messages are small JSON; a larger one just takes another read.
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(256 * 1024)
        // The hard cap sits above the protocol's limit so that an oversized message gets a
        // typed `frame_too_large` error instead of a dropped socket.
        .max_message_size(limits.max_frame_bytes * 2)
        .max_frame_size(limits.max_frame_bytes * 2)
        .on_upgrade(move |socket| serve(socket, state, limits))
}

struct Connection {
    id: ConnId,
    state: AppState,
    limits: Limits,
    player: Option<Player>,
    room: Option<(RoomCode, RoomHandle)>,
    outbox: Option<mpsc::Receiver<Outgoing>>,
    bucket: TokenBucket,
}

enum Flow {
    Continue,
    Close(u16, &'static str),
}

async fn serve(socket: WebSocket, state: AppState, limits: Limits) {
    state.metrics.connections.fetch_add(1, Ordering::Relaxed);
    let (mut sink, mut stream) = socket.split();
    let mut conn = Connection {
        id: NEXT_CONN.fetch_add(1, Ordering::Relaxed),
        bucket: TokenBucket::new(limits.rate_burst, limits.rate_per_second),
        limits,
        state: state.clone(),
        player: None,
        room: None,
        outbox: None,
    };
    let mut shutdown = state.shutdown.clone();
    let handshake_deadline = Instant::now() + Duration::from_secs(conn.limits.handshake_seconds);
    let idle = Duration::from_secs(conn.limits.idle_seconds);
    let mut last_heard = Instant::now();
    let mut ping = tokio::time::interval(idle / 3);
    ping.tick().await;

    let close: (u16, &'static str) = loop {
        tokio::select! {
            incoming = stream.next() => {
                let Some(Ok(message)) = incoming else { break (CLOSE_NORMAL, "") };
                last_heard = Instant::now();
                let text = match message {
                    Message::Text(text) => text,
                    Message::Binary(_) => {
                        let _ = send(&mut sink, &error("binary_frame", "Send JSON text frames.")).await;
                        continue;
                    }
                    Message::Close(_) => break (CLOSE_NORMAL, ""),
                    Message::Ping(_) | Message::Pong(_) => continue,
                };
                let replies = conn.receive(text.as_str()).await;
                let mut flow = Flow::Continue;
                for reply in replies {
                    match reply {
                        Reply::Send(text) => {
                            if send(&mut sink, &text).await.is_err() {
                                flow = Flow::Close(CLOSE_NORMAL, "");
                            }
                        }
                        Reply::Close(code, reason) => flow = Flow::Close(code, reason),
                    }
                }
                if let Flow::Close(code, reason) = flow {
                    break (code, reason);
                }
            }
            outgoing = recv_outbox(&mut conn.outbox) => {
                match outgoing {
                    Some(Outgoing::Frame(frame)) => {
                        if sink.send(Message::Text(frame)).await.is_err() {
                            break (CLOSE_NORMAL, "");
                        }
                    }
                    Some(Outgoing::Close(code, reason)) => break (code, reason),
                    // The room let go of us: too slow, or the room is gone.
                    None => {
                        conn.outbox = None;
                        conn.room = None;
                        break (CLOSE_TRY_AGAIN, "fell behind the room; reconnect to resync");
                    }
                }
            }
            _ = ping.tick() => {
                if conn.player.is_none() && Instant::now() >= handshake_deadline {
                    break (CLOSE_POLICY, "no hello in time");
                }
                if last_heard.elapsed() >= idle {
                    break (CLOSE_NORMAL, "idle");
                }
                if sink.send(Message::Ping(Default::default())).await.is_err() {
                    break (CLOSE_NORMAL, "");
                }
            }
            _ = tokio::time::sleep_until(handshake_deadline.into()), if conn.player.is_none() => {
                break (CLOSE_POLICY, "no hello in time");
            }
            _ = shutdown.changed() => {
                break (1012, "the server is restarting; reconnect in a moment");
            }
        }
    };
    conn.leave_room().await;
    let _ = sink
        .send(Message::Close(Some(CloseFrame {
            code: close.0,
            reason: close.1.into(),
        })))
        .await;
    // Finish the closing handshake: read (and discard) until the client's Close arrives.
    // Dropping the socket with unread input would reset the connection, and the client could
    // lose the close frame and the error sent just before it.
    let drain = async {
        while let Some(Ok(message)) = stream.next().await {
            if matches!(message, Message::Close(_)) {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), drain).await;
    let _ = sink.close().await;
    state.metrics.connections.fetch_sub(1, Ordering::Relaxed);
}

async fn recv_outbox(outbox: &mut Option<mpsc::Receiver<Outgoing>>) -> Option<Outgoing> {
    match outbox {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

async fn send(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    text: &str,
) -> Result<(), axum::Error> {
    sink.send(Message::Text(text.into())).await
}

enum Reply {
    Send(String),
    Close(u16, &'static str),
}

fn error(code: &str, message: &str) -> String {
    serde_json::to_string(&ServerMsg::Error {
        code: code.into(),
        message: message.into(),
    })
    .expect("serialises")
}

impl Connection {
    /// Handles one text frame from the client.
    async fn receive(&mut self, text: &str) -> Vec<Reply> {
        if !self.bucket.take() {
            // An error the client can show, then the door: flooding is not negotiable.
            return vec![
                Reply::Send(error("rate_limited", "Too many messages; slow down.")),
                Reply::Close(CLOSE_POLICY, "rate limit exceeded"),
            ];
        }
        if text.len() > self.limits.max_frame_bytes {
            return vec![Reply::Send(error(
                "frame_too_large",
                "That message is too large to be a move.",
            ))];
        }
        let msg: ClientMsg = match serde_json::from_str(text) {
            Ok(msg) => msg,
            Err(e) => {
                return vec![Reply::Send(error(
                    "malformed",
                    &format!("That message could not be read: {e}"),
                ))];
            }
        };
        match msg {
            ClientMsg::Hello { token, name } => self.hello(token, name).await,
            _ if self.player.is_none() => vec![Reply::Send(error(
                "hello_first",
                "Say hello (with your token) before anything else.",
            ))],
            ClientMsg::Join {
                room,
                role,
                version,
            } => self.join(room, role, version).await,
            msg => self.forward_to_room(msg).await,
        }
    }

    async fn hello(&mut self, token: Option<String>, name: Option<String>) -> Vec<Reply> {
        if self.player.is_some() {
            return vec![Reply::Send(error(
                "already_greeted",
                "You have said hello already.",
            ))];
        }
        let store = &self.state.store;
        let result: Result<(Player, Option<String>), AppError> = match token {
            Some(token) => identity::authenticate(store, &token)
                .await
                .map(|p| (p, None)),
            None => {
                let name = name.unwrap_or_default();
                identity::create_guest(store, &name)
                    .await
                    .map(|(p, t)| (p, Some(t)))
            }
        };
        match result {
            Ok((player, token)) => {
                let welcome = ServerMsg::Welcome {
                    player_id: player.id.clone(),
                    name: player.name.clone(),
                    token,
                };
                self.player = Some(player);
                vec![Reply::Send(
                    serde_json::to_string(&welcome).expect("serialises"),
                )]
            }
            Err(e) => vec![Reply::Send(error(e.code(), &e.to_string()))],
        }
    }

    async fn join(&mut self, code: RoomCode, role: JoinRole, version: Option<u64>) -> Vec<Reply> {
        let Some(code) = RoomCode::parse(code.as_str()) else {
            return vec![Reply::Send(error(
                "room_not_found",
                "No room has that code.",
            ))];
        };
        let Some(handle) = self.state.lobby.room(&code) else {
            return vec![Reply::Send(error(
                "room_not_found",
                "No room has that code.",
            ))];
        };
        self.leave_room().await;
        let (tx, rx) = mpsc::channel(self.limits.outbox);
        let player = self.player.clone().expect("greeted");
        let cmd = RoomCmd::Join {
            conn: self.id,
            player,
            role,
            version,
            outbox: tx,
        };
        if handle.tx.send(cmd).await.is_err() {
            return vec![Reply::Send(error(
                "room_not_found",
                "That room has closed.",
            ))];
        }
        self.room = Some((code, handle));
        self.outbox = Some(rx);
        Vec::new()
    }

    async fn forward_to_room(&mut self, msg: ClientMsg) -> Vec<Reply> {
        let Some((_, handle)) = &self.room else {
            if let ClientMsg::Act { seq, .. } = msg {
                // Never drop an action silently: every seq gets an answer.
                let reject = ServerMsg::Reject {
                    seq,
                    code: "not_in_room".into(),
                    message: "Join a room before acting.".into(),
                };
                return vec![Reply::Send(
                    serde_json::to_string(&reject).expect("serialises"),
                )];
            }
            return vec![Reply::Send(error("not_in_room", "Join a room first."))];
        };
        let leaving = matches!(msg, ClientMsg::Leave);
        let seq = match &msg {
            ClientMsg::Act { seq, .. } => Some(*seq),
            _ => None,
        };
        let cmd = RoomCmd::Client { conn: self.id, msg };
        if handle.tx.send(cmd).await.is_err() {
            self.room = None;
            self.outbox = None;
            let reply = match seq {
                // Never drop an action silently: its seq gets an answer.
                Some(seq) => serde_json::to_string(&ServerMsg::Reject {
                    seq,
                    code: "room_not_found".into(),
                    message: "That room has closed.".into(),
                })
                .expect("serialises"),
                None => error("room_not_found", "That room has closed."),
            };
            return vec![Reply::Send(reply)];
        }
        if leaving {
            self.room = None;
            self.outbox = None;
        }
        Vec::new()
    }

    async fn leave_room(&mut self) {
        if let Some((_, handle)) = self.room.take() {
            let _ = handle.tx.send(RoomCmd::Leave { conn: self.id }).await;
        }
        self.outbox = None;
    }
}

/// A token bucket: `burst` messages at once, refilled at `per_second`.
#[derive(Debug)]
struct TokenBucket {
    tokens: f64,
    burst: f64,
    per_second: f64,
    last: Instant,
}

impl TokenBucket {
    fn new(burst: u32, per_second: u32) -> Self {
        TokenBucket {
            tokens: burst as f64,
            burst: burst as f64,
            per_second: per_second as f64,
            last: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.per_second;
        self.tokens = (self.tokens + refill).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_bucket_allows_a_burst_then_refuses() {
        let mut bucket = TokenBucket::new(3, 1);
        assert!(bucket.take() && bucket.take() && bucket.take());
        assert!(
            !bucket.take(),
            "the fourth message in the same instant is one too many"
        );
    }
}
