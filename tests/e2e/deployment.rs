//! The self-hosting files' structure, checked in a second: the image copies every workspace
//! member and builds the binary that exists, and the compose file starts PostgreSQL and the
//! server with healthchecks, in order, with a data volume. `make compose-test`
//! (tests/compose/) builds and runs them for real, in minutes.

use std::path::Path;

fn read(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The `members = [...]` of the root Cargo.toml.
fn workspace_members() -> Vec<String> {
    let manifest = read("Cargo.toml");
    let start = manifest.find("members = [").expect("a members list") + "members = [".len();
    let end = start + manifest[start..].find(']').expect("the list ends");
    manifest[start..end]
        .split(',')
        .map(|m| m.trim().trim_matches('"').to_string())
        .filter(|m| !m.is_empty())
        .collect()
}

#[test]
fn the_image_copies_every_workspace_member_and_builds_the_server_binary() {
    let dockerfile = read("Dockerfile");
    for member in workspace_members() {
        let top = member.split('/').next().unwrap();
        assert!(
            dockerfile.contains(&format!("COPY {top} {top}")),
            "the Dockerfile does not copy workspace member `{member}`: cargo would fail in the image"
        );
    }
    assert!(
        dockerfile.contains("COPY migrations migrations"),
        "migrations are embedded at build time"
    );
    let server = read("server/Cargo.toml");
    assert!(
        server.contains("name = \"pandemonium\""),
        "the server binary is `pandemonium`"
    );
    assert!(
        dockerfile
            .contains("cargo build --release --locked -p pandemonium-server --bin pandemonium")
    );
    // The image builds SQLite as every other build does: syncing its WAL with fdatasync.
    assert!(dockerfile.contains("COPY .cargo .cargo"));
    assert!(read(".cargo/config.toml").contains("LIBSQLITE3_FLAGS = \"-DHAVE_FDATASYNC=1\""));
    assert!(dockerfile.contains("target/release/pandemonium /usr/local/bin/pandemonium"));
    assert!(
        dockerfile.contains("web-client/dist"),
        "the image serves the built web client"
    );
    assert!(
        dockerfile.contains("npm ci"),
        "the web client builds from its lock file"
    );
    assert!(dockerfile.contains("HEALTHCHECK") && dockerfile.contains("/readyz"));
}

/// A service's block: its `  name:` line and every more-indented line after it, with what it
/// takes from an anchor (`<<: *node`) written out in place.
fn service(compose: &str, name: &str) -> String {
    let mut lines = compose.lines().skip_while(|l| *l != format!("  {name}:"));
    assert!(lines.next().is_some(), "a `{name}` service");
    lines
        .take_while(|l| l.is_empty() || l.starts_with("    "))
        .flat_map(|line| merged(compose, line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `line` as YAML merges it: a merge key (`<<: *name`) becomes the block of the top-level
/// entry anchored `&name`, at the merge key's indentation; any other line stays as it is.
fn merged(compose: &str, line: &str) -> Vec<String> {
    let indent = line.len() - line.trim_start().len();
    let Some(anchor) = line.trim_start().strip_prefix("<<: *") else {
        return vec![line.to_string()];
    };
    let mut block = compose
        .lines()
        .skip_while(|l| !l.ends_with(&format!(": &{anchor}")));
    assert!(block.next().is_some(), "an anchor `&{anchor}`");
    block
        .take_while(|l| l.is_empty() || l.starts_with("  "))
        .map(|l| {
            format!(
                "{}{}",
                " ".repeat(indent),
                l.strip_prefix("  ").unwrap_or(l)
            )
        })
        .collect()
}

#[test]
fn compose_starts_postgres_then_the_server_with_healthchecks_and_a_volume() {
    let compose = read("docker-compose.yml");
    let section = |name: &str| service(&compose, name);
    let db = section("db");
    assert!(db.contains("image: postgres"), "{db}");
    assert!(
        db.contains("healthcheck:") && db.contains("pg_isready"),
        "{db}"
    );
    assert!(
        db.contains("pgdata:/var/lib/postgresql/data"),
        "the database keeps its data in a volume"
    );
    let server = section("server");
    assert!(
        server.contains("build:") && server.contains("context: ."),
        "{server}"
    );
    assert!(
        server.contains("condition: service_healthy"),
        "the server waits for a healthy database"
    );
    assert!(
        server.contains("DATABASE_URL: postgres://") && server.contains("@db:5432/"),
        "{server}"
    );
    assert!(
        server.contains("\"127.0.0.1:${PANDEMONIUM_PORT:-8080}:8080\""),
        "published on loopback, for a reverse proxy: {server}"
    );
    assert!(
        server.contains("healthcheck:") && server.contains("/readyz"),
        "{server}"
    );
    assert!(
        compose.contains("\nvolumes:\n  pgdata:"),
        "the named volume is declared"
    );
}

#[test]
fn every_node_of_compose_runs_in_cluster_mode_and_the_cluster_profile_adds_two_and_haproxy() {
    let compose = read("docker-compose.yml");
    // A server outside cluster mode would resume every running match it finds, leases or not:
    // beside cluster nodes on the same database it would play theirs too.
    let mut names = Vec::new();
    for node in ["server", "node2", "node3"] {
        let block = service(&compose, node);
        assert!(
            block.contains("PANDEMONIUM_CLUSTER: \"true\""),
            "{node} is a cluster node: {block}"
        );
        let name = block
            .lines()
            .find_map(|l| l.trim().strip_prefix("PANDEMONIUM_NODE_NAME: "))
            .unwrap_or_else(|| panic!("{node} has a node name"))
            .to_string();
        names.push(name);
        assert!(
            block.contains(&format!("PANDEMONIUM_INTERNAL_ADDRESS: {node}:8080")),
            "{node} is reached by its service name"
        );
        assert_eq!(
            node != "server",
            block.contains("profiles: [cluster]"),
            "only the extra nodes wait for the profile"
        );
    }
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 3, "every node has a name of its own");
    let haproxy = service(&compose, "haproxy");
    assert!(haproxy.contains("profiles: [cluster]"), "{haproxy}");
    assert!(
        haproxy.contains("./deploy/haproxy.cfg:"),
        "HAProxy runs the repository's configuration: {haproxy}"
    );
}
