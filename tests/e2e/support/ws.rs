//! A WebSocket client that speaks the protocol, with helpers to wait for a kind of message.

use futures_util::{SinkExt, StreamExt};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

use pandemonium_protocol::{
    ClientMsg, ErrorCode, GameState, JoinRole, PatchOp, RoomCode, RoomSnapshot, ServerMsg,
};

/// How long a test waits for a message before it fails.
pub const PATIENCE: Duration = Duration::from_secs(10);

#[derive(Debug)]
pub struct Client {
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    pub player_id: String,
    pub token: String,
    pub name: String,
    /// The last seq this client used; the next act goes above it.
    pub seq: u64,
    /// The last state this client received.
    pub state: Option<GameState>,
    pub room: Option<RoomSnapshot>,
    /// Whether this client asked for `patch` frames; each one it receives is applied to
    /// `state` and handed on as the `state` it makes, so tests read states either way.
    patches: bool,
    /// Whether it said it reads the `products` operation too.
    products: bool,
    /// How many patches it applied (and `products` operations among their operations), and
    /// the bytes of the state and patch frames it received.
    pub patches_applied: usize,
    pub products_applied: usize,
    pub state_bytes: usize,
}

/// How a connection ended, as the server said it.
#[derive(Debug, PartialEq, Eq)]
pub struct Closed {
    pub code: u16,
    pub reason: String,
}

impl Client {
    pub async fn connect_raw(port: u16) -> WebSocketStream<MaybeTlsStream<TcpStream>> {
        Self::connect_at(port, "/ws")
            .await
            .expect("the WebSocket upgrade succeeds")
    }

    async fn connect_at(
        port: u16,
        path: &str,
    ) -> Result<WebSocketStream<MaybeTlsStream<TcpStream>>, String> {
        let (socket, _) = connect_async(format!("ws://127.0.0.1:{port}{path}"))
            .await
            .map_err(|e| e.to_string())?;
        Ok(socket)
    }

    /// Connects again for room `room` with a saved token, asking for patches as the web client
    /// does; an upgrade or a hello that fails is an `Err` (the server may be away).
    pub async fn try_in_room(port: u16, room: &RoomCode, token: &str) -> Result<Client, String> {
        Self::try_hello_at(port, &room_path(room), Some(token), None, true, true).await
    }

    /// Connects as a new guest.
    pub async fn guest(port: u16, name: &str) -> Client {
        Self::hello(port, None, Some(name), false).await
    }

    /// Connects as a new guest that asks for `patch` frames, `products` included (as the web
    /// client does).
    pub async fn guest_taking_patches(port: u16, name: &str) -> Client {
        Self::hello(port, None, Some(name), true).await
    }

    /// Connects as a new guest that asks for `patch` frames of JSON Patch's operations only.
    pub async fn guest_taking_json_patches(port: u16, name: &str) -> Client {
        Self::hello_with(port, None, Some(name), true, false).await
    }

    /// Connects again with a saved token.
    pub async fn with_token(port: u16, token: &str) -> Client {
        Self::hello(port, Some(token), None, false).await
    }

    /// Connects again with a saved token, asking for `patch` frames.
    pub async fn with_token_taking_patches(port: u16, token: &str) -> Client {
        Self::hello(port, Some(token), None, true).await
    }

    async fn hello(port: u16, token: Option<&str>, name: Option<&str>, patches: bool) -> Client {
        Self::hello_with(port, token, name, patches, patches).await
    }

    async fn hello_with(
        port: u16,
        token: Option<&str>,
        name: Option<&str>,
        patches: bool,
        products: bool,
    ) -> Client {
        Self::try_hello_at(port, "/ws", token, name, patches, products)
            .await
            .expect("the WebSocket upgrade succeeds")
    }

    async fn try_hello_at(
        port: u16,
        path: &str,
        token: Option<&str>,
        name: Option<&str>,
        patches: bool,
        products: bool,
    ) -> Result<Client, String> {
        let mut socket = Self::connect_at(port, path).await?;
        let hello = ClientMsg::Hello {
            token: token.map(str::to_string),
            name: name.map(str::to_string),
            patches: patches.then_some(true),
            products: products.then_some(true),
        };
        socket
            .send(Message::Text(serde_json::to_string(&hello).unwrap().into()))
            .await
            .map_err(|e| e.to_string())?;
        let mut client = Client {
            socket,
            player_id: String::new(),
            token: token.unwrap_or_default().to_string(),
            name: String::new(),
            seq: 0,
            state: None,
            room: None,
            patches,
            products,
            patches_applied: 0,
            products_applied: 0,
            state_bytes: 0,
        };
        match client.try_next().await {
            Ok(ServerMsg::Welcome {
                player_id,
                name,
                token: issued,
            }) => {
                client.player_id = player_id;
                client.name = name;
                if let Some(issued) = issued {
                    client.token = issued;
                }
            }
            Ok(other) => panic!("expected a welcome, got {other:?}"),
            Err(closed) => return Err(format!("closed before the welcome: {closed:?}")),
        }
        Ok(client)
    }

    pub async fn send(&mut self, msg: &ClientMsg) {
        self.send_text(&serde_json::to_string(msg).unwrap()).await;
    }

    /// Sends `msg` unless the socket has failed (the server went away); says whether it went.
    pub async fn send_if_open(&mut self, msg: &ClientMsg) -> bool {
        let text = serde_json::to_string(msg).unwrap();
        self.socket.send(Message::Text(text.into())).await.is_ok()
    }

    pub async fn send_text(&mut self, text: &str) {
        self.socket
            .send(Message::Text(text.into()))
            .await
            .expect("send");
    }

    /// The next protocol message (pings are answered by the library).
    pub async fn next(&mut self) -> ServerMsg {
        match self.try_next().await {
            Ok(msg) => msg,
            Err(closed) => panic!("the server closed the connection: {closed:?}"),
        }
    }

    /// The next protocol message, or how the connection closed.
    pub async fn try_next(&mut self) -> Result<ServerMsg, Closed> {
        self.try_next_within(PATIENCE)
            .await
            .expect("a message arrives in time")
    }

    /// The next protocol message, or how the connection closed; `None` if nothing came
    /// within `wait`.
    pub async fn try_next_within(&mut self, wait: Duration) -> Option<Result<ServerMsg, Closed>> {
        let deadline = tokio::time::Instant::now() + wait;
        Some(loop {
            let Ok(frame) = tokio::time::timeout_at(deadline, self.socket.next()).await else {
                return None;
            };
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let msg: ServerMsg = serde_json::from_str(&text)
                        .unwrap_or_else(|e| panic!("unreadable server message {text}: {e}"));
                    if matches!(msg, ServerMsg::State(_) | ServerMsg::Patch { .. }) {
                        self.state_bytes += text.len();
                    }
                    let msg = match msg {
                        ServerMsg::Patch { version, base, ops } => {
                            assert!(self.patches, "a patch to a client that did not ask: {text}");
                            let products = ops
                                .iter()
                                .filter(|op| matches!(op, PatchOp::Products { .. }))
                                .count();
                            assert!(
                                self.products || products == 0,
                                "products to a client that did not ask: {text}"
                            );
                            self.products_applied += products;
                            let state = self.state.as_mut().expect("a patch follows a state");
                            state
                                .apply_patch(version, base, &ops)
                                .unwrap_or_else(|e| panic!("a patch that does not apply: {e}"));
                            self.patches_applied += 1;
                            ServerMsg::State(state.clone())
                        }
                        msg => msg,
                    };
                    match &msg {
                        ServerMsg::State(state) => self.state = Some(state.clone()),
                        ServerMsg::Room(room) => {
                            // A client resuming a seat numbers its new acts above the ones
                            // the room has answered (as the web client does).
                            self.seq = self.seq.max(room.last_seq.unwrap_or(0));
                            self.room = Some(room.clone());
                        }
                        _ => {}
                    }
                    break Ok(msg);
                }
                Some(Ok(Message::Close(frame))) => {
                    break Err(frame
                        .map(|f| Closed {
                            code: f.code.into(),
                            reason: f.reason.to_string(),
                        })
                        .unwrap_or(Closed {
                            code: 1005,
                            reason: String::new(),
                        }));
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => {
                    break Err(Closed {
                        code: 1006,
                        reason: String::new(),
                    });
                }
            }
        })
    }

    /// Skips whatever comes until the server closes the connection; returns how it did.
    pub async fn closed(&mut self) -> Closed {
        loop {
            if let Err(closed) = self.try_next().await {
                return closed;
            }
        }
    }

    /// The next chat line, skipping other messages.
    pub async fn next_chat(&mut self) -> pandemonium_protocol::ChatLine {
        self.wait_for(|m| match m {
            ServerMsg::Chat(line) => Some(line.clone()),
            _ => None,
        })
        .await
    }

    /// Waits for the first message `pick` accepts, skipping others.
    pub async fn wait_for<T>(&mut self, mut pick: impl FnMut(&ServerMsg) -> Option<T>) -> T {
        loop {
            let msg = self.next().await;
            if let Some(found) = pick(&msg) {
                return found;
            }
        }
    }

    pub async fn join(&mut self, room: &RoomCode, role: JoinRole) -> RoomSnapshot {
        self.send(&ClientMsg::Join {
            room: room.clone(),
            role,
            version: None,
        })
        .await;
        self.wait_for(|m| match m {
            ServerMsg::Room(room) => Some(room.clone()),
            _ => None,
        })
        .await
    }

    /// Waits for a state message with at least `version`.
    pub async fn state_at_least(&mut self, version: u64) -> GameState {
        if let Some(state) = &self.state
            && state.version >= version
        {
            return state.clone();
        }
        self.wait_for(|m| match m {
            ServerMsg::State(s) if s.version >= version => Some(s.clone()),
            _ => None,
        })
        .await
    }

    /// Waits for a room snapshot that satisfies `test`.
    pub async fn room_where(&mut self, test: impl Fn(&RoomSnapshot) -> bool) -> RoomSnapshot {
        if let Some(room) = &self.room
            && test(room)
        {
            return room.clone();
        }
        self.wait_for(|m| match m {
            ServerMsg::Room(r) if test(r) => Some(r.clone()),
            _ => None,
        })
        .await
    }

    /// Sends an action and waits for its ack (Ok(version), once the state of that version has
    /// arrived too) or reject (Err, with the [`reason`]).
    pub async fn act(&mut self, action: serde_json::Value) -> Result<u64, String> {
        self.seq += 1;
        let seq = self.seq;
        self.send(&ClientMsg::Act { seq, action }).await;
        let answer = self
            .wait_for(|m| match m {
                ServerMsg::Ack { seq: s, version } if *s == seq => Some(Ok(*version)),
                ServerMsg::Reject {
                    seq: s, code, rule, ..
                } if *s == seq => Some(Err(reason(*code, rule))),
                _ => None,
            })
            .await;
        if let Ok(version) = answer {
            self.state_at_least(version).await;
        }
        answer
    }

    /// Notes that acts up to `seq` were sent by hand (with explicit seqs), so the next act is
    /// numbered above them: the room answers a seq it has seen with its original answer.
    pub fn sent_up_to(&mut self, seq: u64) {
        self.seq = self.seq.max(seq);
    }

    /// Joins `room` again as a player resuming from `version` (the last state it saw), without
    /// waiting for what the room sends.
    pub async fn rejoin(&mut self, room: &RoomCode, version: u64) {
        self.send(&ClientMsg::Join {
            room: room.clone(),
            role: JoinRole::Player,
            version: Some(version),
        })
        .await;
    }

    /// Sends an action without waiting for its answer.
    pub async fn seq_act_without_answer(&mut self, action: serde_json::Value) {
        self.seq += 1;
        let seq = self.seq;
        self.send(&ClientMsg::Act { seq, action }).await;
    }

    /// Waits for an `error` message and returns its code.
    pub async fn error_code(&mut self) -> ErrorCode {
        self.wait_for(|m| match m {
            ServerMsg::Error { code, .. } => Some(*code),
            _ => None,
        })
        .await
    }

    pub async fn close(mut self) {
        let _ = self.socket.close(None).await;
    }
}

/// Why an act was refused, as tests compare it: the game's rule for `illegal_action` (such as
/// `token_taken`), otherwise the code itself.
pub fn reason(code: ErrorCode, rule: &Option<String>) -> String {
    match (code, rule) {
        (ErrorCode::IllegalAction, Some(rule)) => rule.clone(),
        _ => code.as_str().to_string(),
    }
}

/// The socket URL's path for room `room`.
fn room_path(room: &RoomCode) -> String {
    format!("/ws?room={}", room.0)
}
