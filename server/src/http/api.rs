//! The JSON API: games, guests, rooms, finished matches and their replays.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::{Extension, Json};
use serde::Deserialize;

use pandemonium_game_contract::Viewer;
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

/// Finished matches on a page of the history, unless the request asks for another number.
const PER_PAGE: u32 = 20;
/// The most finished matches one page of the history holds.
const MAX_MATCHES_PER_PAGE: u32 = 100;

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
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Result<Json<CreateRoom>, JsonRejection>,
) -> Result<(StatusCode, Json<RoomSummary>), AppError> {
    state.quotas.room(state.quotas.client(&peer, &headers))?;
    let Json(request) = body.map_err(|e| AppError::BadRequest(e.body_text()))?;
    let host = bearer(&state, &headers).await?;
    let proposed = super::room_in(query.as_deref());
    let summary = state.lobby.create_room(request, host, proposed).await?;
    Ok((StatusCode::CREATED, Json(summary)))
}

/// The query of a paged list: every parameter as text, read here so that a value out of
/// range is answered in the API's own words.
#[derive(Debug, Deserialize)]
pub struct PageQuery {
    game: Option<String>,
    page: Option<String>,
    per_page: Option<String>,
}

impl PageQuery {
    /// `name`'s value, a whole number from `min` to `max`; `default` when it is absent.
    fn number(
        value: Option<&str>,
        name: &str,
        min: u32,
        max: u32,
        default: u32,
    ) -> Result<u32, AppError> {
        let Some(text) = value else {
            return Ok(default);
        };
        text.parse::<u32>()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| {
                AppError::BadRequest(format!("{name} is a whole number from {min} to {max}."))
            })
    }

    fn page(&self) -> Result<u32, AppError> {
        Self::number(self.page.as_deref(), "page", 0, MAX_PAGE, 0)
    }

    fn per_page(&self, default: u32, max: u32) -> Result<u32, AppError> {
        Self::number(self.per_page.as_deref(), "per_page", 1, max, default)
    }
}

/// The query could not be read at all (a parameter given twice, bytes that are not text).
fn unreadable_query(_: axum::extract::rejection::QueryRejection) -> AppError {
    AppError::BadRequest("The query string could not be read: give each parameter once.".into())
}

/// The highest page number a list accepts: deep enough for any history, low enough that the
/// offset it makes stays a plain number on both databases.
const MAX_PAGE: u32 = 1_000_000;

/// One page of public rooms (`?page=0&per_page=50`), in code order.
pub async fn list_rooms(
    State(state): State<AppState>,
    query: Result<Query<PageQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<RoomList>, AppError> {
    let Query(query) = query.map_err(unreadable_query)?;
    let per_page = query.per_page(MAX_PER_PAGE as u32, MAX_PER_PAGE as u32)?;
    let here = state.lobby.online();
    Ok(Json(RoomList {
        rooms: state
            .lobby
            .public_rooms(query.page()? as usize, per_page as usize),
        online: match state.store.node() {
            Some(node) => node.directory().online(here),
            None => here.count(),
        },
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
    // A room of this node's, or (in cluster mode) of another live node's.
    let summary = match state.lobby.room(&code) {
        Some(room) => Some(room.summary()),
        None => state
            .store
            .node()
            .and_then(|node| node.directory().room(&code)),
    };
    summary.map(Json).ok_or(AppError::RoomNotFound)
}

/// One page of finished matches (`?game=demos&page=0&per_page=20`), newest first.
pub async fn list_matches(
    State(state): State<AppState>,
    query: Result<Query<PageQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<MatchPage>, AppError> {
    let Query(query) = query.map_err(unreadable_query)?;
    let game = query.game.as_deref().filter(|g| !g.is_empty());
    let (page, per_page) = (
        query.page()?,
        query.per_page(PER_PAGE, MAX_MATCHES_PER_PAGE)?,
    );
    let (matches, total) = state.store.finished_matches(game, page, per_page).await?;
    Ok(Json(MatchPage {
        matches,
        page,
        per_page,
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
