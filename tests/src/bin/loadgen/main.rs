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
//! `--postgres URL` keeps the store in PostgreSQL; `--cluster` runs three nodes on it behind
//! HAProxy (`servers` starts them).
//!
//! `--game race --seats 8 --rooms 1 --idle 0` is the real-time benchmark: eight seats of one
//! room acting as fast as the server answers.
//!
//! Every loop is bounded in count and time, and it stops by itself.
//!
//! `player` is one seat's client, `client` how it talks to the server, `commits` the store's
//! commits read from `/metrics`, `process` the server's CPU and memory from `/proc`.
//!
//! ```sh
//! cargo build --release -p pandemonium-e2e
//! ulimit -n 65536
//! target/release/pandemonium-loadgen --server target/release/pandemonium-test-server \
//!     --idle 10000 --rooms 200 --game demos --seats 4 --seconds 20
//! ```

mod client;
mod commits;
mod player;
mod process;
mod servers;

use clap::Parser;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use pandemonium_protocol::{ClientMsg, JoinRole};

use client::{hello, open_room, send};
use player::drive;
use servers::Servers;

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
    /// The server's `--patch-min-bytes`: the smallest state it patches (its own default when
    /// not given; `0` patches every state, to measure what patches cost).
    #[arg(long)]
    patch_min_bytes: Option<usize>,
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
    /// Keep the store in PostgreSQL, in a database made for the run on the server at this
    /// address (`postgres://postgres@127.0.0.1:5432`) and dropped after it; the database's
    /// own commits per second are reported.
    #[arg(long)]
    postgres: Option<String>,
    /// Three nodes in cluster mode behind HAProxy (`deploy/haproxy.cfg`), on `--postgres`;
    /// every client goes through HAProxy, and a room's sockets reach its node as the web
    /// client's do (`/ws?room=CODE`). CPU and memory are the three nodes' together.
    #[arg(long)]
    cluster: bool,
    /// The HAProxy binary, for `--cluster`.
    #[arg(long, default_value = "/usr/sbin/haproxy")]
    haproxy: PathBuf,
}

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

#[tokio::main]
async fn main() {
    let args = Args::parse();
    let dir = std::env::temp_dir().join(format!("pdm-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let servers = Servers::start(&args, &dir).await;
    let port = servers.port;

    // Phase 1: idle connections watching one room.
    let (watched, _watching_host) =
        open_room(port, &args.game, args.seats, &args.options, false).await;
    let before = servers.rss_kib();
    let mut idle = Vec::with_capacity(args.idle);
    let started = Instant::now();
    for i in 0..args.idle {
        let mut socket = hello(port, Some(&watched), &format!("idle{i}"), false).await;
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
    let after = servers.rss_kib();
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
            let mut socket = hello(port, Some(&code), &format!("p{seat}"), args.patches).await;
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
    let commits_before = servers.store_commits().await;
    let database_before = servers.database_commits().await;
    let cpu_before = servers.cpu_seconds();
    let haproxy_before = servers.haproxy_cpu_seconds();
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
    let cpu = servers.cpu_seconds() - cpu_before;
    let haproxy_cpu = servers
        .haproxy_cpu_seconds()
        .zip(haproxy_before)
        .map(|(after, before)| after - before);
    let commits = servers.store_commits().await;
    let database = servers.database_commits().await;
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
    if let Some(haproxy) = haproxy_cpu {
        println!(
            "HAProxy CPU: {haproxy:.2} s = {:.1} µs per accepted action (beside the servers')",
            haproxy * 1e6 / latencies.len().max(1) as f64
        );
    }
    println!("store: {}", commits.since(&commits_before, latencies.len()));
    if let (Some(before), Some(after)) = (database_before, database) {
        println!(
            "database: {} transactions committed = {:.0}/s (PostgreSQL's count, heartbeats and the lobby included)",
            after - before,
            (after - before) as f64 / took
        );
    }
    servers.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}
