//! A minimal HTTP/1.1 client: enough for JSON requests to the app under test.

use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[derive(Debug, Clone)]
pub struct Http {
    port: u16,
}

#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub content_type: String,
    pub body: String,
}

impl Response {
    pub fn json<T: DeserializeOwned>(&self) -> T {
        serde_json::from_str(&self.body).unwrap_or_else(|e| {
            panic!(
                "status {}: {} is not the expected JSON: {e}",
                self.status, self.body
            )
        })
    }
}

impl Http {
    pub fn new(port: u16) -> Http {
        Http { port }
    }

    pub async fn get(&self, path: &str) -> Response {
        self.request("GET", path, None, None).await
    }

    pub async fn post<T: Serialize>(&self, path: &str, body: &T, token: Option<&str>) -> Response {
        let body = serde_json::to_string(body).expect("serialise");
        self.request("POST", path, Some(&body), token).await
    }

    pub async fn post_raw(&self, path: &str, body: &str) -> Response {
        self.request("POST", path, Some(body), None).await
    }

    /// A GET that tells whether the server answered at all (a stopped server refuses the
    /// connection, or closes it unanswered).
    pub async fn try_get(&self, path: &str) -> bool {
        let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)).await else {
            return false;
        };
        let request =
            format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        if stream.write_all(request.as_bytes()).await.is_err() {
            return false;
        }
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).await.is_ok() && raw.starts_with(b"HTTP/1.1 ")
    }

    /// A request with any method and no body.
    pub async fn send(&self, method: &str, path: &str) -> Response {
        self.request(method, path, None, None).await
    }

    async fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<&str>,
        token: Option<&str>,
    ) -> Response {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port))
            .await
            .expect("connect");
        let body = body.unwrap_or("");
        let auth = token
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{auth}\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).await.expect("write");
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).await.expect("read");
        let text = String::from_utf8_lossy(&raw).into_owned();
        let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP response");
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .expect("a status");
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(body)
        } else {
            body.to_string()
        };
        let content_type = head
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-type:")
                    .map(|v| v.trim().to_string())
            })
            .unwrap_or_default();
        Response {
            status,
            content_type,
            body,
        }
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(&rest[..size]);
        body = &rest[size + 2..];
    }
    out
}
