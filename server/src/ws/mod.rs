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
//!
//! [`connection`] is the task: its loop waits on the room's outbox, the socket, the keep-alive
//! clock and the server's shutdown. [`session`] is what the client says and is answered
//! (hello, join, acts, the rate limit); [`socket`] writes under a deadline; [`closing`] ends
//! a connection with the right code and a closing handshake.

mod closing;
mod connection;
mod forward;
mod route;
mod session;
mod socket;
#[cfg(test)]
mod tests;

use axum::Extension;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};

use crate::app::AppState;
use crate::error::AppError;
use crate::http::Peer;
use connection::serve;

/// How many bytes of frames a connection collects before writing without a flush.
const WRITE_COALESCE_BYTES: usize = 8 * 1024;

/// The read buffer every connection holds from its upgrade to its end, idle or not, and the
/// most one read takes from the socket: sized for what clients send, a few hundred bytes (an
/// action, a hello, a join). A longer message (a chat line of 500 characters) takes more
/// reads, and the buffer grows to hold it.
const READ_BUFFER_BYTES: usize = 512;

/// `GET /ws` (`/ws?room=CODE` names the room the client will join): upgrades to a WebSocket
/// served here, or in cluster mode passes it on to the node that holds the room.
pub async fn upgrade(
    State(state): State<AppState>,
    Extension(peer): Extension<Peer>,
    request: Request,
) -> Response {
    let headers = request.headers();
    if !origin_allowed(headers, &state.config.network.allowed_origins) {
        tracing::debug!(origin = ?headers.get(header::ORIGIN), "WebSocket refused: origin");
        return AppError::ForbiddenOrigin.into_response();
    }
    let client = state.quotas.client(&peer, headers);
    if state.store.node().is_some()
        && !headers.contains_key(route::FORWARDED_BY)
        && let Some(code) = crate::http::room_in(request.uri().query())
    {
        match route::route(&state, &code).await {
            route::Route::Local => {}
            route::Route::Forward(holder) => {
                return forward::forward(request, holder, client, peer, &state).await;
            }
            route::Route::Unavailable => return AppError::Unavailable.into_response(),
        }
    }
    let (mut parts, _) = request.into_parts();
    let ws = match WebSocketUpgrade::from_request_parts(&mut parts, &state).await {
        Ok(ws) => ws,
        Err(rejection) => return rejection.into_response(),
    };
    let limits = state.config.limits.clone();
    ws
        // Small buffers: an idle connection should cost a few KiB, not tungstenite's ~135 KiB
        // of defaults. Messages are small JSON; a larger one just takes another read.
        .read_buffer_size(READ_BUFFER_BYTES)
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
