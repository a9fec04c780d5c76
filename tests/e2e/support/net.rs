//! Clients at the level of sockets, for tests of what a hostile or careless client can cost
//! the server: connections from another loopback address (127.0.0.2, …, which per-address
//! limits count apart from the rest), raw HTTP exchanges, WebSockets with chosen headers and
//! receive buffers, and the server's count of open connections.

use futures_util::{SinkExt, StreamExt};
use pandemonium_protocol::{ApiError, ClientMsg, ErrorCode, ServerMsg};
use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::{WebSocketStream, client_async};

use super::{TestApp, pass_time};

/// An address on the loopback network other than 127.0.0.1.
pub fn loopback(last: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
}

/// A TCP connection to the app from `from`, optionally with a small receive buffer.
pub async fn tcp_from(port: u16, from: IpAddr, receive_buffer: Option<u32>) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("a socket");
    if let Some(size) = receive_buffer {
        socket.set_recv_buffer_size(size).expect("set the buffer");
    }
    socket
        .bind((from, 0).into())
        .expect("bind a loopback address");
    socket
        .connect(([127, 0, 0, 1], port).into())
        .await
        .expect("connect")
}

pub type Socket = WebSocketStream<TcpStream>;

/// A WebSocket from `from`, with extra request headers.
pub async fn websocket(
    port: u16,
    from: IpAddr,
    headers: &[(&str, &str)],
    receive_buffer: Option<u32>,
) -> Result<Socket, u16> {
    let stream = tcp_from(port, from, receive_buffer).await;
    let mut request = format!("ws://127.0.0.1:{port}/ws")
        .into_client_request()
        .unwrap();
    for (name, value) in headers {
        request.headers_mut().insert(
            axum_header_name(name),
            value.parse().expect("a header value"),
        );
    }
    match client_async(request, stream).await {
        Ok((socket, _)) => Ok(socket),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            Err(response.status().as_u16())
        }
        Err(other) => panic!("the upgrade failed: {other}"),
    }
}

fn axum_header_name(name: &str) -> tokio_tungstenite::tungstenite::http::HeaderName {
    name.parse().expect("a header name")
}

pub async fn say(socket: &mut Socket, msg: &ClientMsg) {
    socket
        .send(Message::Text(serde_json::to_string(msg).unwrap().into()))
        .await
        .expect("send");
}

/// The next message from the server, or how the connection ended (its close code; 1006 when
/// it ended without one).
pub async fn hear(socket: &mut Socket) -> Result<ServerMsg, u16> {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("the server answers in time");
        match frame {
            Some(Ok(Message::Text(text))) => return Ok(serde_json::from_str(&text).unwrap()),
            Some(Ok(Message::Close(frame))) => return Err(frame.map_or(1005, |f| f.code.into())),
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return Err(1006),
        }
    }
}

/// Reads until the server closes; returns the close code.
pub async fn close_code(socket: &mut Socket) -> u16 {
    loop {
        if let Err(code) = hear(socket).await {
            return code;
        }
    }
}

pub fn hello(name: &str) -> ClientMsg {
    ClientMsg::Hello {
        token: None,
        name: Some(name.into()),
        patches: None,
        products: None,
    }
}

/// A raw HTTP/1.1 exchange from `from`: status, lower-cased headers and the body's bytes.
pub struct Raw {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Raw {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

pub async fn http(port: u16, from: IpAddr, request: &str) -> Raw {
    let mut stream = tcp_from(port, from, None).await;
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut raw))
        .await
        .expect("the server answers in time")
        .expect("read");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP response");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Raw {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
    }
}

pub async fn get(port: u16, from: IpAddr, path: &str, extra: &str) -> Raw {
    http(
        port,
        from,
        &format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{extra}\r\n"),
    )
    .await
}

pub async fn post(port: u16, from: IpAddr, path: &str, body: &str, token: Option<&str>) -> Raw {
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    http(
        port,
        from,
        &format!(
            "POST {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{auth}\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    )
    .await
}

pub fn api_code(raw: &Raw) -> ErrorCode {
    serde_json::from_slice::<ApiError>(&raw.body)
        .unwrap_or_else(|e| panic!("{} is not an ApiError: {e}", raw.status))
        .code
}

/// Open connections as the server counts them.
pub async fn open_connections(app: &TestApp) -> u64 {
    let metrics = app.http.get("/metrics").await.body;
    metrics
        .lines()
        .find_map(|l| l.strip_prefix("pandemonium_connections "))
        .and_then(|v| v.trim().parse().ok())
        .expect("the connections gauge")
}

/// Waits until the server counts at most `count` connections, time passing by `step` while
/// it waits (at most `steps` steps); false if it never does.
pub async fn connections_fall_to(app: &TestApp, count: u64, step: Duration, steps: u32) -> bool {
    for _ in 0..steps {
        if open_connections(app).await <= count {
            return true;
        }
        pass_time(step).await;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    open_connections(app).await <= count
}
