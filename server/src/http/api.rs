//! The JSON API: games, guests, rooms, finished matches and their replays.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::{Extension, Json};
use serde::Deserialize;

use pandemonium_game::Viewer;
use pandemonium_protocol::{
    CreateRoom, GameInfo, Guest, MatchPage, MatchRecord, NewGuest, Replay, ReplayFrame, RoomCode,
    RoomList, RoomSummary,
};

use crate::app::AppState;
use crate::error::AppError;
use crate::http::Peer;
use crate::identity::{self, Player};
use crate::lobby::MAX_PER_PAGE;
use crate::room::replay::replay as replay_log;
use crate::store::MatchStatus;

const PER_PAGE: u32 = 20;

pub async fn games(State(state): State<AppState>) -> Json<Vec<GameInfo>> {
    Json(state.lobby.games().iter().map(|e| (e.info)()).collect())
}

pub async fn new_guest(
    State(state): State<AppState>,
    Extension(peer): Extension<Peer>,
    headers: HeaderMap,
    body: Result<Json<NewGuest>, JsonRejection>,
) -> Result<(StatusCode, Json<Guest>), AppError> {
    state.quotas.guest(state.quotas.client(&peer, &headers))?;
    let Json(body) = body.map_err(|e| AppError::BadRequest(e.body_text()))?;
    let (player, token) = identity::create_guest(&state.store, &body.name).await?;
    Ok((
        StatusCode::CREATED,
        Json(Guest {
            player_id: player.id,
            name: player.name,
            token,
        }),
    ))
}

/// The guest named by `Authorization: Bearer <token>`, if any.
async fn bearer(state: &AppState, headers: &HeaderMap) -> Result<Option<Player>, AppError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let token = value
        .to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Bearer "))
        .ok_or(AppError::UnknownToken)?;
    identity::authenticate(&state.store, token.trim())
        .await
        .map(Some)
}

pub async fn create_room(
    State(state): State<AppState>,
    Extension(peer): Extension<Peer>,
    headers: HeaderMap,
    body: Result<Json<CreateRoom>, JsonRejection>,
) -> Result<(StatusCode, Json<RoomSummary>), AppError> {
    state.quotas.room(state.quotas.client(&peer, &headers))?;
    let Json(request) = body.map_err(|e| AppError::BadRequest(e.body_text()))?;
    let host = bearer(&state, &headers).await?;
    let summary = state.lobby.create_room(request, host)?;
    Ok((StatusCode::CREATED, Json(summary)))
}

#[derive(Debug, Deserialize)]
pub struct RoomsQuery {
    #[serde(default)]
    page: usize,
    per_page: Option<usize>,
}

/// One page of public rooms (`?page=0&per_page=50`), in code order.
pub async fn list_rooms(
    State(state): State<AppState>,
    query: Result<Query<RoomsQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<RoomList>, AppError> {
    let Query(query) = query.map_err(|e| AppError::BadRequest(e.body_text()))?;
    let per_page = query.per_page.unwrap_or(MAX_PER_PAGE);
    if per_page == 0 || per_page > MAX_PER_PAGE {
        return Err(AppError::BadRequest(format!(
            "per_page is 1 to {MAX_PER_PAGE}."
        )));
    }
    Ok(Json(RoomList {
        rooms: state.lobby.public_rooms(query.page, per_page),
        online: state.lobby.online().count(),
    }))
}

pub async fn get_room(
    State(state): State<AppState>,
    Extension(peer): Extension<Peer>,
    headers: HeaderMap,
    Path(code): Path<String>,
) -> Result<Json<RoomSummary>, AppError> {
    state.quotas.lookup(state.quotas.client(&peer, &headers))?;
    let code = RoomCode::parse(&code).ok_or(AppError::RoomNotFound)?;
    let room = state.lobby.room(&code).ok_or(AppError::RoomNotFound)?;
    Ok(Json(room.summary()))
}

#[derive(Debug, Deserialize)]
pub struct MatchQuery {
    game: Option<String>,
    #[serde(default)]
    page: u32,
}

pub async fn list_matches(
    State(state): State<AppState>,
    query: Result<Query<MatchQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<MatchPage>, AppError> {
    let Query(query) = query.map_err(|e| AppError::BadRequest(e.body_text()))?;
    let game = query.game.as_deref().filter(|g| !g.is_empty());
    let (matches, total) = state
        .store
        .finished_matches(game, query.page, PER_PAGE)
        .await?;
    Ok(Json(MatchPage {
        matches,
        page: query.page,
        per_page: PER_PAGE,
        total,
    }))
}

/// A match and everything needed to replay it. The seed is published only once the match is
/// over; while it runs only its hash is.
pub async fn get_match(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<MatchRecord>, AppError> {
    let stored = state
        .store
        .match_record(&id)
        .await?
        .ok_or(AppError::MatchNotFound)?;
    let finished = stored.status == MatchStatus::Finished;
    Ok(Json(MatchRecord {
        players: stored.player_names(),
        seed: finished.then(|| stored.seed.clone()),
        id: stored.id,
        game: stored.game,
        config: stored.config,
        seed_hash: stored.seed_hash,
        log: if finished { stored.log } else { Vec::new() },
        outcome: stored.outcome,
        finished,
        started_at: stored.started_at,
        finished_at: stored.finished_at,
        rematch_of: stored.rematch_of,
        rematch: stored.rematch,
    }))
}

#[derive(Debug, Deserialize)]
pub struct ReplayQuery {
    #[serde(default)]
    viewer: Option<String>,
}

fn parse_viewer(text: Option<&str>) -> Result<Viewer, AppError> {
    match text.unwrap_or("spectator") {
        "spectator" => Ok(Viewer::Spectator),
        "omniscient" => Ok(Viewer::Omniscient),
        other => other
            .strip_prefix("seat:")
            .and_then(|s| s.parse().ok())
            .map(Viewer::Seat)
            .ok_or_else(|| {
                AppError::BadRequest("viewer is spectator, omniscient or seat:N".into())
            }),
    }
}

/// A finished match as one viewer saw it, frame by frame. Only finished matches: a running
/// match's log would reveal what the players may not yet see.
pub async fn replay(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<ReplayQuery>,
) -> Result<Json<Replay>, AppError> {
    let viewer = parse_viewer(query.viewer.as_deref())?;
    let stored = state
        .store
        .match_record(&id)
        .await?
        .ok_or(AppError::MatchNotFound)?;
    if stored.status != MatchStatus::Finished {
        return Err(AppError::MatchNotFound);
    }
    if let Viewer::Seat(seat) = viewer
        && seat as usize >= stored.seats.len()
    {
        return Err(AppError::BadRequest(format!(
            "the match has no seat {seat}"
        )));
    }
    let entry = state.lobby.game(&stored.game)?;
    let seed = stored.seed_bytes()?;
    let mut views = Vec::with_capacity(stored.log.len() + 1);
    replay_log(
        entry,
        &stored.config,
        stored.seats.len() as u8,
        seed,
        &stored.log,
        |_, game| views.push(game.view_value(viewer)),
    )
    .map_err(|e| {
        tracing::error!(%id, error = %e, "a stored match does not replay");
        AppError::Unavailable
    })?;
    let frames = views
        .into_iter()
        .enumerate()
        .map(|(i, view)| ReplayFrame {
            action: i.checked_sub(1).map(|a| stored.log[a].clone()),
            view,
        })
        .collect();
    Ok(Json(Replay {
        id: stored.id,
        game: stored.game,
        viewer,
        frames,
        outcome: stored.outcome,
    }))
}

pub async fn not_found() -> AppError {
    AppError::NoSuchEndpoint
}
