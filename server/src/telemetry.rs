//! Logging: human-readable by default, JSON lines for log collectors. Every room's and every
//! connection's lines name the node (the server) they come from: their spans are children of
//! one `node` span ([`node`]), which JSON lines list with their own.

use std::sync::OnceLock;
use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// The span of this server, parent of every room's and connection's span.
static NODE: OnceLock<tracing::Span> = OnceLock::new();

/// Installs the global subscriber. `RUST_LOG` overrides the default level (info). `node` is
/// the name the server's lines carry.
pub fn init(format: LogFormat, node: &str) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    let _ = match format {
        LogFormat::Pretty => builder.try_init(),
        LogFormat::Json => builder.json().with_span_list(true).try_init(),
    };
    let _ = NODE.set(tracing::info_span!("node", node = %node));
}

/// The span a room's or a connection's span hangs from: this server's, once [`init`] has
/// named it (none in tests that build the app without logging).
pub fn node() -> &'static tracing::Span {
    static NONE: OnceLock<tracing::Span> = OnceLock::new();
    NODE.get()
        .unwrap_or_else(|| NONE.get_or_init(tracing::Span::none))
}

/// The machine's host name (in a container, the container's), for a node not named by flag.
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "pandemonium".to_string())
}
