//! The Pandemonium server.
//!
//! A request's path through the modules: [`http`] routes the lobby API and upgrades `/ws` to
//! a [`ws`] connection task, which parses each frame into a typed `ClientMsg` and forwards
//! room messages to that room's task ([`room`]). The room checks the seat, asks the engine,
//! appends the action to the [`store`] (group commit) before telling anyone, then sends each
//! viewer its own view. The [`lobby`] only knows which rooms exist. [`app`] wires it together:
//! `Application::build(config)` then `run_until(shutdown)`.

pub mod app;
pub mod config;
pub mod error;
pub mod http;
pub mod identity;
pub mod limiter;
pub mod lobby;
pub mod metrics;
pub mod online;
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
    telemetry::init(config.log_format);
    let bind = config.bind;
    let database = redact(&config.database_url);
    let app = match Application::build(config).await {
        Ok(app) => app,
        Err(error) => {
            tracing::error!(%error, "could not start");
            return std::process::ExitCode::FAILURE;
        }
    };
    tracing::info!(%bind, port = app.port(), %database, "Pandemonium is listening");
    app.run_until(shutdown_signal()).await;
    std::process::ExitCode::SUCCESS
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
}
