//! The connection's task: one loop that waits on the room's outbox, the socket, the keep-alive
//! clock and the server's shutdown, until one of them ends the connection; then the closing.

use axum::extract::ws::{Message, WebSocket};
use futures_util::StreamExt;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::{Instant, Interval};
use tracing::Instrument;

use super::closing::{
    CLOSE_ANSWER, CLOSE_NORMAL, CLOSE_POLICY, CLOSE_TRY_AGAIN, Ending, STOPPING_CLOSE_ANSWER,
    close_for, finish,
};
use super::session::{Connection, Reply};
use super::socket::{Socket, Stuck, WRITE_BATCH};
use crate::app::AppState;
use crate::config::Limits;
use crate::http::Peer;
use crate::room::Outgoing;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// What one turn of the loop decided: `None` to carry on, or how the connection ends.
type Turn = Option<Result<Ending, Stuck>>;

/// Serves one connection with a span of its own, so everything logged for it names the
/// connection, its address and, once greeted, the guest.
///
/// Not itself `async`: what the task holds is made here, before its future, so the future
/// holds each thing once. An `async fn` keeps its arguments beside the locals made from them,
/// and the task's future is, with the socket's buffers, most of what an idle connection costs.
pub(super) fn serve(
    socket: WebSocket,
    state: AppState,
    limits: Limits,
    peer: Peer,
    client: IpAddr,
) -> impl Future<Output = ()> {
    let id = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    let span = tracing::info_span!(
        parent: crate::telemetry::node(),
        "conn",
        conn = id,
        peer = %client,
        guest = tracing::field::Empty
    );
    // One owner for both directions: `select!` drops the read it was waiting on before a
    // branch writes, so the socket needs no split halves, whose shared lock and wakers were
    // taken on every frame in or out.
    let mut socket = Socket::new(socket, Duration::from_secs(limits.write_timeout_seconds));
    let mut conn = Connection::new(id, state, limits, peer, client);
    // A block, not a call: an `async fn`'s body moves its arguments into locals of its own,
    // and its future holds both.
    async move {
        // The span is entered where the connection does what may log: reading a message, and
        // closing. Not around the whole task: it would be entered and left (a lock and two
        // atomic operations in the subscriber) on every frame the room hands it, four or five
        // for each message it reads in play, and writing a frame logs nothing.
        let metrics = conn.state.metrics.clone();
        metrics.connections.fetch_add(1, Ordering::Relaxed);
        let close = run(&mut conn, &mut socket, &span).await;
        ending(conn, socket, close, span).await;
        // A client that stopped reading (`Stuck`) gets no closing handshake: dropping the
        // socket resets the connection and frees its buffers now.
        metrics.connections.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The connection's loop, until something ends it.
async fn run(
    conn: &mut Connection,
    socket: &mut Socket,
    span: &tracing::Span,
) -> Result<Ending, Stuck> {
    let mut shutdown = conn.state.shutdown.clone();
    let mut alive = Liveness::new(&conn.limits).await;
    // Made once, not on every turn of the loop: a fresh `changed()` each turn joined and left
    // the shutdown signal's list of waiters, under its lock, for every frame in or out.
    let shutting_down = shutdown.changed();
    tokio::pin!(shutting_down);
    let handshake_over = tokio::time::sleep_until(alive.handshake_deadline);
    tokio::pin!(handshake_over);

    // The frames of one write, kept from one write to the next.
    let mut frames = Vec::new();
    loop {
        let turn = tokio::select! {
            // In this order, without drawing lots: a frame the room queued (most wake-ups
            // under play) is handled without polling the socket's read side, whose poll goes
            // through the WebSocket layer's locks and wakers for nothing.
            biased;
            outgoing = recv_outbox(&mut conn.outbox) => {
                deliver(conn, socket, &mut frames, outgoing).await
            }
            incoming = socket.ws.next() => {
                alive.heard();
                read(conn, socket, span, incoming).await
            }
            _ = alive.ping.tick() => alive.check(conn.player.is_some(), socket).await,
            _ = &mut handshake_over, if conn.player.is_none() => {
                Some(Ok(Ending::Close(CLOSE_POLICY, "no hello in time")))
            }
            _ = &mut shutting_down => Some(Ok(Ending::Close(
                1012,
                "the server is restarting; reconnect in a moment",
            ))),
        };
        if let Some(close) = turn {
            return close;
        }
    }
}

/// Writes what the room queued for this connection.
async fn deliver(
    conn: &mut Connection,
    socket: &mut Socket,
    frames: &mut Vec<Message>,
    outgoing: Option<Outgoing>,
) -> Turn {
    match outgoing {
        Some(Outgoing::Frame(frame)) => {
            // Frames released together (an ack and its state, a resync) go out in one write
            // rather than one system call each.
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
            if let Err(stuck) = socket.send_all(frames).await {
                return Some(Err(stuck));
            }
            match then {
                Some(Outgoing::Close(code, reason)) => Some(Ok(Ending::Close(code, reason))),
                Some(Outgoing::Refused) => {
                    conn.refused_by_room();
                    None
                }
                _ => None,
            }
        }
        Some(Outgoing::Close(code, reason)) => Some(Ok(Ending::Close(code, reason))),
        Some(Outgoing::Refused) => {
            conn.refused_by_room();
            None
        }
        // The room let go of us: too slow, or the room is gone.
        None => {
            conn.outbox = None;
            conn.room = None;
            Some(Ok(Ending::Close(
                CLOSE_TRY_AGAIN,
                "fell behind the room; reconnect to resync",
            )))
        }
    }
}

/// Handles what the client sent, and writes the answers.
async fn read(
    conn: &mut Connection,
    socket: &mut Socket,
    span: &tracing::Span,
    incoming: Option<Result<Message, axum::Error>>,
) -> Turn {
    let message = match incoming {
        Some(Ok(message)) => message,
        Some(Err(error)) => return Some(Ok(close_for(error))),
        None => return Some(Ok(Ending::Close(CLOSE_NORMAL, ""))),
    };
    let replies = match message {
        Message::Text(text) => {
            let receive = std::pin::pin!(conn.receive(text.as_str()));
            in_span(span, receive).await
        }
        Message::Close(frame) => return Some(Ok(Ending::Answered(frame.map(|f| f.code)))),
        // Control frames and binary frames cost a token like any other: the library answers
        // every ping with a pong, so pings are writes too.
        Message::Binary(_) => conn.binary(),
        Message::Ping(_) | Message::Pong(_) => conn.control(),
    };
    let mut close = None;
    for reply in replies {
        match reply {
            Reply::Send(text) => {
                if let Err(stuck) = socket.text(text).await {
                    return Some(Err(stuck));
                }
            }
            Reply::Close(code, reason) => close = Some(Ok(Ending::Close(code, reason))),
        }
    }
    close
}

/// The keep-alive clock: a client must say hello within the handshake time, and be heard
/// from (a pong will do) within the idle time, which the server's pings ask for.
struct Liveness {
    handshake_deadline: Instant,
    idle: Duration,
    last_heard: Instant,
    ping: Interval,
}

impl Liveness {
    async fn new(limits: &Limits) -> Liveness {
        let idle = Duration::from_secs(limits.idle_seconds);
        let mut ping = tokio::time::interval(idle / 3);
        ping.tick().await;
        Liveness {
            handshake_deadline: Instant::now() + Duration::from_secs(limits.handshake_seconds),
            idle,
            last_heard: Instant::now(),
            ping,
        }
    }

    fn heard(&mut self) {
        self.last_heard = Instant::now();
    }

    /// At each ping: closes a connection out of time, pings the others.
    async fn check(&self, greeted: bool, socket: &mut Socket) -> Turn {
        if !greeted && Instant::now() >= self.handshake_deadline {
            return Some(Ok(Ending::Close(CLOSE_POLICY, "no hello in time")));
        }
        if self.last_heard.elapsed() >= self.idle {
            return Some(Ok(Ending::Close(CLOSE_NORMAL, "idle")));
        }
        socket
            .send(Message::Ping(Default::default()))
            .await
            .err()
            .map(Err)
    }
}

/// [`end`], boxed: the closing handshake's future (the socket moved in, two deadlines) is
/// made once, at the end; inline, it would size every connection's task for its whole life.
fn ending(
    conn: Connection,
    socket: Socket,
    close: Result<Ending, Stuck>,
    span: tracing::Span,
) -> std::pin::Pin<Box<impl Future<Output = ()>>> {
    Box::pin(end(conn, socket, close).instrument(span))
}

/// Leaves the room and closes the socket as `close` says.
async fn end(mut conn: Connection, mut socket: Socket, close: Result<Ending, Stuck>) {
    conn.leave_room().await;
    match close {
        Ok(Ending::Close(code, reason)) => {
            tracing::debug!(code, reason, "connection closed");
            // A stopping server waits for its sockets to close: not for long on each.
            let answer = if *conn.state.shutdown.borrow() {
                STOPPING_CLOSE_ANSWER
            } else {
                CLOSE_ANSWER
            };
            finish(socket, code, reason, answer).await;
        }
        Ok(Ending::Answered(code)) => {
            tracing::debug!(code, by = "client", "connection closed");
            // Not `finish`: a Close of our own is refused once the client's has been read,
            // and the answer queued for it would never be written (RFC 6455, 5.5.1; without
            // it a browser reports the socket it closed itself as closed abnormally, 1006).
            socket.flush_close().await;
        }
        Err(Stuck) => tracing::debug!("connection dropped: the client stopped reading"),
    }
}

/// Polls `work` inside `span`. `Instrument` would take a handle of its own on the span: a
/// clone and a drop in the subscriber (a lookup and an atomic operation each) for every
/// message read. `work` comes pinned by the caller: a future taken by value would be held
/// twice in the connection's task, as the argument and as the pinned local.
async fn in_span<F: std::future::Future>(
    span: &tracing::Span,
    mut work: std::pin::Pin<&mut F>,
) -> F::Output {
    std::future::poll_fn(|cx| span.in_scope(|| work.as_mut().poll(cx))).await
}

async fn recv_outbox(outbox: &mut Option<mpsc::Receiver<Outgoing>>) -> Option<Outgoing> {
    match outbox {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}
