//! Which node serves a socket, in cluster mode. A client opens `/ws?room=CODE` for the room it
//! will join, and the load balancer hashes on that code, so a room's clients reach one node;
//! the room itself may live on another (the node that opened it, or took it over). A socket
//! for a room held elsewhere is passed on to its holder ([`super::forward`]); a room whose
//! holder stopped is taken over here once its lease is free, so the client that comes first
//! after a node dies brings its room back.

use std::time::Duration;

use tokio::net::TcpStream;
use tokio::time::Instant;

use pandemonium_protocol::RoomCode;

use crate::app::AppState;
use crate::resumption::{self, Found};

/// The request header a node puts on a socket it passes on: the node it reaches serves it
/// whatever it finds, so two nodes that disagree for a moment about a room's holder never
/// pass a socket back and forth.
pub(super) const FORWARDED_BY: &str = "x-pandemonium-forwarded-by";

/// How long a node waits for a room's holder to answer a connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);

/// How often a node asks again whether a silent holder's lease has run out.
const RETRY_EVERY: Duration = Duration::from_millis(100);

/// How a socket for one room is served.
pub(super) enum Route {
    /// Here: the room is here (now), or nowhere (the join will say so).
    Local,
    /// By the room's holder, connected.
    Forward(TcpStream),
    /// Not now: the holder does not answer and its lease has not run out in time, or the
    /// database cannot say.
    Unavailable,
}

/// Finds where room `code`'s socket is served. A holder that does not answer (killed, or
/// stopping) is waited out: its lease runs out within a lease's length of its last renewal,
/// and the room is then taken over here; past that and a margin, the client is told to come
/// back.
pub(super) async fn route(state: &AppState, code: &RoomCode) -> Route {
    let lease = state
        .store
        .node()
        .map_or(Duration::ZERO, |node| node.lease_duration());
    let deadline = Instant::now() + lease + Duration::from_secs(2);
    loop {
        let found = resumption::find_room(&state.lobby, &state.store, &state.takeovers, code).await;
        match found {
            Ok(Found::Here | Found::Nowhere) => return Route::Local,
            Ok(Found::Elsewhere {
                address: Some(address),
            }) => match tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect(&address)).await {
                Ok(Ok(stream)) => {
                    let _ = stream.set_nodelay(true);
                    return Route::Forward(stream);
                }
                Ok(Err(error)) => {
                    tracing::debug!(room = %code.0, %address, %error, "a room's holder does not answer");
                }
                Err(_) => {
                    tracing::debug!(room = %code.0, %address, "a room's holder is slow to answer");
                }
            },
            // Its holder left the cluster: the lease is free within moments.
            Ok(Found::Elsewhere { address: None }) => {}
            Err(error) => {
                tracing::warn!(room = %code.0, %error, "could not find a room's holder");
                return Route::Unavailable;
            }
        }
        if Instant::now() + RETRY_EVERY > deadline {
            return Route::Unavailable;
        }
        tokio::time::sleep(RETRY_EVERY).await;
    }
}
