//! The servers under load, started by the generator: one server on a SQLite file (the
//! default), one on PostgreSQL (`--postgres`), or a cluster of three nodes on PostgreSQL behind
//! HAProxy with the repository's `deploy/haproxy.cfg` (`--cluster`). Their CPU and memory are
//! added up over every server process; the database's own commits are read from PostgreSQL.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use sqlx::{Connection, PgConnection, Row};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::Args;
use crate::commits::{Commits, store_commits};
use crate::process::{cpu_seconds, pin_self_away_from, rss_kib};

pub struct Servers {
    /// Where the clients connect: the server, or HAProxy in front of the nodes.
    pub port: u16,
    nodes: Vec<Server>,
    haproxy: Option<Child>,
    database: Option<Database>,
}

struct Server {
    child: Child,
    pid: u32,
    port: u16,
}

/// A database of the generator's own on the PostgreSQL server at `admin`: made at the start,
/// dropped at the end.
struct Database {
    admin: String,
    name: String,
}

impl Database {
    fn url(&self) -> String {
        format!("{}/{}", self.admin.trim_end_matches('/'), self.name)
    }

    async fn admin(&self) -> PgConnection {
        PgConnection::connect(&format!("{}/postgres", self.admin.trim_end_matches('/')))
            .await
            .expect("the PostgreSQL server answers")
    }
}

impl Servers {
    pub async fn start(args: &Args, dir: &Path) -> Servers {
        let database = match &args.postgres {
            Some(admin) => {
                let database = Database {
                    admin: admin.clone(),
                    name: format!("pdm_load_{}", std::process::id()),
                };
                let mut conn = database.admin().await;
                sqlx::query(&format!("CREATE DATABASE {}", database.name))
                    .execute(&mut conn)
                    .await
                    .expect("the load's database is made");
                Some(database)
            }
            None if args.cluster => panic!("--cluster needs --postgres (a cluster shares one)"),
            None => None,
        };
        let url = match &database {
            Some(database) => database.url(),
            None => format!("sqlite://{}/load.db", dir.display()),
        };
        if !args.cluster {
            let server = Server::start(args, &url, "127.0.0.1:0", &[]).await;
            return Servers {
                port: server.port,
                nodes: vec![server],
                haproxy: None,
                database,
            };
        }
        let mut nodes = Vec::new();
        for n in 1..=3 {
            let name = format!("node{n}");
            let cluster = [
                "--cluster",
                "--node-name",
                &name,
                "--trusted-proxy",
                "127.0.0.1",
                "--client-ip-header",
                "X-Forwarded-For",
            ];
            // One at a time, on a port of its own: the next node's port is unknown until
            // the last one listens, and the nodes reach each other by those.
            nodes.push(Server::start(args, &url, "127.0.0.1:0", &cluster).await);
        }
        let port = free_port();
        let ports = [nodes[0].port, nodes[1].port, nodes[2].port];
        let haproxy = pandemonium_e2e::haproxy::start(&args.haproxy, port, ports)
            .expect("HAProxy starts (--haproxy)");
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        println!(
            "cluster: nodes on ports {:?} (pids {:?}), HAProxy on port {port}",
            nodes.iter().map(|n| n.port).collect::<Vec<_>>(),
            nodes.iter().map(|n| n.pid).collect::<Vec<_>>(),
        );
        Servers {
            port,
            nodes,
            haproxy: Some(haproxy),
            database,
        }
    }

    /// CPU time of every server process, in seconds (HAProxy's is not the server's).
    pub fn cpu_seconds(&self) -> f64 {
        self.nodes.iter().map(|n| cpu_seconds(n.pid)).sum()
    }

    /// Resident memory of every server process, in KiB.
    pub fn rss_kib(&self) -> u64 {
        self.nodes.iter().map(|n| rss_kib(n.pid)).sum()
    }

    /// CPU time HAProxy used, in seconds, when there is one.
    pub fn haproxy_cpu_seconds(&self) -> Option<f64> {
        let pid = self.haproxy.as_ref()?.id()?;
        Some(cpu_seconds(pid))
    }

    /// The store's commits of every server, added up.
    pub async fn store_commits(&self) -> Commits {
        let mut all = Vec::new();
        for node in &self.nodes {
            all.push(store_commits(node.port).await);
        }
        Commits::sum(all)
    }

    /// Transactions the database has committed (PostgreSQL's `pg_stat_database`): what one
    /// database must keep up with, whatever the nodes. `None` on SQLite.
    pub async fn database_commits(&self) -> Option<i64> {
        let database = self.database.as_ref()?;
        let mut conn = database.admin().await;
        // Each busy backend flushes its counts about once a second: a reading lags by that
        // much, at the start of a phase as at its end.
        let row = sqlx::query("SELECT xact_commit FROM pg_stat_database WHERE datname = $1")
            .bind(&database.name)
            .fetch_one(&mut conn)
            .await
            .ok()?;
        row.try_get::<i64, _>(0).ok()
    }

    pub async fn stop(mut self) {
        if let Some(mut haproxy) = self.haproxy.take() {
            let _ = haproxy.kill().await;
        }
        for node in &mut self.nodes {
            let _ = node.child.kill().await;
            let _ = node.child.wait().await;
        }
        if let Some(database) = self.database.take() {
            let mut conn = database.admin().await;
            let _ = sqlx::query(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                database.name
            ))
            .execute(&mut conn)
            .await;
        }
    }
}

impl Server {
    async fn start(args: &Args, url: &str, bind: &str, extra: &[&str]) -> Server {
        let mut command = match args.server_core {
            Some(core) if !args.cluster => {
                pin_self_away_from(core);
                let mut c = Command::new("taskset");
                c.args(["-c", &core.to_string()]).arg(&args.server);
                c
            }
            _ => Command::new(&args.server),
        };
        let mut child = command
            .args(["--bind", bind, "--static-dir", "/nonexistent"])
            .args(["--database-url", url])
            .args(["--rate-burst", "1000", "--rate-per-second", "1000"])
            // Every simulated player comes from 127.0.0.1: no per-address cap or quota
            // applies to it (loopback is limited like any other address otherwise).
            .args(["--unlimited-address", "127.0.0.1"])
            .args(["--max-connections", "100000"])
            .args(["--max-rooms", "100000"])
            // The idle connections all watch one room.
            .args(["--max-spectators-per-room", "1000000"])
            .args(
                args.patch_min_bytes
                    .map(|bytes| ["--patch-min-bytes".to_string(), bytes.to_string()])
                    .into_iter()
                    .flatten(),
            )
            .args(extra)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("start the server");
        let pid = child.id().expect("a pid");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
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
        Server { child, pid, port }
    }
}

/// A loopback port free now, for HAProxy.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}
