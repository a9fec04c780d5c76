//! Building and running the application: `Application::build(config)` binds the listener
//! (port 0 in tests), connects the store, rebuilds unfinished matches, and returns an app
//! whose `run` serves until shutdown.

use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::watch;

use pandemonium_game_contract::GameEntry;

use crate::cluster::ClusterOptions;
use crate::config::{Config, InvalidConfig};
use crate::http::quotas::Quotas;
use crate::lobby::Lobby;
use crate::metrics::Metrics;
use crate::resumption::{self, Takeovers};
use crate::store::{SqliteOptions, Store, StoreError, StoreOptions, WriterOptions};

/// What every request handler and connection shares.
#[derive(Debug, Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub store: Store,
    pub lobby: Lobby,
    pub metrics: Arc<Metrics>,
    /// What one address may create or look up.
    pub quotas: Arc<Quotas>,
    /// Flips to true when the server begins to stop.
    pub shutdown: watch::Receiver<bool>,
    /// Rooms being taken over from a stopped node (cluster mode).
    pub takeovers: Arc<Takeovers>,
}

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("invalid setting: {0}")]
    Config(#[from] InvalidConfig),
    #[error("could not listen on {address}: {source}")]
    Bind {
        address: std::net::SocketAddr,
        source: std::io::Error,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
}

#[derive(Debug)]
pub struct Application {
    listener: TcpListener,
    state: AppState,
    stop: watch::Sender<bool>,
}

impl Application {
    /// Builds the server with every registered game.
    pub async fn build(config: Config) -> Result<Application, StartError> {
        Self::build_with_games(config, pandemonium_game_registry::all()).await
    }

    /// Builds the server with a chosen list of games (tests add fixture games).
    pub async fn build_with_games(
        config: Config,
        games: &'static [GameEntry],
    ) -> Result<Application, StartError> {
        config.validate()?;
        let listener = TcpListener::bind(config.bind)
            .await
            .map_err(|source| StartError::Bind {
                address: config.bind,
                source,
            })?;
        let metrics = Arc::new(Metrics::default());
        let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
        let cluster = config.cluster.enabled.then(|| ClusterOptions {
            node: config.node_name(port),
            internal_address: config.cluster.internal_address(config.bind, port),
            lease: config.cluster.lease(),
            renew_every: config.cluster.renew_every(),
            counters: metrics.cluster.clone(),
        });
        let store = Store::connect_with(
            &config.database_url,
            StoreOptions {
                writer: WriterOptions {
                    linger: Duration::from_micros(config.commit_linger_micros),
                    abort_after_finish: config.test_abort_after_finish,
                    commit_times: metrics.store_commits.clone(),
                },
                sqlite: SqliteOptions {
                    synchronous: config.sqlite_synchronous,
                    checkpoint_every: Duration::from_secs(config.sqlite_checkpoint_seconds),
                },
                cluster,
            },
        )
        .await?;
        let lobby = Lobby::new(
            games,
            store.clone(),
            metrics.clone(),
            config.bot_delay(),
            Duration::from_secs(config.empty_room_seconds),
            config.quotas.clone(),
            config.patch_min_bytes,
        );
        let quotas = Arc::new(Quotas::new(&config.quotas, &config.network));
        quotas.keep_tidy();
        let (stop, shutdown) = watch::channel(false);
        let state = AppState {
            config: Arc::new(config),
            store,
            lobby,
            metrics,
            quotas,
            shutdown,
            takeovers: Arc::default(),
        };
        resume_unfinished_matches(&state).await?;
        prune_unused_guests(&state);
        publish_lobby(&state);
        Ok(Application {
            listener,
            state,
            stop,
        })
    }

    pub fn port(&self) -> u16 {
        self.listener.local_addr().map(|a| a.port()).unwrap_or(0)
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until `stop` resolves; then stops accepting, closes every socket with a reason
    /// and flushes the store.
    pub async fn run_until(self, stop: impl std::future::Future<Output = ()> + Send + 'static) {
        let router = crate::http::router(self.state.clone());
        let lobby = self.state.lobby.clone();
        let signal = self.stop;
        let stopping = tokio::spawn(async move {
            stop.await;
            tracing::info!("shutting down: closing rooms and connections");
            let _ = signal.send(true);
            lobby.shutdown().await;
        });
        crate::http::listen::serve(
            self.listener,
            router,
            &self.state.config.network,
            self.state.shutdown.clone(),
            Duration::from_secs(10),
        )
        .await;
        let _ = stopping.await;
        self.state.store.close().await;
        tracing::info!("stopped");
    }
}

/// In cluster mode, shares this node's rooms and people with the other nodes and follows
/// theirs (`cluster::directory`), until the node leaves.
fn publish_lobby(state: &AppState) {
    if let Some(node) = state.store.node() {
        let lobby = state.lobby.clone();
        node.directory().start(move || {
            crate::cluster::directory::Local::new(lobby.summaries(), lobby.online().people())
        });
    }
}

/// Deletes guests that never sat in a match once they are `--unused-guest-days` old, every
/// hour while the server runs.
fn prune_unused_guests(state: &AppState) {
    let store = state.store.clone();
    let age = Duration::from_secs(state.config.quotas.unused_guest_days * 86_400);
    let mut shutdown = state.shutdown.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(3_600));
        loop {
            tokio::select! {
                _ = every.tick() => {}
                _ = shutdown.changed() => return,
            }
            match store.prune_guests(age).await {
                Ok(0) => {}
                Ok(pruned) => tracing::info!(pruned, "unused guests deleted"),
                Err(error) => tracing::warn!(%error, "could not prune unused guests"),
            }
        }
    });
}

/// Rebuilds every match that was running when the server last stopped, so its players can
/// reconnect to it. A match that cannot be rebuilt is logged and marked abandoned: its log
/// moves into its row like any ended match's, kept whole, and it no longer counts as running
/// (on SQLite a running match holds back the deletion of every row appended after its start).
///
/// In cluster mode a node resumes only the matches whose room lease it can take (released,
/// expired, or its own from a previous run): the others belong to live nodes.
async fn resume_unfinished_matches(state: &AppState) -> Result<(), StoreError> {
    for stored in state.store.running_matches().await? {
        let mut lease = match state.store.node() {
            Some(node) => match node.take(&stored.room_code).await? {
                Some(lease) => Some(lease),
                None => {
                    tracing::info!(
                        room = %stored.room_code,
                        id = %stored.id,
                        "a running match left alone: another node holds its room"
                    );
                    continue;
                }
            },
            None => None,
        };
        match resumption::resume(&state.lobby, &state.store, &stored, &mut lease).await {
            Ok(()) => tracing::info!(room = %stored.room_code, id = %stored.id, "match resumed"),
            Err(error) => {
                tracing::error!(
                    id = %stored.id,
                    %error,
                    "could not resume a match; it is marked abandoned, its log kept"
                );
                state.store.abandon(&stored.id).await?;
                if let (Some(node), Some(lease)) = (state.store.node(), lease) {
                    node.release(&lease).await?;
                }
            }
        }
    }
    Ok(())
}
