//! Settings that cannot work are refused at start, naming the flag.

use pandemonium_server::Config;

use super::sqlite;

#[tokio::test]
async fn a_configuration_that_cannot_work_is_refused_at_start_naming_the_flag() {
    let db = sqlite().await;
    type Breaker = fn(&mut Config);
    let cases: [(&str, Breaker); 7] = [
        ("--idle-seconds", |c| c.limits.idle_seconds = 0),
        ("--outbox", |c| c.limits.outbox = 0),
        ("--rate-per-second", |c| c.limits.rate_per_second = 0),
        ("--handshake-seconds", |c| c.limits.handshake_seconds = 0),
        ("--write-timeout-seconds", |c| {
            c.limits.write_timeout_seconds = 0
        }),
        ("--max-connections", |c| c.network.max_connections = 0),
        ("--commit-linger-micros", |c| c.commit_linger_micros = 5_000),
    ];
    for (flag, break_it) in cases {
        let mut config = Config::for_tests(&db.url);
        break_it(&mut config);
        let error = pandemonium_server::Application::build(config)
            .await
            .err()
            .unwrap_or_else(|| panic!("the server started with a broken {flag}"));
        assert!(error.to_string().contains(flag), "{flag}: {error}");
    }
    db.drop_database().await;
}

#[tokio::test]
async fn an_in_memory_database_is_refused_at_start_as_it_would_lose_every_match() {
    for url in ["sqlite::memory:", "sqlite://:memory:"] {
        let error = pandemonium_server::Application::build(Config::for_tests(url))
            .await
            .err()
            .unwrap_or_else(|| panic!("the server started on {url}"));
        assert!(error.to_string().contains("in-memory"), "{url}: {error}");
    }
}
