//! Accepting connections: the caps on open connections (in all and per address), the
//! header-read and keep-alive timeouts, a trusted proxy's PROXY protocol header, and the
//! [`Peer`] every request carries.
//!
//! A connection from a trusted proxy under `--proxy-protocol` is read for its header first
//! (under the header-read deadline) and then admitted as the client the header names, so the
//! cap per address counts that client. Until its header is in, it holds no place at the gate:
//! only trusted proxies can open such connections.
//!
//! A connection that is merely open costs a socket, a file descriptor and kernel buffers, so
//! the number open is bounded. When the server is full, the oldest connection that is doing
//! nothing useful — no request in progress and no greeted player on it — is dropped to make
//! room: a flood of silent sockets churns among itself while `/healthz` and the players of
//! running matches are served. Only when every open connection is useful is the new one
//! refused.

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use futures_util::task::AtomicWaker;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use tower::ServiceExt;

use crate::config::Network;
use crate::http::addresses::{Addresses, PROXY_WARNING_INTERVAL, Throttled};
use crate::http::proxy_protocol::{self, ProxyHeaderError};

/// Who is at the other end of a request's connection. Every request carries it as an
/// extension.
#[derive(Debug, Clone)]
pub struct Peer {
    /// The connection's own peer: the client, or a proxy in front of it.
    pub addr: SocketAddr,
    /// The client's address as a trusted proxy's PROXY header gave it.
    pub carried: Option<IpAddr>,
    slot: Arc<Slot>,
}

impl Peer {
    /// The connection now carries a greeted player: never drop it to make room.
    pub fn greeted(&self) {
        self.slot.greeted.store(true, Ordering::Relaxed);
    }
}

/// One open connection as the gate sees it.
#[derive(Debug)]
struct Slot {
    id: u64,
    ip: IpAddr,
    opened: Instant,
    /// Requests in progress on this connection.
    busy: AtomicUsize,
    greeted: AtomicBool,
    evicted: AtomicBool,
    /// Wakes the connection's reader when it is evicted.
    waker: AtomicWaker,
}

impl Slot {
    fn useful(&self) -> bool {
        self.busy.load(Ordering::Relaxed) > 0 || self.greeted.load(Ordering::Relaxed)
    }

    fn evict(&self) {
        self.evicted.store(true, Ordering::Relaxed);
        self.waker.wake();
    }
}

/// Counts open connections and decides who may come in.
#[derive(Debug)]
struct Gate {
    max_total: usize,
    max_per_ip: usize,
    addresses: Addresses,
    state: Mutex<GateState>,
    refused: AtomicU64,
    evicted: AtomicU64,
    last_warning: Mutex<Option<Instant>>,
    /// Connections from a trusted proxy that did not start with a PROXY header.
    bad_proxy_header: Throttled,
}

#[derive(Debug, Default)]
struct GateState {
    next_id: u64,
    open: HashMap<u64, Arc<Slot>>,
    per_ip: HashMap<IpAddr, usize>,
}

/// How often, at most, the gate says in the log that a cap bites.
const WARNING_INTERVAL: Duration = Duration::from_secs(10);

impl Gate {
    /// A place for a connection from `peer`, counted as `client` when a PROXY header named one.
    fn admit(self: &Arc<Self>, peer: IpAddr, client: Option<IpAddr>) -> Option<Arc<Slot>> {
        let capped = self.addresses.connection_capped(peer, client);
        let ip = client.unwrap_or(peer);
        let mut state = self.state.lock().expect("gate lock");
        if capped && state.per_ip.get(&ip).copied().unwrap_or(0) >= self.max_per_ip {
            drop(state);
            self.refused.fetch_add(1, Ordering::Relaxed);
            self.warn(Some(ip));
            return None;
        }
        if state.open.len() >= self.max_total {
            let idle = state
                .open
                .values()
                .filter(|s| !s.useful() && !s.evicted.load(Ordering::Relaxed))
                .min_by_key(|s| s.opened)
                .cloned();
            match idle {
                Some(victim) => {
                    // Its guard releases the place when the connection task sees the eviction;
                    // until then the count runs one over, briefly.
                    victim.evict();
                    self.evicted.fetch_add(1, Ordering::Relaxed);
                }
                None => {
                    drop(state);
                    self.refused.fetch_add(1, Ordering::Relaxed);
                    self.warn(None);
                    return None;
                }
            }
            self.warn(None);
        }
        state.next_id += 1;
        let slot = Arc::new(Slot {
            id: state.next_id,
            ip,
            opened: Instant::now(),
            busy: AtomicUsize::new(0),
            greeted: AtomicBool::new(false),
            evicted: AtomicBool::new(false),
            waker: AtomicWaker::new(),
        });
        state.open.insert(slot.id, slot.clone());
        *state.per_ip.entry(ip).or_default() += 1;
        Some(slot)
    }

    fn release(&self, slot: &Slot) {
        let mut state = self.state.lock().expect("gate lock");
        state.open.remove(&slot.id);
        if let Some(count) = state.per_ip.get_mut(&slot.ip) {
            *count -= 1;
            if *count == 0 {
                state.per_ip.remove(&slot.ip);
            }
        }
    }

    /// How many connections are open (their sockets not yet dropped), upgraded or not.
    fn open(&self) -> usize {
        self.state.lock().expect("gate lock").open.len()
    }

    fn refuse_proxy_connection(&self, peer: SocketAddr, error: ProxyHeaderError) {
        if let Some(closed) = self.bad_proxy_header.note() {
            tracing::warn!(
                %peer,
                %error,
                closed,
                "a trusted proxy's connection did not start with a PROXY header: closed \
                 (--proxy-protocol: HAProxy must send one, `send-proxy-v2` on its server line)"
            );
        }
    }

    fn warn(&self, ip: Option<IpAddr>) {
        let mut last = self.last_warning.lock().expect("warning lock");
        if last.is_some_and(|at| at.elapsed() < WARNING_INTERVAL) {
            return;
        }
        *last = Some(Instant::now());
        let refused = self.refused.load(Ordering::Relaxed);
        let evicted = self.evicted.load(Ordering::Relaxed);
        match ip {
            Some(ip) => tracing::warn!(
                %ip,
                cap = self.max_per_ip,
                refused,
                evicted,
                "connection cap per address reached: refusing its new connections (--max-connections-per-ip)"
            ),
            None => tracing::warn!(
                cap = self.max_total,
                refused,
                evicted,
                "connection cap reached: dropping idle connections, refusing new ones if none (--max-connections)"
            ),
        }
    }
}

/// A socket that counts against the gate while it lives, and fails its reads once evicted.
/// It stays with the connection through a WebSocket upgrade.
#[derive(Debug)]
struct Guarded {
    stream: TcpStream,
    /// Bytes read past a PROXY header with it, handed out before the socket's own.
    replay: Vec<u8>,
    slot: Arc<Slot>,
    gate: Arc<Gate>,
}

impl Drop for Guarded {
    fn drop(&mut self) {
        self.gate.release(&self.slot);
    }
}

fn evicted() -> io::Error {
    io::Error::new(io::ErrorKind::ConnectionAborted, "dropped to make room")
}

impl AsyncRead for Guarded {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.slot.waker.register(cx.waker());
        if self.slot.evicted.load(Ordering::Relaxed) {
            return Poll::Ready(Err(evicted()));
        }
        if !self.replay.is_empty() {
            let n = self.replay.len().min(buf.remaining());
            buf.put_slice(&self.replay[..n]);
            self.replay.drain(..n);
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.slot.evicted.load(Ordering::Relaxed) {
            return Poll::Ready(Err(evicted()));
        }
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// Marks its connection busy while a request is being answered.
struct Busy(Arc<Slot>);

impl Busy {
    fn new(slot: &Arc<Slot>) -> Busy {
        slot.busy.fetch_add(1, Ordering::Relaxed);
        Busy(slot.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The connections the process can hold: the configured cap, lowered to fit the open-file
/// limit (with room for the database, the static files and the log).
pub fn connection_cap(configured: usize) -> usize {
    const RESERVED: usize = 64;
    match open_file_limit() {
        Some(limit) if limit <= RESERVED => configured.min(1),
        Some(limit) if configured > limit - RESERVED => {
            let fitted = limit - RESERVED;
            tracing::warn!(
                configured,
                fitted,
                open_file_limit = limit,
                "--max-connections is above what the open-file limit allows; raise `ulimit -n` to hold more"
            );
            fitted
        }
        _ => configured,
    }
}

/// The soft limit on open files, where the system says (Linux).
fn open_file_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// Resolves once the server begins to stop.
async fn stopping(shutdown: &mut watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|stop| *stop).await;
}

/// What every connection task needs to serve its connection.
struct Acceptor {
    gate: Arc<Gate>,
    router: Router,
    http: hyper::server::conn::http1::Builder,
    shutdown: watch::Receiver<bool>,
    header_read: Duration,
}

impl Acceptor {
    /// Serves a connection from a trusted proxy: its PROXY header first, under the header-read
    /// deadline; then the connection as the client the header names.
    async fn serve_proxied(
        self: Arc<Self>,
        mut stream: TcpStream,
        addr: SocketAddr,
        alive: mpsc::Sender<()>,
    ) {
        let mut shutdown = self.shutdown.clone();
        let read = tokio::select! {
            read = tokio::time::timeout(self.header_read, proxy_protocol::read(&mut stream)) => read,
            _ = stopping(&mut shutdown) => return,
        };
        let (header, replay) = match read {
            Ok(Ok(read)) => read,
            Ok(Err(error)) => return self.gate.refuse_proxy_connection(addr, error),
            Err(_) => {
                return self
                    .gate
                    .refuse_proxy_connection(addr, ProxyHeaderError::Late);
            }
        };
        let client = header.client.map(|client| client.ip().to_canonical());
        let Some(slot) = self.gate.admit(addr.ip().to_canonical(), client) else {
            return; // dropping the stream closes it
        };
        self.serve(stream, addr, slot, client, replay, alive).await;
    }

    /// Serves one connection, admitted at the gate as `client` (or its own address), until it
    /// ends or the server stops.
    async fn serve(
        &self,
        stream: TcpStream,
        addr: SocketAddr,
        slot: Arc<Slot>,
        client: Option<IpAddr>,
        replay: Vec<u8>,
        alive: mpsc::Sender<()>,
    ) {
        // Game messages are small and latency matters: no Nagle delay on any connection.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "could not disable Nagle's algorithm");
        }
        let peer = Peer {
            addr,
            carried: client,
            slot: slot.clone(),
        };
        let io = Guarded {
            stream,
            replay,
            slot,
            gate: self.gate.clone(),
        };
        let router = self.router.clone();
        let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
            let busy = Busy::new(&peer.slot);
            request.extensions_mut().insert(peer.clone());
            let router = router.clone();
            async move {
                let response = router.oneshot(request.map(Body::new)).await;
                drop(busy);
                response
            }
        });
        let connection = self.http.serve_connection(TokioIo::new(io), service);
        let mut shutdown = self.shutdown.clone();
        let mut connection = std::pin::pin!(connection.with_upgrades());
        tokio::select! {
            result = connection.as_mut() => {
                if let Err(error) = result {
                    tracing::trace!(%error, "connection ended");
                }
                return;
            }
            _ = stopping(&mut shutdown) => {}
        }
        connection.as_mut().graceful_shutdown();
        let _ = connection.await;
        drop(alive);
    }
}

/// Serves `router` on `listener` until `shutdown` flips to true, then lets every connection
/// finish (for at most `drain`).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    network: &Network,
    mut shutdown: watch::Receiver<bool>,
    drain: Duration,
) {
    let gate = Arc::new(Gate {
        max_total: connection_cap(network.max_connections),
        max_per_ip: network.max_connections_per_ip,
        addresses: Addresses::new(network),
        state: Mutex::new(GateState::default()),
        refused: AtomicU64::new(0),
        evicted: AtomicU64::new(0),
        last_warning: Mutex::new(None),
        bad_proxy_header: Throttled::new(PROXY_WARNING_INTERVAL),
    });
    let header_read = Duration::from_secs(network.header_read_seconds);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(header_read)
        .keep_alive(true);
    let acceptor = Arc::new(Acceptor {
        gate: gate.clone(),
        router,
        http,
        shutdown: shutdown.clone(),
        header_read,
    });
    // Every connection task holds a sender; when all are dropped, every connection is done.
    let (alive, mut all_done) = mpsc::channel::<()>(1);
    loop {
        let (stream, addr) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of descriptors, most likely: pause rather than spin.
                    tracing::warn!(%error, "could not accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = stopping(&mut shutdown) => break,
        };
        let acceptor = acceptor.clone();
        let alive = alive.clone();
        if gate.addresses.expects_proxy_header(addr.ip()) {
            tokio::spawn(acceptor.serve_proxied(stream, addr, alive));
            continue;
        }
        // Admitted here rather than in the task, so connections are counted in the order
        // they arrive.
        let Some(slot) = gate.admit(addr.ip().to_canonical(), None) else {
            continue; // dropping the stream closes it
        };
        tokio::spawn(async move {
            acceptor
                .serve(stream, addr, slot, None, Vec::new(), alive)
                .await
        });
    }
    drop(alive);
    drop(listener);
    let deadline = Instant::now() + drain;
    let _ = tokio::time::timeout_at(deadline, all_done.recv()).await;
    // A connection upgraded to a WebSocket leaves hyper's task at the upgrade, so the wait
    // above does not see it; its socket holds its place at the gate until its task (telling
    // the client why it closes) drops it. Returning sooner let the process exit under them:
    // a client got a reset instead of its close frame.
    while gate.open() > 0 && Instant::now() < deadline {
        tokio::time::sleep(SHUTDOWN_POLL).await;
    }
}

/// How often a stopping server looks again for connections still closing.
const SHUTDOWN_POLL: Duration = Duration::from_millis(10);
