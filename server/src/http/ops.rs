//! Health, readiness and metrics.

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;

use crate::app::AppState;

/// The process is up.
pub async fn healthz() -> &'static str {
    "ok"
}

/// The process can serve: its database answers.
pub async fn readyz(State(state): State<AppState>) -> impl IntoResponse {
    match state.store.ping().await {
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
