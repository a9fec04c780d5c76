//! Cluster mode's settings: its defaults, and SQLite refused.

use clap::Parser;

use pandemonium_server::app::StartError;
use pandemonium_server::cluster::ClusterError;
use pandemonium_server::store::StoreError;
use pandemonium_server::telemetry::host_name;
use pandemonium_server::{Application, Config};

use crate::support::{Backend, TestDb};

#[test]
fn a_node_is_named_and_reached_by_its_host_and_port_unless_told_and_keeps_leases_three_seconds() {
    let config = Config::parse_from(["pandemonium", "--cluster", "--bind", "0.0.0.0:9000"]);
    config.validate().expect("the defaults are valid");
    assert!(config.cluster.enabled);
    let host = host_name();
    assert_eq!(config.node_name(9000), format!("{host}:9000"));
    assert_eq!(
        config.cluster.internal_address(config.bind, 9000),
        format!("{host}:9000")
    );
    assert_eq!(config.cluster.lease().as_millis(), 3_000);
    assert_eq!(config.cluster.renew_every().as_millis(), 1_000);

    let named = Config::parse_from([
        "pandemonium",
        "--cluster",
        "--bind",
        "10.0.0.7:0",
        "--node-name",
        "blue",
    ]);
    assert_eq!(named.node_name(41_000), "blue");
    assert_eq!(
        named.cluster.internal_address(named.bind, 41_000),
        "10.0.0.7:41000",
        "the port the listener took"
    );
    // Outside cluster mode the name stays the host's alone, as before.
    let single = Config::parse_from(["pandemonium"]);
    assert_eq!(single.node_name(8080), host);
}

#[test]
fn a_renewal_period_over_half_a_lease_is_refused() {
    let config = Config::parse_from([
        "pandemonium",
        "--cluster",
        "--lease-ms",
        "3000",
        "--lease-renew-ms",
        "2000",
    ]);
    let error = config
        .validate()
        .expect_err("a late heartbeat would lose rooms");
    assert_eq!(error.flag, "--lease-renew-ms");
}

#[tokio::test]
async fn cluster_mode_on_sqlite_is_refused_at_start_saying_sqlite_is_the_single_node_store() {
    let db = TestDb::new(Backend::Sqlite)
        .await
        .expect("sqlite is always there");
    let mut config = Config::for_tests(&db.url);
    config.cluster.enabled = true;
    let refused = Application::build_with_games(config, pandemonium_e2e::games()).await;
    let error = refused.expect_err("SQLite cannot be shared by nodes");
    assert!(
        matches!(
            error,
            StartError::Store(StoreError::Cluster(ClusterError::NeedsPostgres))
        ),
        "{error:?}"
    );
    let said = error.to_string();
    assert!(
        said.contains("cluster mode needs PostgreSQL") && said.contains("single-node store"),
        "{said}"
    );
    db.drop_database().await;
}
