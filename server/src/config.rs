//! Server configuration from flags and environment variables.

use clap::{Parser, ValueEnum};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use crate::http::addresses::AddressRange;
use crate::store::{MAX_LINGER, Synchronous};

#[derive(Debug, Clone, Parser)]
#[command(
    name = "pandemonium",
    about = "Hosts five demon-themed tabletop games over WebSockets."
)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "PANDEMONIUM_BIND", default_value = "0.0.0.0:8080")]
    pub bind: SocketAddr,

    /// sqlite://PATH (created on first run, relative to the working directory) or postgres://…
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "sqlite://data/pandemonium.db"
    )]
    pub database_url: String,

    /// The built web client.
    #[arg(
        long,
        env = "PANDEMONIUM_STATIC_DIR",
        default_value = "web-client/dist"
    )]
    pub static_dir: PathBuf,

    #[arg(long, env = "PANDEMONIUM_LOG_FORMAT", value_enum, default_value_t = LogFormat::Pretty)]
    pub log_format: LogFormat,

    /// The name this server gives itself in its log lines (`node`), so that the lines of
    /// several servers (or of an old and a new container) can be told apart; the machine's
    /// host name when not given (in a container, the container's).
    #[arg(long, env = "PANDEMONIUM_NODE_NAME")]
    pub node_name: Option<String>,

    /// How long a bot waits before it acts, in milliseconds (so people can follow its moves).
    #[arg(long, env = "PANDEMONIUM_BOT_DELAY_MS", default_value_t = 600)]
    pub bot_delay_ms: u64,

    /// How long a room with nobody in it stays open, in seconds.
    #[arg(long, env = "PANDEMONIUM_EMPTY_ROOM_SECONDS", default_value_t = 300)]
    pub empty_room_seconds: u64,

    /// The smallest state, in bytes, sent as a patch to clients that take patches; smaller
    /// states go whole. Patching adds about a third to the server's CPU per move and saves
    /// bytes that count only on large states (docs/performance.md, "Patches"). `0` patches
    /// every state: for a host who pays for every byte sent.
    #[arg(long, env = "PANDEMONIUM_PATCH_MIN_BYTES", default_value_t = 4096)]
    pub patch_min_bytes: usize,

    /// SQLite only: `full` syncs every commit to disk before the action is acknowledged (it
    /// survives a power loss); `normal` syncs at checkpoints (an acked action survives a
    /// killed server, but a power loss may lose the last moments of play).
    #[arg(
        long,
        env = "PANDEMONIUM_SQLITE_SYNCHRONOUS",
        value_enum,
        default_value_t = Synchronous::Full
    )]
    pub sqlite_synchronous: Synchronous,

    /// SQLite only: seconds between checkpoints that fold the write-ahead log into the
    /// database and truncate it, so the WAL file stays bounded.
    #[arg(
        long,
        env = "PANDEMONIUM_SQLITE_CHECKPOINT_SECONDS",
        default_value_t = 60
    )]
    pub sqlite_checkpoint_seconds: u64,

    /// Microseconds the store's writer waits for more actions to commit with those it has,
    /// while it is loaded: actions arriving at 3,000 a second or more (at most 1000). Under a
    /// lighter load it commits at once. Zero never waits.
    #[arg(long, env = "PANDEMONIUM_COMMIT_LINGER_MICROS", default_value_t = 1000)]
    pub commit_linger_micros: u64,

    #[command(flatten)]
    pub limits: Limits,

    #[command(flatten)]
    pub network: Network,

    #[command(flatten)]
    pub quotas: Quotas,

    #[command(flatten)]
    pub cluster: Cluster,

    /// Test hook: end the process (as `kill -9` would) right after a match's finishing write
    /// commits, so a test can show the result was written together with the last action.
    #[arg(long, hide = true)]
    pub test_abort_after_finish: bool,
}

/// A setting the server cannot work with.
#[derive(Debug, thiserror::Error)]
#[error("{flag} {problem}")]
pub struct InvalidConfig {
    pub flag: &'static str,
    pub problem: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Pretty,
    Json,
}

/// Per-connection limits: what one client may cost the server.
#[derive(Debug, Clone, clap::Args)]
pub struct Limits {
    /// Largest accepted WebSocket message, in bytes; bigger ones get a `frame_too_large` error.
    #[arg(long, env = "PANDEMONIUM_MAX_FRAME", default_value_t = 64 * 1024)]
    pub max_frame_bytes: usize,
    /// Messages a client may send in a burst…
    #[arg(long, env = "PANDEMONIUM_RATE_BURST", default_value_t = 40)]
    pub rate_burst: u32,
    /// …and per second after that.
    #[arg(long, env = "PANDEMONIUM_RATE_PER_SECOND", default_value_t = 20)]
    pub rate_per_second: u32,
    /// Seconds a new connection has to say hello.
    #[arg(long, env = "PANDEMONIUM_HANDSHAKE_SECONDS", default_value_t = 10)]
    pub handshake_seconds: u64,
    /// Seconds of silence (no message, no pong) after which a connection is closed.
    #[arg(long, env = "PANDEMONIUM_IDLE_SECONDS", default_value_t = 60)]
    pub idle_seconds: u64,
    /// Messages queued for a client before it is considered too slow and dropped, beyond
    /// those the server itself hands it at once (a rejoin's missed states, the answers to a
    /// whole burst of its acts).
    #[arg(long, env = "PANDEMONIUM_OUTBOX", default_value_t = 64)]
    pub outbox: usize,
    /// Seconds one write to a WebSocket (a message, a ping, the close) may take; a client that
    /// does not read for that long is dropped.
    #[arg(long, env = "PANDEMONIUM_WRITE_TIMEOUT_SECONDS", default_value_t = 10)]
    pub write_timeout_seconds: u64,
}

impl Limits {
    /// Messages a connection's outbox holds: `--outbox` beyond the most the server hands it at
    /// once of its own accord, which is no sign of a slow client: a rejoin's resync, and the
    /// answers to a whole burst of its acts (an ack and a state each), which one group commit
    /// releases together. Queued frames are shared with the room's history and other
    /// connections, so the larger queue costs little memory; a client that stops reading is
    /// still caught by the write deadline.
    pub fn outbox_capacity(&self) -> usize {
        self.outbox + crate::room::JOIN_FRAMES + 2 * self.rate_burst as usize
    }
}

/// What the server accepts from the network as a whole: connections, slow requests, origins.
#[derive(Debug, Clone, clap::Args)]
pub struct Network {
    /// Connections (HTTP and WebSocket) held open at once. At the cap, the oldest connection
    /// that has neither a request in progress nor a greeted player is dropped to make room; if
    /// there is none, the new connection is. Lowered at start to fit the open-file limit.
    #[arg(long, env = "PANDEMONIUM_MAX_CONNECTIONS", default_value_t = 10_000)]
    pub max_connections: usize,
    /// Connections held open at once from one IP address (behind a reverse proxy every
    /// connection comes from the proxy: raise this, and let the proxy limit per client).
    #[arg(
        long,
        env = "PANDEMONIUM_MAX_CONNECTIONS_PER_IP",
        default_value_t = 128
    )]
    pub max_connections_per_ip: usize,
    /// Seconds a client has to send a request's headers; also how long an idle keep-alive
    /// connection is kept.
    #[arg(long, env = "PANDEMONIUM_HEADER_READ_SECONDS", default_value_t = 10)]
    pub header_read_seconds: u64,
    /// Seconds an HTTP request may take, body included.
    #[arg(long, env = "PANDEMONIUM_REQUEST_SECONDS", default_value_t = 30)]
    pub request_seconds: u64,
    /// Origins (`https://games.example.org`) whose pages may open WebSockets, comma-separated.
    /// Without it, only pages served by this server (the request's own `Host`) may.
    #[arg(long, env = "PANDEMONIUM_ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,
    /// Proxies whose word on who their client is is believed (a PROXY protocol header, or
    /// `--client-ip-header`): addresses or CIDR ranges (`127.0.0.1`, `10.0.0.0/8`),
    /// repeated or comma-separated. A forwarded header from any other peer is ignored (and
    /// logged, at most once a minute).
    #[arg(
        long = "trusted-proxy",
        env = "PANDEMONIUM_TRUSTED_PROXIES",
        value_delimiter = ','
    )]
    pub trusted_proxies: Vec<AddressRange>,
    /// Connections from a trusted proxy start with HAProxy's PROXY protocol header (v1 or v2:
    /// `send-proxy`, `send-proxy-v2`), whose client address then counts for the connection
    /// caps and every quota. Connections from anyone else are served as they come.
    #[arg(long, env = "PANDEMONIUM_PROXY_PROTOCOL")]
    pub proxy_protocol: bool,
    /// A header set by a trusted proxy that carries the client's address (`X-Forwarded-For`
    /// — its last address is used — or `X-Real-IP`). Quotas then count by it; without it they
    /// count by the connection's address.
    #[arg(long, env = "PANDEMONIUM_CLIENT_IP_HEADER")]
    pub client_ip_header: Option<String>,
    /// Addresses or CIDR ranges that no per-address limit applies to (connections per
    /// address; guests, rooms and lookups per minute): local tools that open thousands of
    /// connections from one address, such as a load test (`127.0.0.1`). Every other address,
    /// loopback included, is limited.
    #[arg(
        long = "unlimited-address",
        env = "PANDEMONIUM_UNLIMITED_ADDRESSES",
        value_delimiter = ','
    )]
    pub unlimited_addresses: Vec<AddressRange>,
    /// Gone: loopback addresses are limited like any other now. Accepted so that old settings
    /// still start; `--unlimited-address` exempts local tools.
    #[arg(long, env = "PANDEMONIUM_LIMIT_LOOPBACK", hide = true)]
    pub limit_loopback: bool,
}

impl Network {
    /// Proxy settings that only make sense together: a way for trusted proxies to name their
    /// clients needs proxies to trust, and the reverse. Before `--trusted-proxy` existed,
    /// `--client-ip-header` was believed from anyone: such a setting now stops the server with
    /// the flag to add rather than quietly counting every visitor as the proxy.
    fn validate_proxies(&self) -> Result<(), InvalidConfig> {
        let names_clients = self.client_ip_header.is_some() || self.proxy_protocol;
        if names_clients && self.trusted_proxies.is_empty() {
            let flag = if self.proxy_protocol {
                "--proxy-protocol"
            } else {
                "--client-ip-header"
            };
            return Err(InvalidConfig {
                flag,
                problem: "needs --trusted-proxy (PANDEMONIUM_TRUSTED_PROXIES): the addresses of \
                          the proxies in front, e.g. --trusted-proxy 127.0.0.1"
                    .into(),
            });
        }
        if !names_clients && !self.trusted_proxies.is_empty() {
            return Err(InvalidConfig {
                flag: "--trusted-proxy",
                problem: "needs --client-ip-header or --proxy-protocol: how the proxy says who \
                          its client is"
                    .into(),
            });
        }
        if self.limit_loopback {
            tracing::warn!(
                "--limit-loopback (PANDEMONIUM_LIMIT_LOOPBACK) is no longer needed: loopback \
                 addresses are limited like any other (--unlimited-address exempts local tools)"
            );
        }
        Ok(())
    }
}

/// What one IP address may create or look up, and how many rooms may be open.
#[derive(Debug, Clone, clap::Args)]
pub struct Quotas {
    /// New guests per minute from one IP address (`POST /api/guests` and `hello` without a
    /// token), in a burst or spread out.
    #[arg(long, env = "PANDEMONIUM_GUESTS_PER_MINUTE", default_value_t = 30)]
    pub guests_per_minute: u32,
    /// Rooms created per minute from one IP address.
    #[arg(long, env = "PANDEMONIUM_ROOMS_PER_MINUTE", default_value_t = 20)]
    pub rooms_per_minute: u32,
    /// Room codes looked up per minute from one IP address (`GET /api/rooms/{code}` and
    /// `join`): what bounds guessing private codes.
    #[arg(long, env = "PANDEMONIUM_LOOKUPS_PER_MINUTE", default_value_t = 120)]
    pub lookups_per_minute: u32,
    /// Rooms open at once on the server.
    #[arg(long, env = "PANDEMONIUM_MAX_ROOMS", default_value_t = 2_000)]
    pub max_rooms: usize,
    /// Rooms open at once that one guest hosts.
    #[arg(long, env = "PANDEMONIUM_MAX_ROOMS_PER_GUEST", default_value_t = 5)]
    pub max_rooms_per_guest: usize,
    /// People watching one room at once (everyone in it without a seat); one more is
    /// refused with `room_full`. Each watcher gets every change of the table.
    #[arg(
        long,
        env = "PANDEMONIUM_MAX_SPECTATORS_PER_ROOM",
        default_value_t = 200
    )]
    pub max_spectators_per_room: usize,
    /// Days after which a guest that never sat in a match is deleted (checked hourly).
    #[arg(long, env = "PANDEMONIUM_UNUSED_GUEST_DAYS", default_value_t = 30)]
    pub unused_guest_days: u64,
}

/// Cluster mode: several servers share one PostgreSQL, and each room belongs to one of them at
/// a time by a lease (docs/operations.md, "Cluster mode").
#[derive(Debug, Clone, clap::Args)]
pub struct Cluster {
    /// Run as one node of a cluster of servers sharing one PostgreSQL database (SQLite is the
    /// single-node store and is refused). Give each node a unique, stable `--node-name`: by
    /// default it is this machine's host name and the port it listens on.
    #[arg(long = "cluster", env = "PANDEMONIUM_CLUSTER")]
    pub enabled: bool,
    /// The address (`host:port`) the other nodes reach this one at. By default the address
    /// and port it listens on, with this machine's host name when it listens on every
    /// interface.
    #[arg(long, env = "PANDEMONIUM_INTERNAL_ADDRESS")]
    pub internal_address: Option<String>,
    /// Milliseconds a room's lease lasts unless its node renews it: a node that stops (killed,
    /// paused, cut off) leaves its rooms to the others this long after its last renewal.
    #[arg(long, env = "PANDEMONIUM_LEASE_MS", default_value_t = 3_000)]
    pub lease_ms: u64,
    /// Milliseconds between two renewals of a node's leases (its heartbeat); at most half a
    /// lease, so one late heartbeat does not cost a node its rooms.
    #[arg(long, env = "PANDEMONIUM_LEASE_RENEW_MS", default_value_t = 1_000)]
    pub lease_renew_ms: u64,
}

impl Cluster {
    fn validate(&self) -> Result<(), InvalidConfig> {
        if !(100..=600_000).contains(&self.lease_ms) {
            return Err(InvalidConfig {
                flag: "--lease-ms",
                problem: "must be 100 to 600000 (ten minutes)".into(),
            });
        }
        if self.lease_renew_ms == 0 || self.lease_renew_ms * 2 > self.lease_ms {
            return Err(InvalidConfig {
                flag: "--lease-renew-ms",
                problem: format!(
                    "must be at least 1 and at most half of --lease-ms ({})",
                    self.lease_ms / 2
                ),
            });
        }
        Ok(())
    }

    /// Where the other nodes reach this one: `--internal-address`, or the address it listens
    /// on (`bind`, on `port`: the port taken when `bind` asked for any).
    pub fn internal_address(&self, bind: SocketAddr, port: u16) -> String {
        if let Some(address) = &self.internal_address {
            return address.clone();
        }
        match bind.ip() {
            ip if ip.is_unspecified() => format!("{}:{port}", crate::telemetry::host_name()),
            ip => SocketAddr::new(ip, port).to_string(),
        }
    }

    pub fn lease(&self) -> Duration {
        Duration::from_millis(self.lease_ms)
    }

    pub fn renew_every(&self) -> Duration {
        Duration::from_millis(self.lease_renew_ms)
    }
}

impl Config {
    /// The name this server goes by (`--node-name`). Without one: the host name; in cluster
    /// mode, where it must be unique and stable, the host name and the port listened on
    /// (`port`: the port taken when `--bind` asked for any).
    pub fn node_name(&self, port: u16) -> String {
        match &self.node_name {
            Some(name) => name.clone(),
            None if self.cluster.enabled => format!("{}:{port}", crate::telemetry::host_name()),
            None => crate::telemetry::host_name(),
        }
    }

    /// Defaults for tests: port 0, the given database, fast bots.
    pub fn for_tests(database_url: impl Into<String>) -> Config {
        let mut config = Config::parse_from(["pandemonium"]);
        config.bind = "127.0.0.1:0".parse().expect("valid address");
        config.database_url = database_url.into();
        config.bot_delay_ms = 5;
        // Test clients act as fast as the server answers; a flood is still far beyond this.
        config.limits.rate_burst = 1_000;
        config.limits.rate_per_second = 1_000;
        // Every test client comes from a loopback address; the per-address limits are tested
        // there, with their own settings.
        config.network.max_connections_per_ip = 10_000;
        config.quotas.guests_per_minute = 100_000;
        config.quotas.rooms_per_minute = 100_000;
        config.quotas.lookups_per_minute = 100_000;
        config
    }

    /// Refuses settings the server cannot work with, naming the flag, before anything starts.
    pub fn validate(&self) -> Result<(), InvalidConfig> {
        self.cluster.validate()?;
        let limits = &self.limits;
        let network = &self.network;
        let quotas = &self.quotas;
        let at_least_one: [(&'static str, u64); 18] = [
            ("--empty-room-seconds", self.empty_room_seconds),
            (
                "--sqlite-checkpoint-seconds",
                self.sqlite_checkpoint_seconds,
            ),
            ("--max-frame-bytes", limits.max_frame_bytes as u64),
            ("--rate-burst", limits.rate_burst.into()),
            ("--rate-per-second", limits.rate_per_second.into()),
            ("--handshake-seconds", limits.handshake_seconds),
            ("--idle-seconds", limits.idle_seconds),
            ("--outbox", limits.outbox as u64),
            ("--write-timeout-seconds", limits.write_timeout_seconds),
            ("--max-connections", network.max_connections as u64),
            (
                "--max-connections-per-ip",
                network.max_connections_per_ip as u64,
            ),
            ("--header-read-seconds", network.header_read_seconds),
            ("--request-seconds", network.request_seconds),
            ("--guests-per-minute", quotas.guests_per_minute.into()),
            ("--rooms-per-minute", quotas.rooms_per_minute.into()),
            ("--lookups-per-minute", quotas.lookups_per_minute.into()),
            ("--max-rooms", quotas.max_rooms as u64),
            (
                "--max-spectators-per-room",
                quotas.max_spectators_per_room as u64,
            ),
        ];
        for (flag, value) in at_least_one {
            if value == 0 {
                return Err(InvalidConfig {
                    flag,
                    problem: "must be at least 1".into(),
                });
            }
        }
        // Durations that become timers: a day is already far beyond any sensible value, and
        // keeps `Instant` arithmetic far from overflowing.
        let seconds: [(&'static str, u64); 7] = [
            ("--empty-room-seconds", self.empty_room_seconds),
            (
                "--sqlite-checkpoint-seconds",
                self.sqlite_checkpoint_seconds,
            ),
            ("--handshake-seconds", limits.handshake_seconds),
            ("--idle-seconds", limits.idle_seconds),
            ("--write-timeout-seconds", limits.write_timeout_seconds),
            ("--header-read-seconds", network.header_read_seconds),
            ("--request-seconds", network.request_seconds),
        ];
        for (flag, value) in seconds {
            if value > 86_400 {
                return Err(InvalidConfig {
                    flag,
                    problem: "must be at most 86400 (a day)".into(),
                });
            }
        }
        if Duration::from_micros(self.commit_linger_micros) > MAX_LINGER {
            return Err(InvalidConfig {
                flag: "--commit-linger-micros",
                problem: format!("must be at most {}", MAX_LINGER.as_micros()),
            });
        }
        if quotas.unused_guest_days == 0 || quotas.unused_guest_days > 36_500 {
            return Err(InvalidConfig {
                flag: "--unused-guest-days",
                problem: "must be 1 to 36500".into(),
            });
        }
        if quotas.max_rooms_per_guest == 0 {
            return Err(InvalidConfig {
                flag: "--max-rooms-per-guest",
                problem: "must be at least 1".into(),
            });
        }
        if limits.max_frame_bytes > 16 * 1024 * 1024 {
            return Err(InvalidConfig {
                flag: "--max-frame-bytes",
                problem: "must be at most 16 MiB".into(),
            });
        }
        for origin in &network.allowed_origins {
            let scheme = origin.split_once("://").map(|(s, _)| s);
            if !matches!(scheme, Some("http" | "https")) || origin.ends_with('/') {
                return Err(InvalidConfig {
                    flag: "--allowed-origins",
                    problem: format!(
                        "`{origin}` is not an origin like https://games.example.org (scheme, host, optional port, no path)"
                    ),
                });
            }
        }
        if let Some(header) = &network.client_ip_header
            && axum::http::HeaderName::from_bytes(header.as_bytes()).is_err()
        {
            return Err(InvalidConfig {
                flag: "--client-ip-header",
                problem: format!("`{header}` is not a header name"),
            });
        }
        network.validate_proxies()?;
        Ok(())
    }

    pub fn bot_delay(&self) -> Duration {
        Duration::from_millis(self.bot_delay_ms)
    }
}
