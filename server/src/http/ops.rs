//! Health, readiness and metrics.

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use std::time::Duration;

use crate::app::AppState;
use crate::store::StoreError;

/// The process is up.
pub async fn healthz() -> &'static str {
    "ok"
}

/// The process can serve: its database answers.
/// How long `/readyz` waits for the database.
const READY_WITHIN: Duration = Duration::from_millis(900);

pub async fn readyz(State(state): State<AppState>) -> impl IntoResponse {
    // Answered within a second, as a balancer's check expects (HAProxy's times out after
    // its interval): a database that does not answer would otherwise hold the request for
    // the pool's whole wait for a connection.
    let ping = tokio::time::timeout(READY_WITHIN, state.store.ping()).await;
    match ping.unwrap_or(Err(StoreError::TimedOut)) {
        Ok(()) => (StatusCode::OK, "ready"),
        Err(error) => {
            tracing::warn!(%error, "not ready: the database does not answer");
            (StatusCode::SERVICE_UNAVAILABLE, "database unreachable")
        }
    }
}

pub async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(),
    )
}
