//! One WebSocket connection: handshake, parsing at the edge, rate limiting, and forwarding
//! between the socket and the room the person is in.
//!
//! The task owns the socket. It writes its own replies (welcome, errors) directly and forwards
//! the room's frames from a bounded outbox; when the room drops that outbox (the client was
//! too slow, or the room closed) the socket is closed so the client reconnects and resyncs.
//!
//! Every write has a deadline (`--write-timeout-seconds`): a client that stops reading cannot
//! hold the task, its buffers or its socket, not even while being closed. Every frame the
//! client sends — text, binary, ping — costs a token; a client over the rate is answered
//! `rate_limited` (an `act` as a `reject` of its seq, so nothing goes unanswered) and only a
//! client that keeps on after that is closed.

use axum::Extension;
use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::Poll;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tracing::Instrument;

use pandemonium_protocol::{ClientMsg, ErrorCode, JoinRole, RawAct, RoomCode, ServerMsg};

use crate::app::AppState;
use crate::config::Limits;
use crate::error::AppError;
use crate::http::Peer;
use crate::identity::{self, Player};
use crate::limiter::{Rate, TokenBucket};
use crate::room::{ConnId, Outgoing, Patches, RoomCmd, RoomHandle};

/// Policy violation: the close code for flooding.
const CLOSE_POLICY: u16 = 1008;
/// Try again later: the close code for a client dropped for being too slow.
const CLOSE_TRY_AGAIN: u16 = 1013;
const CLOSE_NORMAL: u16 = 1000;
/// A text frame that is not UTF-8 (RFC 6455, 7.4.1).
const CLOSE_INVALID_DATA: u16 = 1007;
/// A message over the hard size limit, whole or in fragments.
const CLOSE_TOO_BIG: u16 = 1009;
/// Any other violation of the WebSocket protocol.
const CLOSE_PROTOCOL: u16 = 1002;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// How many bytes of frames a connection collects before writing without a flush.
const WRITE_COALESCE_BYTES: usize = 8 * 1024;

pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    Extension(peer): Extension<Peer>,
    headers: HeaderMap,
) -> Response {
    if !origin_allowed(&headers, &state.config.network.allowed_origins) {
        tracing::debug!(origin = ?headers.get(header::ORIGIN), "WebSocket refused: origin");
        return AppError::ForbiddenOrigin.into_response();
    }
    let limits = state.config.limits.clone();
    let client = state.quotas.client(&peer, &headers);
    ws
        // Small buffers: an idle connection should cost a few KiB, not tungstenite's ~135 KiB
        // of defaults. Messages are small JSON; a larger one just takes another read.
        .read_buffer_size(4 * 1024)
        // Frames are collected up to this size and written on flush, so the frames released
        // together (an ack and its state) leave in one system call. Every send flushes; the
        // buffer is empty until a connection is sent something, and grows to this plus one
        // frame at most.
        .write_buffer_size(WRITE_COALESCE_BYTES)
        .max_write_buffer_size(256 * 1024)
        // The hard cap sits above the protocol's limit so that an oversized message gets a
        // typed `frame_too_large` error instead of a dropped socket.
        .max_message_size(limits.max_frame_bytes * 2)
        .max_frame_size(limits.max_frame_bytes * 2)
        .on_upgrade(move |socket| serve(socket, state, limits, peer, client))
}

/// Whether a page of the request's `Origin` may open a socket here. A browser always says
/// which page opens a WebSocket; without a check, any site a player visits could play in
/// their name. Clients that are not browsers send no `Origin` and are let in.
fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    if !allowed.is_empty() {
        return allowed.iter().any(|a| a.eq_ignore_ascii_case(origin));
    }
    // By default: the page's own origin, whose host is the one this request is addressed to.
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

struct Connection {
    id: ConnId,
    state: AppState,
    limits: Limits,
    player: Option<Player>,
    /// Whether the client said it applies `patch` frames, and which operations.
    patches: Patches,
    /// Counts this person as online (the lobby's presence line) while the connection lives.
    here: Option<crate::online::Here>,
    room: Option<(RoomCode, RoomHandle)>,
    outbox: Option<mpsc::Receiver<Outgoing>>,
    bucket: TokenBucket,
    /// Refusals for going over the rate: a client that keeps going after being told empties
    /// this too, and is closed.
    patience: TokenBucket,
    peer: Peer,
    client: IpAddr,
}

enum Flow {
    Continue,
    Close(u16, &'static str),
    Stuck(Stuck),
}

/// How a connection that is still read from ends.
enum Ending {
    /// The server closes, with this code and reason, and waits for the client's Close.
    Close(u16, &'static str),
    /// The client sent a Close first, with this code if any. The WebSocket layer has queued
    /// the answer (the code echoed); it goes out when the socket is flushed.
    Answered(Option<u16>),
}

/// Polls `work` inside `span`. `Instrument` would take a handle of its own on the span: a
/// clone and a drop in the subscriber (a lookup and an atomic operation each) for every
/// message read.
async fn in_span<F: std::future::Future>(span: &tracing::Span, work: F) -> F::Output {
    let mut work = std::pin::pin!(work);
    std::future::poll_fn(|cx| span.in_scope(|| work.as_mut().poll(cx))).await
}

/// Serves one connection with a span of its own, so everything logged for it names the
/// connection, its address and, once greeted, the guest.
async fn serve(socket: WebSocket, state: AppState, limits: Limits, peer: Peer, client: IpAddr) {
    let id = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    let span = tracing::info_span!(
        "conn",
        conn = id,
        peer = %client,
        guest = tracing::field::Empty
    );
    connection(id, socket, state, limits, peer, client, span).await
}

async fn connection(
    id: ConnId,
    socket: WebSocket,
    state: AppState,
    limits: Limits,
    peer: Peer,
    client: IpAddr,
    span: tracing::Span,
) {
    // The span is entered where the connection does what may log: reading a message, and
    // closing. Not around the whole task: it would be entered and left (a lock and two atomic
    // operations in the subscriber) on every frame the room hands it, four or five for each
    // message it reads in play, and writing a frame logs nothing.
    state.metrics.connections.fetch_add(1, Ordering::Relaxed);
    // One owner for both directions: `select!` drops the read it was waiting on before a
    // branch writes, so the socket needs no split halves, whose shared lock and wakers were
    // taken on every frame in or out.
    let mut socket = Socket {
        ws: socket,
        deadline: Duration::from_secs(limits.write_timeout_seconds),
    };
    let mut conn = Connection {
        id,
        bucket: TokenBucket::full(Rate::per_second(limits.rate_per_second, limits.rate_burst)),
        patience: TokenBucket::full(Rate::per_second(
            limits.rate_per_second.div_ceil(2),
            limits.rate_burst,
        )),
        limits,
        state: state.clone(),
        player: None,
        patches: Patches::Off,
        here: None,
        room: None,
        outbox: None,
        peer,
        client,
    };
    let mut shutdown = state.shutdown.clone();
    let handshake_deadline = Instant::now() + Duration::from_secs(conn.limits.handshake_seconds);
    let idle = Duration::from_secs(conn.limits.idle_seconds);
    let mut last_heard = Instant::now();
    let mut ping = tokio::time::interval(idle / 3);
    ping.tick().await;
    // Made once, not on every turn of the loop: a fresh `changed()` each turn joined and left
    // the shutdown signal's list of waiters, under its lock, for every frame in or out.
    let shutting_down = shutdown.changed();
    tokio::pin!(shutting_down);
    let handshake_over = tokio::time::sleep_until(handshake_deadline);
    tokio::pin!(handshake_over);

    // The frames of one write, kept from one write to the next.
    let mut frames = Vec::new();
    let close: Result<Ending, Stuck> = loop {
        tokio::select! {
            // In this order, without drawing lots: a frame the room queued (most wake-ups
            // under play) is handled without polling the socket's read side, whose poll goes
            // through the WebSocket layer's locks and wakers for nothing.
            biased;
            outgoing = recv_outbox(&mut conn.outbox) => {
                match outgoing {
                    Some(Outgoing::Frame(frame)) => {
                        // Frames released together (an ack and its state, a resync) go out in
                        // one write rather than one system call each.
                        frames.push(Message::Text(frame));
                        let mut then = None;
                        while let Some(rx) = conn.outbox.as_mut()
                            && frames.len() < WRITE_BATCH
                        {
                            match rx.try_recv() {
                                Ok(Outgoing::Frame(frame)) => frames.push(Message::Text(frame)),
                                Ok(other) => {
                                    then = Some(other);
                                    break;
                                }
                                Err(_) => break,
                            }
                        }
                        if let Err(stuck) = socket.send_all(&mut frames).await {
                            break Err(stuck);
                        }
                        match then {
                            Some(Outgoing::Close(code, reason)) => {
                                break Ok(Ending::Close(code, reason));
                            }
                            Some(Outgoing::Refused) => conn.refused_by_room(),
                            _ => {}
                        }
                    }
                    Some(Outgoing::Close(code, reason)) => break Ok(Ending::Close(code, reason)),
                    Some(Outgoing::Refused) => conn.refused_by_room(),
                    // The room let go of us: too slow, or the room is gone.
                    None => {
                        conn.outbox = None;
                        conn.room = None;
                        break Ok(Ending::Close(
                            CLOSE_TRY_AGAIN,
                            "fell behind the room; reconnect to resync",
                        ));
                    }
                }
            }
            incoming = socket.ws.next() => {
                let message = match incoming {
                    Some(Ok(message)) => message,
                    Some(Err(error)) => break Ok(close_for(error)),
                    None => break Ok(Ending::Close(CLOSE_NORMAL, "")),
                };
                last_heard = Instant::now();
                let replies = match message {
                    Message::Text(text) => {
                        in_span(&span, conn.receive(text.as_str())).await
                    }
                    Message::Close(frame) => break Ok(Ending::Answered(frame.map(|f| f.code))),
                    // Control frames and binary frames cost a token like any other: the
                    // library answers every ping with a pong, so pings are writes too.
                    Message::Binary(_) => conn.binary(),
                    Message::Ping(_) | Message::Pong(_) => conn.control(),
                };
                let mut flow = Flow::Continue;
                for reply in replies {
                    match reply {
                        Reply::Send(text) => {
                            if let Err(stuck) = socket.text(text).await {
                                flow = Flow::Stuck(stuck);
                                break;
                            }
                        }
                        Reply::Close(code, reason) => flow = Flow::Close(code, reason),
                    }
                }
                match flow {
                    Flow::Continue => {}
                    Flow::Close(code, reason) => break Ok(Ending::Close(code, reason)),
                    Flow::Stuck(stuck) => break Err(stuck),
                }
            }
            _ = ping.tick() => {
                if conn.player.is_none() && Instant::now() >= handshake_deadline {
                    break Ok(Ending::Close(CLOSE_POLICY, "no hello in time"));
                }
                if last_heard.elapsed() >= idle {
                    break Ok(Ending::Close(CLOSE_NORMAL, "idle"));
                }
                if let Err(stuck) = socket.send(Message::Ping(Default::default())).await {
                    break Err(stuck);
                }
            }
            _ = &mut handshake_over, if conn.player.is_none() => {
                break Ok(Ending::Close(CLOSE_POLICY, "no hello in time"));
            }
            _ = &mut shutting_down => {
                break Ok(Ending::Close(
                    1012,
                    "the server is restarting; reconnect in a moment",
                ));
            }
        }
    };
    async {
        conn.leave_room().await;
        match close {
            Ok(Ending::Close(code, reason)) => {
                tracing::debug!(code, reason, "connection closed");
                // A stopping server waits for its sockets to close: not for long on each.
                let answer = if *state.shutdown.borrow() {
                    STOPPING_CLOSE_ANSWER
                } else {
                    CLOSE_ANSWER
                };
                finish(socket, code, reason, answer).await;
            }
            Ok(Ending::Answered(code)) => {
                tracing::debug!(code, by = "client", "connection closed");
                // Not `finish`: a Close of our own is refused once the client's has been
                // read, and the answer queued for it would never be written (RFC 6455,
                // 5.5.1; without it a browser reports the socket it closed itself as closed
                // abnormally, 1006).
                flush_close(&mut socket).await;
            }
            Err(Stuck) => tracing::debug!("connection dropped: the client stopped reading"),
        }
    }
    .instrument(span)
    .await;
    // A client that stopped reading (`Stuck`) gets no closing handshake: dropping the socket
    // resets the connection and frees its buffers now.
    state.metrics.connections.fetch_sub(1, Ordering::Relaxed);
}

/// How long a closing socket waits for the client's Close.
const CLOSE_ANSWER: Duration = Duration::from_secs(2);
/// ...when the server is stopping: a client that reads answers within milliseconds, and the
/// process waits for every socket to close (`http::listen::serve`), so one that does not
/// read must not hold it up for long.
const STOPPING_CLOSE_ANSWER: Duration = Duration::from_millis(250);

/// Closes with a reason and waits (at most `answer`) for the client's Close: dropping the
/// socket with unread input would reset the connection, and the client could lose the close
/// frame and the error sent just before it. Every step has a deadline.
async fn finish(mut socket: Socket, code: u16, reason: &'static str, answer: Duration) {
    let frame = Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }));
    if socket.send(frame).await.is_err() {
        return;
    }
    let drain = async {
        while let Some(Ok(message)) = socket.ws.next().await {
            if matches!(message, Message::Close(_)) {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(answer, drain).await;
    flush_close(&mut socket).await;
}

/// Writes out what the closing handshake still has queued (our Close, or the answer to the
/// client's), within the write deadline.
async fn flush_close(socket: &mut Socket) {
    let _ = tokio::time::timeout(socket.deadline, socket.ws.close()).await;
}

/// How to close after a frame the WebSocket layer refused.
fn close_for(error: axum::Error) -> Ending {
    use tokio_tungstenite::tungstenite::Error as WsError;
    let (code, reason) = match error.into_inner().downcast::<WsError>().map(|e| *e) {
        Ok(WsError::Capacity(_)) => (CLOSE_TOO_BIG, "message too large"),
        Ok(WsError::Utf8(_)) => (CLOSE_INVALID_DATA, "text frames must be UTF-8"),
        Ok(WsError::Protocol(_)) => (CLOSE_PROTOCOL, "WebSocket protocol violation"),
        _ => (CLOSE_NORMAL, ""),
    };
    Ending::Close(code, reason)
}

/// Frames queued for one connection that go out in one write at most.
const WRITE_BATCH: usize = 32;

/// A write that missed its deadline or failed: the client is not reading, or is gone.
#[derive(Debug)]
struct Stuck;

/// The socket, where every write has a deadline.
struct Socket {
    ws: WebSocket,
    deadline: Duration,
}

impl Socket {
    /// Writes `messages` (leaving the vector empty) and flushes once, all within one deadline.
    async fn send_all(&mut self, messages: &mut Vec<Message>) -> Result<(), Stuck> {
        let write = async {
            for message in messages.drain(..) {
                self.ws.feed(message).await?;
            }
            self.ws.flush().await
        };
        within(self.deadline, write).await
    }

    async fn send(&mut self, message: Message) -> Result<(), Stuck> {
        within(self.deadline, self.ws.send(message)).await
    }

    async fn text(&mut self, text: String) -> Result<(), Stuck> {
        self.send(Message::Text(text.into())).await
    }
}

/// Runs a write, which fails if it takes longer than `deadline`. Nearly every write is done
/// at its first poll (the socket's buffer has room), and is done without reading the clock
/// or making a timer: only one that has to wait gets its deadline.
async fn within(
    deadline: Duration,
    write: impl Future<Output = Result<(), axum::Error>>,
) -> Result<(), Stuck> {
    let mut write = std::pin::pin!(write);
    let first = std::future::poll_fn(|cx| Poll::Ready(write.as_mut().poll(cx))).await;
    let done = match first {
        Poll::Ready(done) => done,
        Poll::Pending => match tokio::time::timeout(deadline, write).await {
            Ok(done) => done,
            Err(_) => return Err(Stuck),
        },
    };
    done.map_err(|_| Stuck)
}

async fn recv_outbox(outbox: &mut Option<mpsc::Receiver<Outgoing>>) -> Option<Outgoing> {
    match outbox {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

enum Reply {
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
    fn binary(&mut self) -> Vec<Reply> {
        self.over_rate(rate_limited).unwrap_or_else(|| {
            vec![Reply::Send(error(
                ErrorCode::BinaryFrame,
                "Send JSON text frames.",
            ))]
        })
    }

    /// A ping or a pong: answered by the library, counted here.
    fn control(&mut self) -> Vec<Reply> {
        self.over_rate(rate_limited).unwrap_or_default()
    }

    /// Handles one text frame from the client.
    async fn receive(&mut self, text: &str) -> Vec<Reply> {
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
                let replies = self.hello(token, name).await;
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
            } => self.join(room, role, version).await,
            msg => self.forward_to_room(msg).await,
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
        let found = RoomCode::parse(code.as_str())
            .and_then(|code| Some((self.state.lobby.room(&code)?, code)));
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
        if handle.tx.send(cmd).await.is_err() {
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

    /// The room turned the join down (and said why): this connection is in no room.
    fn refused_by_room(&mut self) {
        self.room = None;
        self.outbox = None;
    }

    async fn leave_room(&mut self) {
        if let Some((_, handle)) = self.room.take() {
            let _ = handle.tx.send(RoomCmd::Leave { conn: self.id }).await;
        }
        self.outbox = None;
    }
}
