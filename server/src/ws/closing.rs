//! How a connection ends: the close codes, and the closing handshake, which has a deadline
//! at every step.

use axum::extract::ws::{CloseFrame, Message};
use futures_util::StreamExt;
use std::time::Duration;

use super::socket::Socket;

/// Policy violation: the close code for flooding.
pub(super) const CLOSE_POLICY: u16 = 1008;
/// Try again later: the close code for a client dropped for being too slow.
pub(super) const CLOSE_TRY_AGAIN: u16 = 1013;
pub(super) const CLOSE_NORMAL: u16 = 1000;
/// A text frame that is not UTF-8 (RFC 6455, 7.4.1).
pub(super) const CLOSE_INVALID_DATA: u16 = 1007;
/// A message over the hard size limit, whole or in fragments.
pub(super) const CLOSE_TOO_BIG: u16 = 1009;
/// Any other violation of the WebSocket protocol.
pub(super) const CLOSE_PROTOCOL: u16 = 1002;

/// How a connection that is still read from ends.
pub(super) enum Ending {
    /// The server closes, with this code and reason, and waits for the client's Close.
    Close(u16, &'static str),
    /// The client sent a Close first, with this code if any. The WebSocket layer has queued
    /// the answer (the code echoed); it goes out when the socket is flushed.
    Answered(Option<u16>),
}

/// How long a closing socket waits for the client's Close.
pub(super) const CLOSE_ANSWER: Duration = Duration::from_secs(2);
/// ...when the server is stopping: a client that reads answers within milliseconds, and the
/// process waits for every socket to close (`http::listen::serve`), so one that does not
/// read must not hold it up for long.
pub(super) const STOPPING_CLOSE_ANSWER: Duration = Duration::from_millis(250);

/// Closes with a reason and waits (at most `answer`) for the client's Close: dropping the
/// socket with unread input would reset the connection, and the client could lose the close
/// frame and the error sent just before it. Every step has a deadline.
pub(super) async fn finish(mut socket: Socket, code: u16, reason: &'static str, answer: Duration) {
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
    socket.flush_close().await;
}

/// How to close after a frame the WebSocket layer refused.
pub(super) fn close_for(error: axum::Error) -> Ending {
    use tokio_tungstenite::tungstenite::Error as WsError;
    let (code, reason) = match error.into_inner().downcast::<WsError>().map(|e| *e) {
        Ok(WsError::Capacity(_)) => (CLOSE_TOO_BIG, "message too large"),
        Ok(WsError::Utf8(_)) => (CLOSE_INVALID_DATA, "text frames must be UTF-8"),
        Ok(WsError::Protocol(_)) => (CLOSE_PROTOCOL, "WebSocket protocol violation"),
        _ => (CLOSE_NORMAL, ""),
    };
    Ending::Close(code, reason)
}
