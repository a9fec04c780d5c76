//! The Pandemonium server.
//!
//! A request's path through the modules: [`http`] routes the lobby API and upgrades `/ws` to
//! a [`ws`] connection task, which parses each frame into a typed `ClientMsg` and forwards
//! room messages to that room's task ([`room`]). The room checks the seat, asks the engine,
//! appends the action to the [`store`] (group commit) before telling anyone, then sends each
//! viewer its own view. The [`lobby`] only knows which rooms exist. [`app`] wires it together:
//! `Application::build(config)` then `run_until(shutdown)`.

pub mod app;
pub mod cluster;
pub mod config;
pub mod error;
pub mod http;
pub mod identity;
pub mod limiter;
pub mod lobby;
pub mod metrics;
pub mod online;
pub mod resumption;
pub mod room;
pub mod store;
pub mod telemetry;
pub mod text;
pub mod ws;

pub use app::Application;
pub use config::Config;

/// mimalloc instead of the system allocator: a room allocates and frees a frame per viewer
/// and version, and under load glibc's malloc kept handing memory back and faulting it in
/// again (see docs/performance.md for the figures).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Runs the server as the `pandemonium` binary does: configuration from flags and environment,
/// until SIGINT or SIGTERM.
pub async fn main_entry() -> std::process::ExitCode {
    use clap::Parser;
    let config = Config::parse();
    let node = config.node_name(config.bind.port());
    telemetry::init(config.log_format, &node);
    let bind = config.bind;
    let database = redact(&config.database_url);
    let app = match Application::build(config).await {
        Ok(app) => app,
        Err(error) => {
            tracing::error!(%error, "could not start");
            return std::process::ExitCode::FAILURE;
        }
    };
    let ready = Ready::new(bind, app.port());
    tracing::info!(%bind, port = app.port(), %database, %node, "{ready}");
    app.run_until(shutdown_signal()).await;
    std::process::ExitCode::SUCCESS
}

/// The line that says the server is up: the address to open, and, when it listens on every
/// interface, that other machines reach it too (a newcomer should know both before sharing a
/// link or exposing a laptop).
struct Ready {
    url: String,
    everywhere: bool,
}

impl Ready {
    fn new(bind: std::net::SocketAddr, port: u16) -> Self {
        let ip = bind.ip();
        let host = match ip {
            ip if ip.is_unspecified() => "localhost".to_string(),
            std::net::IpAddr::V6(v6) => format!("[{v6}]"),
            std::net::IpAddr::V4(v4) => v4.to_string(),
        };
        Ready {
            url: format!("http://{host}:{port}"),
            everywhere: ip.is_unspecified(),
        }
    }
}

impl std::fmt::Display for Ready {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Pandemonium is listening: open {} in a browser",
            self.url
        )?;
        if self.everywhere {
            write!(
                f,
                " (listening on every interface: other machines reach it at this one's \
                 address; --bind 127.0.0.1:PORT keeps it to this machine)"
            )?;
        }
        Ok(())
    }
}

/// The database URL without its password, for the log.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            let user = credentials.split(':').next().unwrap_or("");
            format!("{}{user}:***{}", &url[..scheme + 3], &url[at..])
        }
        _ => url.to_string(),
    }
}

/// Resolves on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = interrupt => {},
        _ = terminate => {},
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn database_passwords_never_reach_the_log() {
        assert_eq!(
            super::redact("postgres://app:secret@db:5432/pandemonium"),
            "postgres://app:***@db:5432/pandemonium"
        );
        assert_eq!(super::redact("sqlite://data/p.db"), "sqlite://data/p.db");
    }

    #[test]
    fn the_ready_line_names_the_address_to_open_and_warns_of_every_interface() {
        let everywhere = super::Ready::new("0.0.0.0:0".parse().unwrap(), 8080).to_string();
        assert!(
            everywhere.contains("open http://localhost:8080 in a browser"),
            "{everywhere}"
        );
        assert!(
            everywhere.contains("listening on every interface"),
            "{everywhere}"
        );
        let local = super::Ready::new("127.0.0.1:8080".parse().unwrap(), 8080).to_string();
        assert_eq!(
            local,
            "Pandemonium is listening: open http://127.0.0.1:8080 in a browser"
        );
        let v6 = super::Ready::new("[::1]:9000".parse().unwrap(), 9000).to_string();
        assert!(v6.contains("open http://[::1]:9000 in a browser"), "{v6}");
        let v6_everywhere = super::Ready::new("[::]:9000".parse().unwrap(), 9000).to_string();
        assert!(v6_everywhere.contains("every interface"), "{v6_everywhere}");
    }
}
