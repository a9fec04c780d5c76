//! HTTP routes: the lobby API, match history, operations endpoints, the WebSocket endpoint
//! and the web client.

mod api;
mod ops;
mod web;

use axum::Router;
use axum::routing::{get, post};

use crate::app::AppState;

pub fn router(state: AppState) -> Router {
    let static_dir = state.config.static_dir.clone();
    Router::new()
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
        .route("/ws", get(crate::ws::upgrade))
        .fallback_service(web::service(&static_dir))
        .with_state(state)
}
