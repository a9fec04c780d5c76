//! Talking to the server as a client does: a WebSocket that says hello, a room opened over
//! HTTP, and plain HTTP/1.1 requests.

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

use pandemonium_protocol::{ClientMsg, CreateRoom, JoinRole, RoomCode, ServerMsg};

use crate::Socket;

/// A new guest called `name`, connected for room `room` (`/ws?room=CODE`, as the web client
/// connects: a load balancer routes on it) or for none.
pub async fn hello(port: u16, room: Option<&RoomCode>, name: &str, patches: bool) -> Socket {
    hello_as(port, room, None, name, patches).await
}

async fn hello_as(
    port: u16,
    room: Option<&RoomCode>,
    token: Option<String>,
    name: &str,
    patches: bool,
) -> Socket {
    let query = room.map_or(String::new(), |room| format!("?room={}", room.0));
    let (mut socket, _) = connect_async(format!("ws://127.0.0.1:{port}/ws{query}"))
        .await
        .expect("connect");
    send(
        &mut socket,
        &ClientMsg::Hello {
            token,
            name: Some(name.into()),
            patches: Some(patches),
            // Like the web client, it reads the `products` operation.
            products: Some(patches),
        },
    )
    .await;
    socket
}

pub async fn send(socket: &mut Socket, msg: &ClientMsg) {
    let _ = socket
        .send(Message::Text(serde_json::to_string(msg).unwrap().into()))
        .await;
}

/// Creates a room with a host connection seated at 0.
pub async fn open_room(
    port: u16,
    game: &str,
    seats: u8,
    options: &str,
    patches: bool,
) -> (RoomCode, Socket) {
    let mut host = hello(port, None, "host", patches).await;
    let token = loop {
        if let Some(Ok(Message::Text(text))) = host.next().await
            && let Ok(ServerMsg::Welcome {
                token: Some(token), ..
            }) = serde_json::from_str(&text)
        {
            break token;
        }
    };
    let request = CreateRoom {
        game: game.into(),
        options: serde_json::from_str(options).expect("options are JSON"),
        seats,
        bots: vec![],
        public: false,
        turn_seconds: None,
        grace_seconds: None,
    };
    let body = serde_json::to_string(&request).unwrap();
    // A code of its own proposing, as the web client does: behind a balancer the room is
    // made on the node its sockets reach.
    let path = format!("/api/rooms?room={}", propose_code());
    let response = http_post(port, &path, &body, &token).await;
    let summary: pandemonium_protocol::RoomSummary =
        serde_json::from_str(response.split("\r\n\r\n").nth(1).unwrap_or_default())
            .expect("a room");
    // The host comes back on the room's URL, which reaches the room's node.
    let _ = host.close(None).await;
    let mut host = hello_as(port, Some(&summary.code), Some(token), "host", patches).await;
    send(
        &mut host,
        &ClientMsg::Join {
            room: summary.code.clone(),
            role: JoinRole::Player,
            version: None,
        },
    )
    .await;
    send(&mut host, &ClientMsg::TakeSeat { seat: 0 }).await;
    (summary.code, host)
}

/// A random room code (the server draws its own if this one was ever used).
fn propose_code() -> String {
    use std::hash::{BuildHasher, RandomState};
    let alphabet = RoomCode::ALPHABET;
    // 64 random bits hold 13 letters of 27: enough for one code.
    let mut bits = RandomState::new().hash_one(std::time::Instant::now());
    (0..RoomCode::LEN)
        .map(|_| {
            let c = alphabet[(bits % alphabet.len() as u64) as usize] as char;
            bits /= alphabet.len() as u64;
            c
        })
        .collect()
}

async fn http_post(port: u16, path: &str, body: &str, token: &str) -> String {
    http(
        port,
        &format!(
            "POST {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    )
    .await
}

/// Sends one HTTP/1.1 request and reads the whole answer (the request asks to close).
pub async fn http(port: u16, request: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut out = String::new();
    stream.read_to_string(&mut out).await.unwrap();
    out
}
