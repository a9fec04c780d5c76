//! Three nodes on loopback behind a real HAProxy with the repository's own configuration
//! (`deploy/haproxy.cfg`), as `make cluster` runs them: the harness of the failover and
//! rolling-restart tests. Each node keeps its name and port across restarts, as a node of a
//! real deployment does.

use std::path::Path;
use std::time::Duration;

use tokio::process::{Child, Command};
use tokio::time::Instant;

use pandemonium_protocol::{ClientMsg, JoinRole, RoomCode, RoomSummary, ServerMsg};

use crate::play::request;
use crate::restart::{Process, launch_at};
use crate::support::private_postgres::free_port;
use crate::support::{Client, Http, TestDb};

/// A cluster of three nodes and HAProxy in front.
pub struct Front {
    pub db: TestDb,
    pub nodes: Vec<Node>,
    haproxy: Child,
    /// HAProxy's port: the only one clients use.
    pub port: u16,
}

pub struct Node {
    pub name: String,
    pub port: u16,
    pub process: Option<Process>,
}

/// Where HAProxy is: `None` (the test says it was skipped) where it is not installed, a
/// failure in CI, whose `.ci/run` installs it.
fn haproxy() -> Option<&'static str> {
    const PATHS: [&str; 2] = ["/usr/sbin/haproxy", "/usr/bin/haproxy"];
    let found = PATHS.into_iter().find(|p| std::path::Path::new(p).exists());
    if found.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "HAProxy is required in CI (.ci/run installs it)"
        );
        eprintln!("SKIPPED: HAProxy is not installed (apt-get install haproxy)");
    }
    found
}

impl Front {
    /// Starts the three nodes on `db` and HAProxy in front of them.
    pub async fn start(db: TestDb) -> Option<Front> {
        let haproxy_bin = haproxy()?;
        let mut nodes = Vec::new();
        for n in 1..=3 {
            let mut node = Node {
                name: format!("node{n}"),
                port: free_port(),
                process: None,
            };
            node.process = Some(node.launch_on(&db.url).await);
            nodes.push(node);
        }
        let port = free_port();
        let ports = [nodes[0].port, nodes[1].port, nodes[2].port];
        let haproxy = pandemonium_e2e::haproxy::start(Path::new(haproxy_bin), port, ports)
            .expect("HAProxy starts");
        let front = Front {
            db,
            nodes,
            haproxy,
            port,
        };
        front.wait_ready().await;
        Some(front)
    }

    /// Waits until HAProxy answers `/readyz` through to a node.
    async fn wait_ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        let http = Http::new(self.port);
        loop {
            if http.try_get("/readyz").await && http.get("/readyz").await.status == 200 {
                return;
            }
            assert!(Instant::now() < deadline, "HAProxy never answered /readyz");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub fn http(&self) -> Http {
        Http::new(self.port)
    }

    /// A new guest, through HAProxy; returns its token.
    pub async fn guest(&self, name: &str) -> String {
        let client = Client::guest(self.port, name).await;
        let token = client.token.clone();
        client.close().await;
        token
    }

    /// Opens a room through HAProxy, with the lobby's defaults: under `proposed` (as the web
    /// client does: on the node the code hashes to), or without (any node makes it).
    pub async fn open_room(
        &self,
        host: &str,
        proposed: Option<&str>,
        game: &str,
        seats: u8,
        bots: Vec<u8>,
        options: serde_json::Value,
    ) -> RoomCode {
        let path = match proposed {
            Some(code) => format!("/api/rooms?room={code}"),
            None => "/api/rooms".to_string(),
        };
        let response = self
            .http()
            .post(&path, &request(game, seats, bots, options), Some(host))
            .await;
        assert_eq!(response.status, 201, "{}", response.body);
        response.json::<RoomSummary>().code
    }

    /// The node that holds `room`'s lease now.
    pub async fn owner(&self, room: &RoomCode) -> String {
        super::lease_row(&self.db, &room.0)
            .await
            .and_then(|(node, _)| node)
            .expect("the room has a holder")
    }

    /// Sockets the nodes have relayed to another node, added up (`/metrics`).
    pub async fn sockets_forwarded(&self) -> u64 {
        let mut total = 0;
        for node in &self.nodes {
            let page = Http::new(node.port).get("/metrics").await.body;
            total += page
                .lines()
                .find_map(|l| l.strip_prefix("pandemonium_sockets_forwarded_total "))
                .and_then(|n| n.trim().parse::<u64>().ok())
                .expect("the node counts forwarded sockets");
        }
        total
    }

    fn node(&mut self, name: &str) -> &mut Node {
        self.nodes
            .iter_mut()
            .find(|n| n.name == name)
            .expect("a node of the cluster")
    }

    /// SIGKILL: the node dies with no chance to hand anything over.
    pub async fn kill(&mut self, name: &str) {
        let node = self.node(name);
        let mut process = node.process.take().expect("running");
        process.child.kill().await.expect("kill -9");
    }

    /// SIGTERM, waits for the node to stop, and starts it again under its name and port.
    pub async fn restart(&mut self, name: &str) {
        let node = self.node(name);
        let mut process = node.process.take().expect("running");
        let pid = process.child.id().expect("running").to_string();
        let status = Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .await
            .expect("kill runs");
        assert!(status.success());
        let exited = tokio::time::timeout(Duration::from_secs(20), process.child.wait())
            .await
            .expect("a node stops within 20 s of SIGTERM")
            .expect("waitable");
        assert!(exited.success(), "{name} stopped cleanly: {exited}");
        let db_url = self.db.url.clone();
        let node = self.node(name);
        node.process = Some(node.launch_on(&db_url).await);
    }

    pub async fn stop(mut self) {
        let _ = self.haproxy.kill().await;
        for node in &mut self.nodes {
            if let Some(mut process) = node.process.take() {
                let _ = process.child.kill().await;
            }
        }
        self.db.drop_database().await;
    }
}

impl Node {
    async fn launch_on(&self, url: &str) -> Process {
        let bind = format!("127.0.0.1:{}", self.port);
        launch_at(
            url,
            &bind,
            &[
                "--cluster",
                "--node-name",
                &self.name,
                "--trusted-proxy",
                "127.0.0.1",
                "--client-ip-header",
                "X-Forwarded-For",
                "--unlimited-address",
                "127.0.0.1",
            ],
        )
        .await
    }
}

/// How long a client that rejoined listens for the states of its resync.
const SETTLE: Duration = Duration::from_millis(300);

/// A seated player who plays through HAProxy and comes back by itself when its socket drops,
/// as the web client does: it reconnects on the room's URL, joins with the last version it
/// saw, and sends again, with its seq, an act that was not answered.
pub struct Player {
    pub token: String,
    pub room: RoomCode,
    front: u16,
    pub client: Client,
    /// Every act the server acked: (seq, action).
    pub acked: Vec<(u64, serde_json::Value)>,
}

/// What [`Player::play_one`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum Turn {
    /// An act acked.
    Acked,
    /// Nothing to do now (not this seat's turn, or the match is over).
    Idle,
}

impl Player {
    /// Connects `token` for `room` through HAProxy, joins and sits in `seat`, ready.
    pub async fn sit(front: &Front, token: &str, room: &RoomCode, seat: u8) -> Player {
        let mut client = Client::try_in_room(front.port, room, token)
            .await
            .expect("connects through HAProxy");
        client.join(room, JoinRole::Player).await;
        client.send(&ClientMsg::TakeSeat { seat }).await;
        client.room_where(|r| r.you == Some(seat)).await;
        client.send(&ClientMsg::Ready { ready: true }).await;
        client.room_where(|r| r.seats[seat as usize].ready).await;
        Player {
            token: token.to_string(),
            room: room.clone(),
            front: front.port,
            client,
            acked: Vec::new(),
        }
    }

    /// Plays one legal action if this seat has one (the first the state lists), and waits
    /// for its answer. A dropped socket is reconnected (within `patience`) and the act sent
    /// again with its seq, as the web client does.
    pub async fn play_one(&mut self, patience: Duration) -> Turn {
        let Some(state) = self.client.state.clone() else {
            return Turn::Idle;
        };
        let Some(action) = state.legal.first().cloned() else {
            return Turn::Idle;
        };
        if state.outcome.is_some() {
            return Turn::Idle;
        }
        self.client.seq += 1;
        let seq = self.client.seq;
        let deadline = Instant::now() + patience;
        loop {
            self.client
                .send_if_open(&ClientMsg::Act {
                    seq,
                    action: action.clone(),
                })
                .await;
            match self.answer(seq).await {
                Some(Ok(version)) => {
                    self.acked.push((seq, action));
                    // The state of the acked version follows the ack.
                    self.client.state_at_least(version).await;
                    return Turn::Acked;
                }
                // Refused (not this seat's turn after all, or the position moved on while
                // the socket was away): nothing was applied.
                Some(Err(_)) => return Turn::Idle,
                None => {
                    assert!(
                        Instant::now() < deadline,
                        "{} could not get act {seq} answered in {patience:?}",
                        self.client.name
                    );
                    self.reconnect(deadline).await;
                    // The position may have moved while away: choose again if so.
                    let still = self
                        .client
                        .state
                        .as_ref()
                        .is_some_and(|s| s.version == state.version);
                    if !still && self.room_answered(seq) {
                        return Turn::Idle;
                    }
                }
            }
        }
    }

    /// Whether the room says it has answered `seq` already (its snapshot's `last_seq`).
    fn room_answered(&self, seq: u64) -> bool {
        self.client
            .room
            .as_ref()
            .and_then(|r| r.last_seq)
            .is_some_and(|last| last >= seq)
    }

    /// The answer to `seq`; `None` if the socket dropped first.
    async fn answer(&mut self, seq: u64) -> Option<Result<u64, ()>> {
        loop {
            match self.client.try_next().await {
                Ok(ServerMsg::Ack { seq: s, version }) if s == seq => return Some(Ok(version)),
                Ok(ServerMsg::Reject { seq: s, .. }) if s == seq => return Some(Err(())),
                Ok(_) => continue,
                Err(_) => return None,
            }
        }
    }

    /// Connects again through HAProxy until the room answers a join, by `deadline`.
    pub async fn reconnect(&mut self, deadline: Instant) {
        let version = self.client.state.as_ref().map(|s| s.version);
        loop {
            assert!(
                Instant::now() < deadline,
                "{} could not get back into {}",
                self.client.name,
                self.room.0
            );
            if let Ok(mut client) = Client::try_in_room(self.front, &self.room, &self.token).await {
                client.seq = self.client.seq;
                client.state = self.client.state.clone();
                client
                    .send(&ClientMsg::Join {
                        room: self.room.clone(),
                        role: JoinRole::Player,
                        version,
                    })
                    .await;
                let joined = loop {
                    match client.try_next().await {
                        Ok(ServerMsg::Room(_)) => break true,
                        Ok(ServerMsg::Error { .. }) | Err(_) => break false,
                        Ok(_) => continue,
                    }
                };
                if joined {
                    // The resync: the states missed, or the current one, follow the room.
                    while let Some(Ok(_)) = client.try_next_within(SETTLE).await {}
                    self.client = client;
                    return;
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// The stored log of the match running (or finished) in `room`, as (seat, seq) of the
/// players' acts, in order.
pub async fn logged_acts(db: &TestDb, match_id: &str) -> Vec<(u8, Option<u64>, serde_json::Value)> {
    let store = pandemonium_server::store::Store::connect(&db.url)
        .await
        .unwrap();
    let stored = store
        .get_match(match_id)
        .await
        .unwrap()
        .expect("the match is stored");
    store.close().await;
    stored
        .log
        .into_iter()
        .map(|a| (a.seat, a.seq, a.action))
        .collect()
}

/// Every act a player saw acked is in the log exactly once, at its seat, with its seq.
pub fn assert_acked_once(log: &[(u8, Option<u64>, serde_json::Value)], seat: u8, player: &Player) {
    for (seq, action) in &player.acked {
        let found: Vec<_> = log
            .iter()
            .filter(|(s, q, _)| *s == seat && *q == Some(*seq))
            .collect();
        assert_eq!(
            found.len(),
            1,
            "seat {seat}'s acked act {seq} ({action}) is in the log once"
        );
        assert_eq!(
            &found[0].2, action,
            "seat {seat}'s act {seq} is the one acked"
        );
    }
}
