//! A PostgreSQL outage under play, with real processes: two nodes on a database server of the
//! test's own (the shared one must never stop), a match playing on each, and the database
//! stopped for a minute. Meanwhile the nodes keep their rooms in memory and refuse
//! acts with `storage_unavailable`, never acking what they did not store; once it is back the
//! same sockets play on (no page reload), and the stored log holds every acked action once.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;

use pandemonium_protocol::{ChatChannel, ClientMsg, RoomCode, ServerMsg};
use pandemonium_server::store::{MatchStatus, Store};

use super::lease_row;
use crate::play::{open_room, sit, start};
use crate::restart::{Process, launch_with};
use crate::support::private_postgres::PrivatePostgres;
use crate::support::ws::{Closed, reason};
use crate::support::{Client, Http, TestApp, TestDb};

/// How long the database is away.
const OUTAGE: Duration = Duration::from_secs(60);
/// How often a player tries again during the outage.
const TRY_EVERY: Duration = Duration::from_secs(4);
/// How soon after the database is back an act must be acked again.
const RESUMED_WITHIN: Duration = Duration::from_secs(10);

async fn cluster_node(db: &TestDb, name: &str) -> Process {
    launch_with(db, &["--cluster", "--node-name", name]).await
}

/// What the server said to an act.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    Acked(u64),
    Refused(String),
}

/// An action some client saw acked: where it must be in the stored log.
#[derive(Debug, Clone, PartialEq)]
struct Acked {
    version: u64,
    seat: u8,
    seq: u64,
    action: Value,
}

/// A seated player that acts as a real client does: each act under a new seq (a refused one
/// goes again under the next), and when its node closes the socket with 1012 (the room moved
/// to another node) it reconnects to the other node, rejoins from the last version it saw and
/// sends the unanswered act again under the same seq, which the room answers once.
struct Player {
    client: Client,
    code: RoomCode,
    seat: u8,
    seq: u64,
    /// The nodes' ports, and which one the player is on.
    nodes: Vec<u16>,
    on: usize,
    /// How many times its socket was closed with 1012 and it rejoined elsewhere.
    moved: usize,
}

impl Player {
    fn new(client: Client, code: &RoomCode, seat: u8, nodes: &[u16], on: usize) -> Player {
        Player {
            client,
            code: code.clone(),
            seat,
            seq: 0,
            nodes: nodes.to_vec(),
            on,
            moved: 0,
        }
    }

    /// One act, answered (acked, or refused with the reason).
    async fn act(&mut self, action: Value, acked: &mut Vec<Acked>) -> Answer {
        self.seq += 1;
        let seq = self.seq;
        loop {
            let act = ClientMsg::Act {
                seq,
                action: action.clone(),
            };
            self.client.send(&act).await;
            match self.answer_to(seq).await {
                Ok(Answer::Acked(version)) => {
                    self.client.state_at_least(version).await;
                    acked.push(Acked {
                        version,
                        seat: self.seat,
                        seq,
                        action,
                    });
                    return Answer::Acked(version);
                }
                Ok(refused) => return refused,
                Err(closed) => {
                    assert_eq!(closed.code, 1012, "only a moved room closes a socket");
                    self.rejoin_elsewhere().await;
                }
            }
        }
    }

    async fn answer_to(&mut self, seq: u64) -> Result<Answer, Closed> {
        loop {
            match self.client.try_next().await? {
                ServerMsg::Ack { seq: s, version } if s == seq => {
                    return Ok(Answer::Acked(version));
                }
                ServerMsg::Reject {
                    seq: s, code, rule, ..
                } if s == seq => return Ok(Answer::Refused(reason(code, &rule))),
                _ => {}
            }
        }
    }

    async fn rejoin_elsewhere(&mut self) {
        self.moved += 1;
        self.on = (self.on + 1) % self.nodes.len();
        let seen = self.client.state.as_ref().map_or(0, |s| s.version);
        let mut client = Client::with_token(self.nodes[self.on], &self.client.token).await;
        client.rejoin(&self.code, seen).await;
        let seat = self.seat;
        client.room_where(|r| r.you == Some(seat)).await;
        client.state_at_least(seen).await;
        self.client = client;
    }
}

/// A two-seat Twenty-One match playing on one node, and everything its players saw acked.
struct Table {
    code: RoomCode,
    match_id: String,
    /// The node it opened on.
    node: usize,
    /// Seat 0, then seat 1.
    players: [Player; 2],
    acked: Vec<Acked>,
}

impl Table {
    /// Two new guests open a table on node `on` and start the match.
    async fn open(nodes: &[u16], on: usize, names: [&str; 2]) -> Table {
        let port = nodes[on];
        let mut host = Client::guest(port, names[0]).await;
        let mut guest = Client::guest(port, names[1]).await;
        let app = TestApp::attach(port);
        let code = open_room(&app, &mut host, "twenty_one", 2, vec![], json!({})).await;
        sit(&mut guest, &code, 1).await;
        start(&mut host).await;
        let match_id = host.room.clone().unwrap().match_id.unwrap();
        Table {
            players: [
                Player::new(host, &code, 0, nodes, on),
                Player::new(guest, &code, 1, nodes, on),
            ],
            code,
            match_id,
            node: on,
            acked: Vec::new(),
        }
    }

    /// The seat whose turn it is acts.
    async fn act(&mut self, action: Value) -> Answer {
        let state = self.players[0].client.state.clone().expect("a state");
        let seat = *state.to_act.first().expect("someone's turn") as usize;
        self.players[seat].act(action, &mut self.acked).await
    }

    async fn acked(&mut self, action: Value) -> u64 {
        match self.act(action).await {
            Answer::Acked(version) => {
                // Both players follow the match.
                for player in &mut self.players {
                    player.client.state_at_least(version).await;
                }
                version
            }
            refused => panic!("table {}: {refused:?}", self.code.0),
        }
    }

    /// A chat line from seat 1, heard by both players: the sockets are open and the room, in
    /// memory, goes on.
    async fn chat(&mut self, text: &str) {
        let line = ClientMsg::Chat {
            channel: ChatChannel::Players,
            text: text.into(),
        };
        self.players[1].client.send(&line).await;
        for player in &mut self.players {
            while player.client.next_chat().await.text != text {}
        }
    }

    fn version(&self) -> u64 {
        self.players[0]
            .client
            .state
            .as_ref()
            .map_or(0, |s| s.version)
    }

    fn moved(&self) -> usize {
        self.players.iter().map(|p| p.moved).sum()
    }
}

/// Whether the process still runs.
fn alive(process: &mut Process) -> bool {
    process.child.try_wait().expect("waitable").is_none()
}

/// Runs `sql` on the test's database; its one value.
async fn one<T>(db: &TestDb, sql: &str, room: &str) -> T
where
    T: for<'r> sqlx::Decode<'r, sqlx::Postgres> + sqlx::Type<sqlx::Postgres> + Send + Unpin,
{
    use sqlx::{Connection, Row};
    let mut conn = sqlx::PgConnection::connect(&db.url).await.unwrap();
    let value = sqlx::query(sql)
        .bind(room)
        .fetch_one(&mut conn)
        .await
        .unwrap()
        .get(0);
    conn.close().await.unwrap();
    value
}

/// The database comes back: the player to act tries again (backing off while refused) on the
/// same socket until acked, which must happen within [`RESUMED_WITHIN`]. Returns how long it
/// took.
async fn acked_again(table: &mut Table, resumed: Instant) -> Duration {
    let mut backoff = Duration::from_millis(100);
    loop {
        match table.act(json!({"type": "draw"})).await {
            Answer::Acked(version) => {
                assert_eq!(version, 3, "nothing refused during the outage was applied");
                return resumed.elapsed();
            }
            Answer::Refused(why) => {
                assert_eq!(why, "storage_unavailable");
                assert!(
                    resumed.elapsed() < RESUMED_WITHIN,
                    "play resumes within {RESUMED_WITHIN:?} of the database's return"
                );
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(1));
            }
        }
    }
}

/// The table's lease is its node's again (renewed after the outage, same epoch), or, had its
/// players been sent off with 1012, the other node's at the next epoch.
async fn lease_kept(db: &TestDb, table: &Table, names: &[&str]) {
    let (owner, epoch) = if table.moved() == 0 {
        (names[table.node], 1)
    } else {
        (names[(table.node + 1) % names.len()], 2)
    };
    assert_eq!(
        lease_row(db, &table.code.0).await,
        Some((Some(owner.into()), epoch)),
        "table {} (its players moved {} times)",
        table.code.0,
        table.moved()
    );
    let renewed_by = Instant::now() + Duration::from_secs(3);
    let live = "SELECT expires_at > now() FROM room_leases WHERE room_code = $1";
    while !one::<bool>(db, live, &table.code.0).await {
        assert!(Instant::now() < renewed_by, "the lease is renewed again");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// One history for the table's room, holding every action its players saw acked, once each,
/// in order, and nothing else; the match finished.
async fn one_history(db: &TestDb, store: &Store, table: &Table) {
    let count = "SELECT count(*) FROM matches WHERE room_code = $1";
    assert_eq!(one::<i64>(db, count, &table.code.0).await, 1);
    let stored = store.get_match(&table.match_id).await.unwrap().unwrap();
    assert_eq!(stored.status, MatchStatus::Finished);
    let log: Vec<Acked> = stored
        .log
        .iter()
        .zip(1..)
        .map(|(logged, version)| Acked {
            version,
            seat: logged.seat,
            seq: logged.seq.expect("a player's act"),
            action: logged.action.clone(),
        })
        .collect();
    assert_eq!(log, table.acked, "table {}", table.code.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_minute_without_the_database_acks_nothing_unstored_and_the_same_sockets_play_on() {
    let Some(postgres) = PrivatePostgres::start().await else {
        return;
    };
    let db = postgres.database().await;
    let names = ["node-a", "node-b"];
    let mut nodes = [
        cluster_node(&db, names[0]).await,
        cluster_node(&db, names[1]).await,
    ];
    let ports: Vec<u16> = nodes.iter().map(|n| n.port).collect();
    // A table on each node, two actions into its match.
    let mut tables = [
        Table::open(&ports, 0, ["Alice", "Bob"]).await,
        Table::open(&ports, 1, ["Carol", "Dave"]).await,
    ];
    let draw = || json!({"type": "draw"});
    for table in &mut tables {
        assert_eq!(table.acked(draw()).await, 1);
        assert_eq!(table.acked(draw()).await, 2);
    }

    // The database goes away for a minute. At each table the player to act keeps trying a
    // draw; every try is refused, never acked. The rooms go on in memory (a chat line goes
    // round), the sockets stay open, and both nodes stay up and healthy.
    postgres.stop().await;
    let stopped = Instant::now();
    let mut rounds = 0;
    while stopped.elapsed() < OUTAGE {
        let round = Instant::now();
        for table in &mut tables {
            let tried = Instant::now();
            assert_eq!(
                table.act(draw()).await,
                Answer::Refused("storage_unavailable".into()),
                "table {}, {:?} into the outage",
                table.code.0,
                stopped.elapsed()
            );
            eprintln!(
                "outage +{:.1}s: table {} refused in {:.1}s",
                stopped.elapsed().as_secs_f64(),
                table.code.0,
                tried.elapsed().as_secs_f64()
            );
            table.chat(&format!("still here {rounds}")).await;
        }
        for (node, port) in nodes.iter_mut().zip(&ports) {
            assert!(alive(node), "the node on port {port} stays up");
            assert_eq!(Http::new(*port).get("/healthz").await.status, 200);
            // Not ready, and saying so in time for a balancer's check (HAProxy gives up on
            // one after its 1 s interval), not after the pool's wait for a connection.
            let asked = Instant::now();
            assert_eq!(Http::new(*port).get("/readyz").await.status, 503);
            assert!(
                asked.elapsed() < Duration::from_millis(1500),
                "/readyz answered in {:?}",
                asked.elapsed()
            );
        }
        rounds += 1;
        tokio::time::sleep_until((round + TRY_EVERY).min(stopped + OUTAGE)).await;
    }
    assert!(
        rounds >= 10,
        "the players tried throughout: {rounds} rounds"
    );
    for table in &tables {
        assert_eq!(table.version(), 2, "table {}", table.code.0);
    }

    // The database is back: both tables are acked again on the same sockets within seconds,
    // and play their matches to the end.
    postgres.resume().await;
    let resumed = Instant::now();
    for table in &mut tables {
        let took = acked_again(table, resumed).await;
        eprintln!(
            "table {} acked again {:.1}s after the database came back",
            table.code.0,
            took.as_secs_f64()
        );
        // Seat 1 draws its third card; seat 0 its fourth, which makes it stand; seat 1 stands.
        assert_eq!(table.acked(draw()).await, 4);
        assert_eq!(table.acked(draw()).await, 5);
        assert_eq!(table.acked(json!({"type": "stand"})).await, 6);
        let over = table.players[0].client.state_at_least(6).await;
        assert!(over.outcome.is_some(), "table {}", table.code.0);
    }

    // Nobody asked one node for the other's room, so each node renewed its own expired leases
    // (same node, same epoch) and no socket was moved.
    for table in &tables {
        eprintln!(
            "table {}: its players moved {} times",
            table.code.0,
            table.moved()
        );
        lease_kept(&db, table, &names).await;
    }
    let store = Store::connect(&db.url).await.unwrap();
    for table in &tables {
        one_history(&db, &store, table).await;
    }
    store.close().await;
    for node in &mut nodes {
        assert!(alive(node), "no node fell over");
        node.child.kill().await.unwrap();
    }
    drop(postgres);
}
