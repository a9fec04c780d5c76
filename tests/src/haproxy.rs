//! HAProxy in front of three nodes on loopback, with the repository's own configuration
//! (`deploy/haproxy.cfg`, whose addresses come from the environment): how the cluster tests and
//! the load generator's `--cluster` run it.

use std::path::Path;
use std::process::Stdio;

use tokio::process::{Child, Command};

/// The configuration every cluster runs.
pub const CONFIG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/haproxy.cfg");

/// Starts `binary` listening on 127.0.0.1:`front` in front of the nodes on those loopback
/// ports; it is killed when the handle is dropped.
pub fn start(binary: &Path, front: u16, nodes: [u16; 3]) -> std::io::Result<Child> {
    Command::new(binary)
        .args(["-db", "-f", CONFIG])
        .env("PANDEMONIUM_FRONT", format!("127.0.0.1:{front}"))
        .env("PANDEMONIUM_NODE1", format!("127.0.0.1:{}", nodes[0]))
        .env("PANDEMONIUM_NODE2", format!("127.0.0.1:{}", nodes[1]))
        .env("PANDEMONIUM_NODE3", format!("127.0.0.1:{}", nodes[2]))
        // Nobody in front of HAProxy here: every client's own address counts.
        .env("PANDEMONIUM_FRONT_PROXIES", "")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
}
