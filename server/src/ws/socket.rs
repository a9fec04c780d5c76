//! The socket, where every write has a deadline: a client that stops reading cannot hold the
//! connection's task, its buffers or its socket.

use axum::extract::ws::{Message, WebSocket};
use futures_util::SinkExt;
use std::pin::Pin;
use std::task::Poll;
use std::time::Duration;

/// Frames queued for one connection that go out in one write at most.
pub(super) const WRITE_BATCH: usize = 32;

/// A write that missed its deadline or failed: the client is not reading, or is gone.
#[derive(Debug)]
pub(super) struct Stuck;

/// The socket, where every write has a deadline.
pub(super) struct Socket {
    pub(super) ws: WebSocket,
    deadline: Duration,
}

impl Socket {
    pub(super) fn new(ws: WebSocket, deadline: Duration) -> Socket {
        Socket { ws, deadline }
    }

    /// Writes `messages` (leaving the vector empty) and flushes once, all within one deadline.
    pub(super) async fn send_all(&mut self, messages: &mut Vec<Message>) -> Result<(), Stuck> {
        let write = std::pin::pin!(async {
            for message in messages.drain(..) {
                self.ws.feed(message).await?;
            }
            self.ws.flush().await
        });
        within(self.deadline, write).await
    }

    pub(super) async fn send(&mut self, message: Message) -> Result<(), Stuck> {
        within(self.deadline, std::pin::pin!(self.ws.send(message))).await
    }

    pub(super) async fn text(&mut self, text: String) -> Result<(), Stuck> {
        self.send(Message::Text(text.into())).await
    }

    /// Writes out what the closing handshake still has queued (our Close, or the answer to the
    /// client's), within the write deadline.
    pub(super) async fn flush_close(&mut self) {
        let _ = tokio::time::timeout(self.deadline, self.ws.close()).await;
    }
}

/// Runs a write, which fails if it takes longer than `deadline`. Nearly every write is done
/// at its first poll (the socket's buffer has room), and is done without reading the clock
/// or making a timer: only one that has to wait gets its deadline. The write comes pinned by
/// the caller, so the connection's task holds it once rather than as argument and local.
async fn within<F: Future<Output = Result<(), axum::Error>>>(
    deadline: Duration,
    mut write: Pin<&mut F>,
) -> Result<(), Stuck> {
    let first = std::future::poll_fn(|cx| Poll::Ready(write.as_mut().poll(cx))).await;
    let done = match first {
        Poll::Ready(done) => done,
        // Boxed: the deadline's timer is made only for a write that waits, and it would
        // otherwise size every connection's task.
        Poll::Pending => match Box::pin(tokio::time::timeout(deadline, write)).await {
            Ok(done) => done,
            Err(_) => return Err(Stuck),
        },
    };
    done.map_err(|_| Stuck)
}
