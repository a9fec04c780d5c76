//! HTTP: accepting connections ([`listen`]: caps and timeouts, and a trusted proxy's
//! [`proxy_protocol`] header), whose address a client counts as ([`addresses`]: trusted
//! proxies, unlimited addresses), the routes (the lobby API, match history, operations
//! endpoints, the WebSocket endpoint and the web client), the per-address [`quotas`], what
//! every response carries ([`headers`]: security headers, caching, compression), and API
//! errors in one shape even when the framework answers ([`plain_errors`]).

pub mod addresses;
mod api;
mod headers;
pub mod listen;
mod ops;
mod plain_errors;
pub mod proxy_protocol;
pub mod quotas;
mod room_param;
mod web;

use axum::Router;
use axum::routing::{get, post};
use std::time::Duration;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{DefaultPredicate, Predicate, SizeAbove};
use tower_http::timeout::TimeoutLayer;

use crate::app::AppState;

pub use listen::Peer;
pub use room_param::room_in;

/// Answers shorter than this go uncompressed: for a guest, a room summary or an error, setting
/// up an encoder here and a decoder in the client costs more than the few hundred bytes saved
/// (in the bench kit's room turnover, decompressing them was a sixth of the client's work).
const COMPRESS_FROM_BYTES: u16 = 1024;

pub fn router(state: AppState) -> Router {
    let static_dir = state.config.static_dir.clone();
    let request_time = Duration::from_secs(state.config.network.request_seconds);
    let api = Router::new()
        .route("/api/games", get(api::games))
        .route("/api/guests", post(api::new_guest))
        .route("/api/rooms", get(api::list_rooms).post(api::create_room))
        .route("/api/rooms/{code}", get(api::get_room))
        .route("/api/matches", get(api::list_matches))
        .route("/api/matches/{id}", get(api::get_match))
        .route("/api/matches/{id}/replay", get(api::replay))
        .route("/api/{*rest}", get(api::not_found).post(api::not_found))
        .route("/healthz", get(ops::healthz))
        .route("/readyz", get(ops::readyz))
        .route("/metrics", get(ops::metrics))
        .fallback_service(web::service(&static_dir))
        // A request, body included, has a deadline: a slow body cannot hold a connection.
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            request_time,
        ))
        .layer(
            CompressionLayer::new()
                .gzip(true)
                .br(true)
                .compress_when(DefaultPredicate::new().and(SizeAbove::new(COMPRESS_FROM_BYTES))),
        )
        .layer(axum::middleware::from_fn(headers::caching));
    // The upgrade answers with no body: nothing to compress or cache.
    let ws = Router::new().route("/ws", get(crate::ws::upgrade));
    api.merge(ws)
        .layer(axum::middleware::from_fn(plain_errors::as_api_errors))
        .layer(axum::middleware::from_fn(headers::impossible_paths))
        .layer(axum::middleware::from_fn(headers::security))
        .with_state(state)
}
