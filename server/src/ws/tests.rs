//! What an idle connection holds, and that the small read buffer still reads every message.

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

use super::READ_BUFFER_BYTES;
use super::connection::serve;
use crate::{Application, Config};

/// The size of what `f` returns, without calling it.
fn returned_size<F, A, B, C, D, E, R>(_: F) -> usize
where
    F: FnOnce(A, B, C, D, E) -> R,
{
    std::mem::size_of::<R>()
}

/// Every connection's task holds its future for as long as it is open, sized for the largest
/// state it can be in. Awaited inline, a hello's store call and the closing handshake made it
/// 5.4 KiB, a third of what an idle connection cost; boxed where they are awaited, they are
/// allocated only while they run.
#[test]
fn a_connections_task_is_sized_for_waiting_not_for_its_rare_messages() {
    let size = returned_size(serve);
    assert!(
        size <= 3 * 1024,
        "a connection's future is {size} bytes: is a rare path awaited inline again?"
    );
}

struct Server {
    port: u16,
    dir: std::path::PathBuf,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Server {
    async fn start() -> Server {
        let dir = std::env::temp_dir().join(format!("pdm-ws-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let config = Config::for_tests(format!("sqlite://{}/test.db", dir.display()));
        let app = Application::build(config).await.expect("the app starts");
        let port = app.port();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(app.run_until(async {
            let _ = stopped.await;
        }));
        Server {
            port,
            dir,
            stop: Some(stop),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The next text frame the server sends, as JSON.
async fn next_json<S>(socket: &mut S) -> serde_json::Value
where
    S: StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        match socket.next().await.expect("open").expect("a frame") {
            Message::Text(text) => return serde_json::from_str(&text).expect("JSON"),
            Message::Ping(_) | Message::Pong(_) => continue,
            other => panic!("expected a text frame, got {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_message_many_times_the_read_buffer_is_read_whole_and_so_is_the_next() {
    let server = Server::start().await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{}/ws", server.port))
            .await
            .expect("connects");

    // Eight buffers' worth in one message: read in several reads, answered once, as one
    // message (not JSON the server knows).
    let long = format!("{{\"type\":\"{}\"}}", "x".repeat(8 * READ_BUFFER_BYTES));
    socket.send(Message::Text(long.into())).await.expect("sent");
    let answer = next_json(&mut socket).await;
    assert_eq!(answer["type"], "error");
    assert_eq!(answer["code"], "malformed", "{answer}");

    // The buffer grew for it and still reads the short message after it.
    let hello = r#"{"type":"hello","name":"Lilith"}"#;
    socket
        .send(Message::Text(hello.into()))
        .await
        .expect("sent");
    let welcome = next_json(&mut socket).await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    assert_eq!(welcome["name"], "Lilith");
}
