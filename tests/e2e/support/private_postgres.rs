//! A PostgreSQL server of one test's own, for tests that stop the database: the shared one at
//! 127.0.0.1:5432 serves every other test running at the same time and must never be stopped.
//!
//! A throwaway cluster (`initdb` in a temporary folder, trust auth, fsync off) listening on a
//! free loopback port, which can be stopped and started again on the same port and data. It
//! is stopped and its folder removed when dropped. `initdb` refuses to run as root, so under
//! root (as the tests run in CI) its tools run as the `postgres` user, in a folder it owns.

use std::path::{Path, PathBuf};
use std::process::Output;

use super::{Cleanup, TestDb};

/// A PostgreSQL server run by the test, on its own port and data folder.
#[derive(Debug)]
pub struct PrivatePostgres {
    /// The server's binaries (`initdb`, `pg_ctl`).
    bin: PathBuf,
    /// Holds the data folder, the server's log and its Unix socket; owned by whoever runs the
    /// server.
    dir: PathBuf,
    port: u16,
}

impl PrivatePostgres {
    /// A new server, started; `None` (the test says it was skipped) where no PostgreSQL
    /// server is installed on a developer's machine. In CI a missing server fails the test.
    pub async fn start() -> Option<PrivatePostgres> {
        let Some(bin) = installed_binaries() else {
            let missing =
                "no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin";
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("a private PostgreSQL is required in CI: {missing}");
            }
            eprintln!("SKIPPED: {missing}; install the PostgreSQL server to run this test");
            return None;
        };
        let made = as_server_user_async("mktemp")
            .args(["-d", "-p", "/tmp", "pdm-private-pg-XXXXXX"])
            .output()
            .await
            .expect("mktemp runs");
        let dir = PathBuf::from(succeeded("mktemp", &made).trim());
        let server = PrivatePostgres {
            bin,
            dir,
            port: free_port(),
        };
        let initdb = as_server_user_async(server.bin.join("initdb"))
            .args([
                "--auth=trust",
                "--username=postgres",
                "--encoding=UTF8",
                "--no-sync",
            ])
            .arg("--pgdata")
            .arg(server.data())
            .output()
            .await
            .expect("initdb runs");
        succeeded("initdb", &initdb);
        server.resume().await;
        Some(server)
    }

    /// The superuser's connection URL.
    pub fn admin_url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// A new database on this server, for the test's servers to run on. Dropping it is left
    /// to the server's removal: the test has stopped the server by then, perhaps.
    pub async fn database(&self) -> TestDb {
        use sqlx::Connection;
        let admin = self.admin_url();
        let mut conn = sqlx::PgConnection::connect(&admin)
            .await
            .expect("the private server answers");
        let name = format!("pdm_test_{}", uuid::Uuid::new_v4().simple());
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut conn)
            .await
            .expect("create the test database");
        conn.close().await.expect("close");
        TestDb {
            url: format!("postgres://postgres@127.0.0.1:{}/{name}", self.port),
            cleanup: Cleanup::Postgres { admin, name },
        }
    }

    /// Stops the server the way an operator's restart does (`pg_ctl stop -m fast`): every
    /// session is ended and the port closes; the data stays.
    pub async fn stop(&self) {
        let stopped = self
            .pg_ctl()
            .args(["stop", "-m", "fast", "-w"])
            .output()
            .await
            .expect("pg_ctl runs");
        succeeded("pg_ctl stop", &stopped);
    }

    /// Starts the server again on its port and data (also how [`PrivatePostgres::start`]
    /// starts it the first time); resolves once it accepts connections.
    pub async fn resume(&self) {
        let options = format!(
            "-F -c listen_addresses=127.0.0.1 -p {} -k {}",
            self.port,
            self.dir.display()
        );
        let started = self
            .pg_ctl()
            .arg("start")
            .arg("-w")
            .arg("-l")
            .arg(self.dir.join("server.log"))
            .arg("-o")
            .arg(options)
            .output()
            .await
            .expect("pg_ctl runs");
        if !started.status.success() {
            panic!(
                "pg_ctl start failed: {}\nthe server's log:\n{}",
                describe(&started),
                std::fs::read_to_string(self.dir.join("server.log")).unwrap_or_default()
            );
        }
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    fn pg_ctl(&self) -> tokio::process::Command {
        let mut command = as_server_user_async(self.bin.join("pg_ctl"));
        command.arg("-D").arg(self.data());
        command
    }
}

impl Drop for PrivatePostgres {
    fn drop(&mut self) {
        // Synchronous: a drop cannot wait on the runtime, and this must happen even when the
        // test panicked. Immediate: nothing of the data is kept.
        let mut stop = as_server_user(self.bin.join("pg_ctl"));
        let _ = stop
            .arg("-D")
            .arg(self.data())
            .args(["stop", "-m", "immediate", "-w"])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The binaries of the newest PostgreSQL server installed the Debian way.
fn installed_binaries() -> Option<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            let complete = ["initdb", "pg_ctl", "postgres"]
                .iter()
                .all(|tool| bin.join(tool).is_file());
            complete.then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

/// `program`, run as the `postgres` user when this process is root (PostgreSQL refuses to run
/// as root), as this process's user otherwise.
fn as_server_user(program: impl AsRef<Path>) -> std::process::Command {
    if running_as_root() {
        let mut command = std::process::Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program.as_ref());
        command
    } else {
        std::process::Command::new(program.as_ref())
    }
}

/// [`as_server_user`], to be awaited.
fn as_server_user_async(program: impl AsRef<Path>) -> tokio::process::Command {
    tokio::process::Command::from(as_server_user(program))
}

fn running_as_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|me| me.uid() == 0)
}

/// A loopback port nothing listens on, below the range the kernel hands out for port 0 and
/// outgoing connections: while the server is stopped its port must stay free for it, and the
/// other tests, binding port 0 all the time, never land there.
pub fn free_port() -> u16 {
    let ephemeral_from: u16 = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|range| range.split_whitespace().next()?.parse().ok())
        .unwrap_or(32_768);
    let lowest = ephemeral_from.saturating_sub(12_000).max(1_024);
    let span = ephemeral_from - lowest;
    for _ in 0..100 {
        let random = u16::from_le_bytes(uuid::Uuid::new_v4().as_bytes()[..2].try_into().unwrap());
        let port = lowest + random % span;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free loopback port between {lowest} and {ephemeral_from}");
}

/// A tool's standard output, once it has succeeded; its whole output in the panic otherwise.
fn succeeded(what: &str, output: &Output) -> String {
    if !output.status.success() {
        panic!("{what} failed: {}", describe(output));
    }
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn describe(output: &Output) -> String {
    format!(
        "{}\nstdout: {}\nstderr: {}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}
