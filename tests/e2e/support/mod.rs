//! What every end-to-end test needs: a throwaway database (SQLite file or PostgreSQL
//! database), the app on port 0, a WebSocket client that speaks the protocol, and a small HTTP
//! client.

pub mod http;
pub mod net;
pub mod private_postgres;
pub mod time;
pub mod ws;

use std::path::PathBuf;
use std::time::Duration;

use pandemonium_server::{Application, Config};

pub use http::Http;
pub use time::{pass_time, passing_time};
pub use ws::Client;

/// Which database a test runs against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A database that exists for one test and is removed after it.
#[derive(Debug)]
pub struct TestDb {
    pub url: String,
    cleanup: Cleanup,
}

#[derive(Debug)]
enum Cleanup {
    Dir(PathBuf),
    Postgres { admin: String, name: String },
}

/// Where the test PostgreSQL server is (trust auth).
fn postgres_admin_url() -> String {
    std::env::var("PANDEMONIUM_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

impl TestDb {
    /// A fresh database, or `None` when PostgreSQL is wanted but not reachable on a
    /// developer's machine (the test then says it was skipped). In CI a missing PostgreSQL
    /// fails the test.
    pub async fn new(backend: Backend) -> Option<TestDb> {
        match backend {
            Backend::Sqlite => {
                let dir = std::env::temp_dir().join(format!("pdm-e2e-{}", uuid::Uuid::new_v4()));
                std::fs::create_dir_all(&dir).expect("temp dir");
                Some(TestDb {
                    url: format!("sqlite://{}/test.db", dir.display()),
                    cleanup: Cleanup::Dir(dir),
                })
            }
            Backend::Postgres => {
                use sqlx::Connection;
                let admin = postgres_admin_url();
                let mut conn = match sqlx::PgConnection::connect(&admin).await {
                    Ok(conn) => conn,
                    Err(error) => {
                        if std::env::var("CI").is_ok_and(|v| v == "true") {
                            panic!(
                                "PostgreSQL is required in CI but unreachable at {admin}: {error}"
                            );
                        }
                        eprintln!(
                            "SKIPPED: PostgreSQL is not reachable at {admin} ({error}); set PANDEMONIUM_TEST_POSTGRES to run the PostgreSQL tests"
                        );
                        return None;
                    }
                };
                let name = format!("pdm_test_{}", uuid::Uuid::new_v4().simple());
                sqlx::query(&format!("CREATE DATABASE {name}"))
                    .execute(&mut conn)
                    .await
                    .expect("create the test database");
                let base = admin.rsplit_once('/').map(|(b, _)| b).unwrap_or(&admin);
                Some(TestDb {
                    url: format!("{base}/{name}"),
                    cleanup: Cleanup::Postgres { admin, name },
                })
            }
        }
    }

    pub async fn drop_database(self) {
        match self.cleanup {
            Cleanup::Dir(dir) => {
                let _ = std::fs::remove_dir_all(dir);
            }
            Cleanup::Postgres { admin, name } => {
                use sqlx::Connection;
                if let Ok(mut conn) = sqlx::PgConnection::connect(&admin).await {
                    let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                        .execute(&mut conn)
                        .await;
                }
            }
        }
    }
}

/// The app running in this process on port 0.
#[derive(Debug)]
pub struct TestApp {
    pub port: u16,
    pub http: Http,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl TestApp {
    pub async fn spawn(db: &TestDb) -> TestApp {
        Self::spawn_with(Config::for_tests(&db.url)).await
    }

    pub async fn spawn_with(config: Config) -> TestApp {
        let app = Application::build_with_games(config, pandemonium_e2e::games())
            .await
            .expect("the app starts");
        let port = app.port();
        let (stop, stopped) = tokio::sync::oneshot::channel();
        let task = tokio::spawn(app.run_until(async {
            let _ = stopped.await;
        }));
        TestApp {
            port,
            http: Http::new(port),
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// A handle on a server running elsewhere (another process) at `port`.
    pub fn attach(port: u16) -> TestApp {
        TestApp {
            port,
            http: Http::new(port),
            stop: None,
            task: None,
        }
    }

    /// A connected client that has said hello as a new guest called `name`.
    pub async fn guest(&self, name: &str) -> Client {
        Client::guest(self.port, name).await
    }

    /// Stops the server gracefully and waits for it.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = tokio::time::timeout(Duration::from_secs(10), task).await;
        }
    }
}

/// A match of `game` at the table `room_code` as a room starts it, with `seats` (a name, and
/// whether a bot plays it) and no special settings: for tests that write a store directly.
pub fn stored_match(
    id: &str,
    room_code: &str,
    game: &str,
    seats: &[(&str, bool)],
) -> pandemonium_server::store::NewMatch {
    use pandemonium_server::store::{NewMatch, RoomSettings, StoredSeat};
    NewMatch {
        id: id.into(),
        room_code: room_code.into(),
        game: game.into(),
        config: serde_json::json!({}),
        seats: seats
            .iter()
            .map(|&(name, bot)| StoredSeat {
                player_id: None,
                name: name.into(),
                bot,
            })
            .collect(),
        room: RoomSettings {
            public: false,
            turn_seconds: None,
            grace_seconds: 60,
            host: None,
        },
        seed: "00".repeat(32),
        seed_hash: "ab".repeat(32),
        started_at: 1,
        rematch_of: None,
    }
}

/// Declares a test that runs once against SQLite and once against PostgreSQL.
#[macro_export]
macro_rules! on_both_stores {
    ($name:ident) => {
        mod $name {
            use $crate::support::{Backend, TestDb};

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let db = TestDb::new(Backend::Sqlite)
                    .await
                    .expect("sqlite is always there");
                super::$name(&db).await;
                db.drop_database().await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                let Some(db) = TestDb::new(Backend::Postgres).await else {
                    return;
                };
                super::$name(&db).await;
                db.drop_database().await;
            }
        }
    };
}

/// Like [`on_both_stores`], on the current-thread runtime, where a test may move the clock
/// ([`pass_time`]).
#[macro_export]
macro_rules! on_both_stores_passing_time {
    ($name:ident) => {
        mod $name {
            use $crate::support::{Backend, TestDb};

            #[tokio::test]
            async fn sqlite() {
                let db = TestDb::new(Backend::Sqlite)
                    .await
                    .expect("sqlite is always there");
                super::$name(&db).await;
                db.drop_database().await;
            }

            #[tokio::test]
            async fn postgres() {
                let Some(db) = TestDb::new(Backend::Postgres).await else {
                    return;
                };
                super::$name(&db).await;
                db.drop_database().await;
            }
        }
    };
}
