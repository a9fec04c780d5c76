//! Passing a socket on to the node that holds its room (cluster mode): the client's upgrade
//! request goes to the holder as it came, with the client's address in the forwarded header
//! (or a PROXY protocol line) that the holder believes from a trusted proxy, and with the
//! holder's answer the client is upgraded; from then on the two connections are joined byte
//! for byte. The holder speaks WebSocket with the client itself (pings, close codes, the
//! resync after a reconnect); this node only copies.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderName, StatusCode, header};
use axum::response::{IntoResponse, Response};
use hyper::upgrade::OnUpgrade;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::route::FORWARDED_BY;
use crate::app::AppState;
use crate::error::AppError;
use crate::http::Peer;

/// How long the holder has to answer the upgrade.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(5);

/// The longest answer head read from the holder.
const MAX_HEAD: usize = 16 * 1024;

/// Each direction's copy buffer: frames in play are a few hundred bytes to a few KiB.
const COPY_BUFFER: usize = 4 * 1024;

/// Headers the holder's answer carries to the client.
const ANSWER_HEADERS: [HeaderName; 5] = [
    header::UPGRADE,
    header::CONNECTION,
    header::SEC_WEBSOCKET_ACCEPT,
    header::SEC_WEBSOCKET_PROTOCOL,
    header::SEC_WEBSOCKET_EXTENSIONS,
];

/// Sends `request` on to the holder at the other end of `holder`, and answers the client
/// with what the holder answered; on a 101 the two are joined until either side closes.
pub(super) async fn forward(
    request: Request,
    mut holder: TcpStream,
    client: IpAddr,
    peer: Peer,
    state: &AppState,
) -> Response {
    let (mut parts, _) = request.into_parts();
    let Some(on_upgrade) = parts.extensions.remove::<OnUpgrade>() else {
        return StatusCode::UPGRADE_REQUIRED.into_response();
    };
    let head = request_head(&parts, client, holder.peer_addr().ok(), state);
    let answer = async {
        holder.write_all(&head).await?;
        read_answer(&mut holder).await
    };
    let (status, headers, early) = match tokio::time::timeout(ANSWER_TIMEOUT, answer).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(error)) => {
            tracing::warn!(%error, "a room's holder failed to take a socket passed on");
            return AppError::Unavailable.into_response();
        }
        Err(_) => {
            tracing::warn!("a room's holder did not answer a socket passed on in time");
            return AppError::Unavailable.into_response();
        }
    };
    if status != StatusCode::SWITCHING_PROTOCOLS {
        // The holder refused it (origin, a cap, shutting down): the client hears the same.
        return status.into_response();
    }
    let mut response = Response::new(Body::empty());
    *response.status_mut() = status;
    for (name, value) in headers {
        response.headers_mut().append(name, value);
    }
    if let Some(node) = state.store.node() {
        node.counters()
            .sockets_forwarded
            .fetch_add(1, Ordering::Relaxed);
    }
    // A live player's connection: never the one dropped to make room for another.
    peer.greeted();
    tokio::spawn(async move {
        let upgraded = match on_upgrade.await {
            Ok(upgraded) => upgraded,
            Err(error) => {
                tracing::debug!(%error, "a client left before its socket was passed on");
                return;
            }
        };
        let mut client = TokioIo::new(upgraded);
        if !early.is_empty() && client.write_all(&early).await.is_err() {
            return;
        }
        let ended = tokio::io::copy_bidirectional_with_sizes(
            &mut client,
            &mut holder,
            COPY_BUFFER,
            COPY_BUFFER,
        )
        .await;
        tracing::debug!(?ended, "a socket passed on ended");
        // Held until the end: the connection counts against the caps while it lives.
        drop(peer);
    });
    response
}

/// The client's request as the holder gets it: every header as it came, but the client's
/// address in this node's words, and this node's mark (see [`FORWARDED_BY`]).
fn request_head(
    parts: &axum::http::request::Parts,
    client: IpAddr,
    holder: Option<SocketAddr>,
    state: &AppState,
) -> Vec<u8> {
    let network = &state.config.network;
    let ip_header = network
        .client_ip_header
        .as_deref()
        .and_then(|name| HeaderName::try_from(name).ok());
    let mut head = Vec::with_capacity(1024);
    // A holder behind `--proxy-protocol` expects one from its trusted peers, this node among
    // them.
    if network.proxy_protocol
        && let Some(holder) = holder
    {
        let port = holder.port();
        let line = match (client, holder.ip()) {
            (IpAddr::V4(client), IpAddr::V4(to)) => {
                format!("PROXY TCP4 {client} {to} 0 {port}\r\n")
            }
            (client, to) => format!("PROXY TCP6 {} {} 0 {port}\r\n", v6(client), v6(to)),
        };
        head.extend_from_slice(line.as_bytes());
    }
    let target = parts
        .uri
        .path_and_query()
        .map_or("/ws", |target| target.as_str());
    head.extend_from_slice(format!("GET {target} HTTP/1.1\r\n").as_bytes());
    for (name, value) in &parts.headers {
        if Some(name) == ip_header.as_ref() || name.as_str() == FORWARDED_BY {
            continue;
        }
        head.extend_from_slice(name.as_str().as_bytes());
        head.extend_from_slice(b": ");
        head.extend_from_slice(value.as_bytes());
        head.extend_from_slice(b"\r\n");
    }
    if let Some(name) = &ip_header {
        head.extend_from_slice(format!("{name}: {client}\r\n").as_bytes());
    }
    let node = state.store.node().map_or("", |node| node.name());
    head.extend_from_slice(format!("{FORWARDED_BY}: {node}\r\n\r\n").as_bytes());
    head
}

fn v6(ip: IpAddr) -> std::net::Ipv6Addr {
    match ip {
        IpAddr::V4(v4) => v4.to_ipv6_mapped(),
        IpAddr::V6(v6) => v6,
    }
}

type Answer = (
    StatusCode,
    Vec<(HeaderName, axum::http::HeaderValue)>,
    Vec<u8>,
);

/// Reads the holder's answer head: its status, the headers the client needs, and any bytes
/// that came after the head (the holder's first frames).
async fn read_answer(holder: &mut TcpStream) -> std::io::Result<Answer> {
    let mut buffer = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    loop {
        let read = holder.read(&mut chunk).await?;
        if read == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        buffer.extend_from_slice(&chunk[..read]);
        let mut headers = [httparse::EMPTY_HEADER; 32];
        let mut answer = httparse::Response::new(&mut headers);
        match answer.parse(&buffer) {
            Ok(httparse::Status::Complete(length)) => {
                let status = StatusCode::from_u16(answer.code.unwrap_or(502))
                    .unwrap_or(StatusCode::BAD_GATEWAY);
                let kept = answer
                    .headers
                    .iter()
                    .filter_map(|h| {
                        let name = HeaderName::try_from(h.name).ok()?;
                        ANSWER_HEADERS.contains(&name).then_some(())?;
                        let value = axum::http::HeaderValue::from_bytes(h.value).ok()?;
                        Some((name, value))
                    })
                    .collect();
                return Ok((status, kept, buffer[length..].to_vec()));
            }
            Ok(httparse::Status::Partial) if buffer.len() < MAX_HEAD => {}
            Ok(httparse::Status::Partial) | Err(_) => {
                return Err(std::io::ErrorKind::InvalidData.into());
            }
        }
    }
}
