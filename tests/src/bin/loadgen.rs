//! A load generator for the Pandemonium server, on loopback only.
//!
//! It starts the server binary itself (so it can read the process's memory), then:
//! 1. opens `--idle` connections that say hello and watch a room, and reports the server's
//!    resident memory per idle connection;
//! 2. plays `--rooms` matches of `--game` at once, every seat driven by a client that sends the
//!    first legal action as soon as it may act, and reports accepted actions per second, the
//!    action-to-ack latency percentiles and the server's CPU per accepted action. Only actions
//!    the server accepted count: a client acts again only once the state that follows its own
//!    ack has arrived, and any reject is reported apart. It also reports the store's commits
//!    over the phase (from `/metrics`): how many actions a commit held, and how slow the
//!    slowest were, so a tail that is the disk's shows as such.
//!
//! `--game race --seats 8 --rooms 1 --idle 0` is the real-time benchmark: eight seats of one
//! room acting as fast as the server answers.
//!
//! Every loop is bounded in count and time, and it stops by itself.
//!
//! ```sh
//! cargo build --release -p pandemonium-e2e
//! ulimit -n 65536
//! target/release/pandemonium-loadgen --server target/release/pandemonium-test-server \
//!     --idle 10000 --rooms 200 --game demos --seats 4 --seconds 20
//! ```

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

use pandemonium_protocol::patch::{self, PatchMismatch, PatchOp};
use pandemonium_protocol::{ClientMsg, CreateRoom, GameState, JoinRole, RoomCode, ServerMsg};

#[derive(Debug, Parser)]
struct Args {
    /// The server binary to start (it must print "listening on port N").
    #[arg(long)]
    server: PathBuf,
    /// Idle connections to hold open.
    #[arg(long, default_value_t = 1000)]
    idle: usize,
    /// Matches to play at once.
    #[arg(long, default_value_t = 50)]
    rooms: usize,
    #[arg(long, default_value = "twenty_one")]
    game: String,
    #[arg(long, default_value_t = 2)]
    seats: u8,
    #[arg(long, default_value = "{}")]
    options: String,
    /// How long the action phase runs at most.
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// Players ask for `patch` frames (as the web client does) instead of whole states.
    #[arg(long)]
    patches: bool,
    /// Pin the server to this CPU core and the load generator to the others (with `taskset`),
    /// so the generator's work does not land on the server's core.
    #[arg(long)]
    server_core: Option<usize>,
    /// Actions per second per room, spread over its seats (each seat acts at most once per
    /// seats/rate seconds): an offered load, as people at a table make. Without it every seat
    /// acts as soon as it may (a closed loop, which measures capacity: there the latency is
    /// the queue the players themselves keep full).
    #[arg(long)]
    rate: Option<f64>,
}

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

#[tokio::main]
async fn main() {
    let args = Args::parse();
    let dir = std::env::temp_dir().join(format!("pdm-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut command = match args.server_core {
        Some(core) => {
            pin_self_away_from(core);
            let mut c = tokio::process::Command::new("taskset");
            c.args(["-c", &core.to_string()]).arg(&args.server);
            c
        }
        None => tokio::process::Command::new(&args.server),
    };
    let mut server = command
        .args(["--bind", "127.0.0.1:0", "--static-dir", "/nonexistent"])
        .args([
            "--database-url",
            &format!("sqlite://{}/load.db", dir.display()),
        ])
        .args(["--rate-burst", "1000", "--rate-per-second", "1000"])
        // Every simulated player comes from 127.0.0.1: lift the per-address caps and quotas.
        .args(["--max-connections", "100000"])
        .args(["--max-connections-per-ip", "100000"])
        .args(["--guests-per-minute", "1000000"])
        .args(["--rooms-per-minute", "1000000"])
        .args(["--lookups-per-minute", "1000000"])
        .args(["--max-rooms", "100000"])
        // The idle connections all watch one room.
        .args(["--max-spectators-per-room", "1000000"])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start the server");
    let pid = server.id().expect("a pid");
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let port: u16 = loop {
        let line = lines
            .next_line()
            .await
            .unwrap()
            .expect("the server prints its port");
        if let Some(p) = line.strip_prefix("listening on port ") {
            break p.trim().parse().unwrap();
        }
    };
    // Keep reading what the server logs, so it never writes into a closed pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    println!("server pid {pid} on port {port}");

    // Phase 1: idle connections watching one room.
    let (watched, _watching_host) =
        open_room(port, &args.game, args.seats, &args.options, false).await;
    let before = rss_kib(pid);
    let mut idle = Vec::with_capacity(args.idle);
    let started = Instant::now();
    for i in 0..args.idle {
        let mut socket = hello(port, &format!("idle{i}"), false).await;
        send(
            &mut socket,
            &ClientMsg::Join {
                room: watched.clone(),
                role: JoinRole::Spectator,
                version: None,
            },
        )
        .await;
        idle.push(socket);
        if started.elapsed() > Duration::from_secs(300) {
            println!(
                "stopped opening idle connections after 300 s at {}",
                idle.len()
            );
            break;
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = rss_kib(pid);
    let per = (after.saturating_sub(before)) as f64 / idle.len().max(1) as f64;
    println!(
        "idle: {} connections; server RSS {before} KiB -> {after} KiB: {per:.1} KiB per idle connection",
        idle.len()
    );
    drop(idle);

    // Phase 2: matches played flat out.
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let mut players = Vec::new();
    for _ in 0..args.rooms {
        let (code, host) =
            open_room(port, &args.game, args.seats, &args.options, args.patches).await;
        let mut seats = vec![host];
        for seat in 1..args.seats {
            let mut socket = hello(port, &format!("p{seat}"), args.patches).await;
            send(
                &mut socket,
                &ClientMsg::Join {
                    room: code.clone(),
                    role: JoinRole::Player,
                    version: None,
                },
            )
            .await;
            send(&mut socket, &ClientMsg::TakeSeat { seat }).await;
            send(&mut socket, &ClientMsg::Ready { ready: true }).await;
            seats.push(socket);
        }
        players.push(seats);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let commits_before = store_commits(port).await;
    let cpu_before = cpu_seconds(pid);
    let phase = Instant::now();
    let mut tasks = Vec::new();
    for mut seats in players {
        send(&mut seats[0], &ClientMsg::Start).await;
        for (seat, socket) in seats.into_iter().enumerate() {
            let pace = args
                .rate
                .map(|rate| Duration::from_secs_f64(f64::from(args.seats) / rate));
            tasks.push(tokio::spawn(drive(
                socket,
                seat as u8,
                deadline,
                pace,
                args.patches,
            )));
        }
    }
    let mut latencies = Vec::new();
    let mut rejected = 0;
    let mut bytes = 0;
    for task in tasks {
        let played = task.await.unwrap_or_default();
        latencies.extend(played.accepted);
        rejected += played.rejected;
        bytes += played.bytes;
    }
    let took = phase.elapsed().as_secs_f64();
    let cpu = cpu_seconds(pid) - cpu_before;
    let commits = store_commits(port).await;
    latencies.sort();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    println!(
        "accepted actions: {} in {took:.1} s = {:.0}/s ({rejected} rejected, not counted); action-to-ack latency p50 {:?} p99 {:?} max {:?}",
        latencies.len(),
        latencies.len() as f64 / took,
        pct(0.50),
        pct(0.99),
        latencies.last().copied().unwrap_or_default()
    );
    println!(
        "frames to players: {bytes} bytes = {:.0} bytes per accepted action ({})",
        bytes as f64 / latencies.len().max(1) as f64,
        if args.patches {
            "patches"
        } else {
            "whole states"
        }
    );
    println!(
        "server CPU: {cpu:.2} s for {} accepted actions = {:.1} µs per accepted action (views, storage and sockets included)",
        latencies.len(),
        cpu * 1e6 / latencies.len().max(1) as f64
    );
    // A disk that stalls on a sync shows here first: every action waits for its commit.
    println!("store: {}", commits.since(&commits_before, latencies.len()));
    let _ = server.kill().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// What one seat's client measured: the ack latency of each accepted action, and how many
/// of its actions were refused.
#[derive(Debug, Default)]
struct Played {
    accepted: Vec<Duration>,
    rejected: usize,
    /// Bytes of every message the server sent this seat.
    bytes: usize,
}

/// Plays one seat: whenever this seat may act on a state newer than its last accepted action
/// (and, with a `pace`, no sooner than `pace` after its previous action), sends the first legal
/// action and times the answer.
async fn drive(
    mut socket: Socket,
    seat: u8,
    deadline: Instant,
    pace: Option<Duration>,
    patches: bool,
) -> Played {
    let mut played = Played::default();
    let mut seq = 0;
    let mut sent: Option<(u64, Instant)> = None;
    let mut latest: Option<Seen> = None;
    // With patches: the state they apply to.
    let mut document: Option<Document> = None;
    // The version our last action produced: act again only on a state at least that new.
    let mut caught_up_at = 0;
    let mut version_acted = None;
    // Paced seats start at a random point of their period, so rooms do not act in step.
    let mut next_at =
        Instant::now() + pace.map_or(Duration::ZERO, |p| p.mul_f64(rand_fraction(seat)));
    while Instant::now() < deadline {
        let may_act = sent.is_none()
            && latest.as_ref().is_some_and(|seen| {
                seen.version >= caught_up_at
                    && seen.to_act.contains(&seat)
                    && version_acted != Some(seen.version)
                    && seen.first_legal.is_some()
            });
        if may_act && Instant::now() >= next_at {
            let seen = latest.as_ref().expect("a state to act on");
            seq += 1;
            version_acted = Some(seen.version);
            let now = Instant::now();
            sent = Some((seq, now));
            next_at = now + pace.unwrap_or_default();
            let action = seen.first_legal.clone().expect("a legal action");
            send(&mut socket, &ClientMsg::Act { seq, action }).await;
            continue;
        }
        let wake = tokio::time::sleep_until(next_at.into());
        let incoming = tokio::select! {
            incoming = tokio::time::timeout(Duration::from_secs(5), socket.next()) => incoming,
            _ = wake, if may_act => continue,
        };
        let Ok(Some(Ok(Message::Text(text)))) = incoming else {
            break;
        };
        played.bytes += text.len();
        // Whole states are most of what arrives: without patches to apply, read only what
        // acting needs, so the generator's own parsing does not become the measured latency.
        if !patches && let Some(seen) = glance_at_state(&text) {
            if seen.over {
                break;
            }
            latest = Some(seen);
            continue;
        }
        let Ok(msg) = serde_json::from_str::<ServerMsg>(&text) else {
            continue;
        };
        let seen = match msg {
            ServerMsg::Ack { seq: s, version } if sent.is_some_and(|(p, _)| p == s) => {
                played
                    .accepted
                    .push(sent.take().expect("in flight").1.elapsed());
                caught_up_at = version;
                continue;
            }
            ServerMsg::Reject { seq: s, .. } if sent.is_some_and(|(p, _)| p == s) => {
                played.rejected += 1;
                sent = None;
                continue;
            }
            ServerMsg::State(state) => {
                if patches {
                    document = Some(Document::of(&state));
                }
                Seen::of(&state)
            }
            ServerMsg::Patch { version, base, ops } => {
                let Some(document) = &mut document else {
                    panic!("seat {seat}: a patch before any state");
                };
                if let Err(mismatch) = document.apply(version, base, &ops) {
                    panic!("seat {seat}: a patch that does not apply: {mismatch}");
                }
                document.seen()
            }
            _ => continue,
        };
        if seen.over {
            break;
        }
        latest = Some(seen);
    }
    played
}

/// What a seat acts on, read from a state.
struct Seen {
    version: u64,
    to_act: Vec<u8>,
    /// The action the seat sends: the first legal one.
    first_legal: Option<serde_json::Value>,
    /// Whether the match is over.
    over: bool,
}

impl Seen {
    fn of(state: &GameState) -> Seen {
        Seen {
            version: state.version,
            to_act: state.to_act.clone(),
            first_legal: state.legal.first().cloned(),
            over: state.outcome.is_some(),
        }
    }
}

/// A state as the document its patches apply to: its body (`{view, to_act, legal,
/// deadline_ms, outcome}`) kept as JSON and patched in place, read only for what acting needs.
/// A state rebuilt from it after each patch would be written out and read back whole, twice
/// per patch: the generator's own work then outweighed the server's.
struct Document {
    version: u64,
    body: serde_json::Value,
}

impl Document {
    fn of(state: &GameState) -> Document {
        let mut body = serde_json::to_value(state).expect("states serialise");
        if let serde_json::Value::Object(members) = &mut body {
            members.remove("version");
        }
        Document {
            version: state.version,
            body,
        }
    }

    fn apply(&mut self, version: u64, base: u64, ops: &[PatchOp]) -> Result<(), PatchMismatch> {
        if self.version != base {
            return Err(PatchMismatch(format!("base version {base}")));
        }
        patch::apply(&mut self.body, ops)?;
        self.version = version;
        Ok(())
    }

    fn seen(&self) -> Seen {
        let to_act = self.body["to_act"].as_array().map_or(Vec::new(), |seats| {
            seats
                .iter()
                .filter_map(|seat| seat.as_u64().and_then(|s| u8::try_from(s).ok()))
                .collect()
        });
        Seen {
            version: self.version,
            to_act,
            first_legal: self.body["legal"].get(0).cloned(),
            over: !self.body["outcome"].is_null(),
        }
    }
}

/// A `state` frame read for acting on it: its view skipped, not built.
fn glance_at_state(text: &str) -> Option<Seen> {
    /// The fields of a `state` message a player acts on; unknown fields (`type`, `view`) are
    /// skipped without being built.
    #[derive(serde::Deserialize)]
    struct Glance {
        version: u64,
        to_act: Vec<u8>,
        legal: Vec<serde_json::Value>,
        outcome: Option<pandemonium_protocol::Outcome>,
    }
    // The server writes `type` first; anything else takes the full parse.
    if !text.starts_with(r#"{"type":"state","#) {
        return None;
    }
    let glance: Glance = serde_json::from_str(text).ok()?;
    Some(Seen {
        version: glance.version,
        to_act: glance.to_act,
        first_legal: glance.legal.into_iter().next(),
        over: glance.outcome.is_some(),
    })
}

/// A fraction in [0, 1) that differs from process to process and seat to seat (no RNG crate
/// needed for spreading start times).
fn rand_fraction(seat: u8) -> f64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u8(seat);
    (hasher.finish() % 1_000_000) as f64 / 1_000_000.0
}

async fn hello(port: u16, name: &str, patches: bool) -> Socket {
    let (mut socket, _) = connect_async(format!("ws://127.0.0.1:{port}/ws"))
        .await
        .expect("connect");
    send(
        &mut socket,
        &ClientMsg::Hello {
            token: None,
            name: Some(name.into()),
            patches: Some(patches),
            // Like the web client, it reads the `products` operation.
            products: Some(patches),
        },
    )
    .await;
    socket
}

async fn send(socket: &mut Socket, msg: &ClientMsg) {
    let _ = socket
        .send(Message::Text(serde_json::to_string(msg).unwrap().into()))
        .await;
}

/// Creates a room with a host connection seated at 0.
async fn open_room(
    port: u16,
    game: &str,
    seats: u8,
    options: &str,
    patches: bool,
) -> (RoomCode, Socket) {
    let mut host = hello(port, "host", patches).await;
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
    let response = http_post(port, "/api/rooms", &body, &token).await;
    let summary: pandemonium_protocol::RoomSummary =
        serde_json::from_str(response.split("\r\n\r\n").nth(1).unwrap_or_default())
            .expect("a room");
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
async fn http(port: u16, request: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut out = String::new();
    stream.read_to_string(&mut out).await.unwrap();
    out
}

/// The server's store commit histogram (`/metrics`): the count of commits, the seconds they
/// took in all, and the cumulative count at or under each bucket's bound.
#[derive(Debug, Default)]
struct Commits {
    count: f64,
    seconds: f64,
    buckets: Vec<(String, f64)>,
}

const COMMITS: &str = "pandemonium_store_commit_seconds";

async fn store_commits(port: u16) -> Commits {
    let page = http(
        port,
        "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    )
    .await;
    Commits::read(&page)
}

impl Commits {
    /// Reads the histogram from a Prometheus text page.
    fn read(page: &str) -> Commits {
        let mut commits = Commits::default();
        for line in page.lines() {
            let Some((series, value)) = line.rsplit_once(' ') else {
                continue;
            };
            let Ok(value) = value.parse::<f64>() else {
                continue;
            };
            let Some(rest) = series.strip_prefix(COMMITS) else {
                continue;
            };
            match rest {
                "_count" => commits.count = value,
                "_sum" => commits.seconds = value,
                _ => {
                    if let Some(bound) = rest
                        .strip_prefix("_bucket{le=\"")
                        .and_then(|b| b.strip_suffix("\"}"))
                    {
                        commits.buckets.push((bound.to_string(), value));
                    }
                }
            }
        }
        commits
    }

    /// How many commits took at most the bucket `bound` (seconds, as the page writes it).
    fn at_most(&self, bound: &str) -> f64 {
        self.buckets
            .iter()
            .find(|(b, _)| b == bound)
            .map_or(0.0, |(_, n)| *n)
    }

    /// What was committed between `before` and `self`, in one line.
    fn since(&self, before: &Commits, actions: usize) -> String {
        let count = self.count - before.count;
        if count <= 0.0 {
            return "no commits".into();
        }
        let within = |bound: &str| self.at_most(bound) - before.at_most(bound);
        // The smallest bound every commit of the phase came in under.
        let slowest = self
            .buckets
            .iter()
            .find(|(bound, _)| within(bound) >= count)
            .map_or("?", |(bound, _)| bound.as_str());
        format!(
            "{count:.0} commits ({:.2} accepted actions per commit), {:.3} ms on average; over 10 ms: {:.0}, over 100 ms: {:.0}; the slowest under {slowest} s",
            actions as f64 / count,
            (self.seconds - before.seconds) * 1e3 / count,
            count - within("0.01"),
            count - within("0.1"),
        )
    }
}

/// Moves this process off `core` (onto every other core), with `taskset`.
fn pin_self_away_from(core: usize) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let others: Vec<String> = (0..cores)
        .filter(|&c| c != core)
        .map(|c| c.to_string())
        .collect();
    if others.is_empty() {
        println!("only one core: the load generator shares it with the server");
        return;
    }
    let pinned = std::process::Command::new("taskset")
        .args(["-a", "-c", "-p", &others.join(",")])
        .arg(std::process::id().to_string())
        .stdout(Stdio::null())
        .status();
    match pinned {
        Ok(status) if status.success() => {
            println!(
                "server on core {core}, load generator on cores {}",
                others.join(",")
            )
        }
        _ => println!("could not pin the load generator (taskset): it may share the server's core"),
    }
}

/// CPU time (user + system) a process has used, in seconds.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which may contain spaces) start at field 3.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest)
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15; `fields` starts at field 3. Ticks are 1/100 s here.
    (ticks(11) + ticks(12)) / 100.0
}

/// The resident set size of a process, in KiB.
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(count: u32, sum: f64, buckets: [u32; 3]) -> String {
        format!(
            "# TYPE pandemonium_action_latency_seconds histogram\n\
             pandemonium_action_latency_seconds_count 999\n\
             # TYPE {COMMITS} histogram\n\
             {COMMITS}_bucket{{le=\"0.01\"}} {}\n\
             {COMMITS}_bucket{{le=\"0.1\"}} {}\n\
             {COMMITS}_bucket{{le=\"1\"}} {}\n\
             {COMMITS}_bucket{{le=\"+Inf\"}} {count}\n\
             {COMMITS}_sum {sum}\n\
             {COMMITS}_count {count}\n",
            buckets[0], buckets[1], buckets[2]
        )
    }

    #[test]
    fn the_store_line_tells_the_phase_s_commits_apart_from_those_before() {
        let before = Commits::read(&page(10, 0.01, [10, 10, 10]));
        let after = Commits::read(&page(110, 0.51, [107, 109, 110]));
        assert_eq!(after.count, 110.0);
        assert_eq!(
            after.since(&before, 250),
            "100 commits (2.50 accepted actions per commit), 5.000 ms on average; \
             over 10 ms: 3, over 100 ms: 1; the slowest under 1 s"
        );
        assert_eq!(before.since(&before, 0), "no commits");
    }
}
