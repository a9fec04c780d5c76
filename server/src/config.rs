//! Server configuration from flags and environment variables.

use clap::{Parser, ValueEnum};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

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

    /// How long a bot waits before it acts, in milliseconds (so people can follow its moves).
    #[arg(long, env = "PANDEMONIUM_BOT_DELAY_MS", default_value_t = 600)]
    pub bot_delay_ms: u64,

    /// How long a room with nobody in it stays open, in seconds.
    #[arg(long, env = "PANDEMONIUM_EMPTY_ROOM_SECONDS", default_value_t = 300)]
    pub empty_room_seconds: u64,

    #[command(flatten)]
    pub limits: Limits,

    /// Test hook: end the process (as `kill -9` would) right after a match's finishing write
    /// commits, so a test can show the result was written together with the last action.
    #[arg(long, hide = true)]
    pub test_abort_after_finish: bool,
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
    /// Messages queued for a client before it is considered too slow and dropped.
    #[arg(long, env = "PANDEMONIUM_OUTBOX", default_value_t = 64)]
    pub outbox: usize,
}

impl Config {
    /// Defaults for tests: port 0, the given database, fast bots.
    pub fn for_tests(database_url: impl Into<String>) -> Config {
        let mut config = Config::parse_from(["pandemonium"]);
        config.bind = "127.0.0.1:0".parse().expect("valid address");
        config.database_url = database_url.into();
        config.bot_delay_ms = 5;
        // Test clients act as fast as the server answers; a flood is still far beyond this.
        config.limits.rate_burst = 1_000;
        config.limits.rate_per_second = 1_000;
        config
    }

    pub fn bot_delay(&self) -> Duration {
        Duration::from_millis(self.bot_delay_ms)
    }
}
