//! Application errors. Each has a stable code and a sentence for people; internals (database
//! messages) go to the server log, never to the client.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::store::StoreError;
use pandemonium_game_contract::ConfigError;
use pandemonium_protocol::{ApiError, ErrorCode};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("There is no game called `{0}`.")]
    UnknownGame(String),
    #[error("{0}")]
    BadConfig(#[from] ConfigError),
    #[error("{0}")]
    BadRequest(String),
    #[error("No room has that code.")]
    RoomNotFound,
    #[error("No finished match has that id.")]
    MatchNotFound,
    #[error("That identity is not known here; choose a name to get a new one.")]
    UnknownToken,
    #[error("A display name is 1 to 32 readable characters.")]
    BadName,
    #[error("There is no such API endpoint.")]
    NoSuchEndpoint,
    #[error("The server is busy; try again in a moment.")]
    Unavailable,
    #[error("Too many requests from your address; wait a minute and try again.")]
    RateLimited,
    #[error("You already host as many open rooms as one guest may; finish or leave one first.")]
    TooManyRooms,
    #[error("The server has as many open rooms as it can hold; try again later.")]
    ServerFull,
    #[error("WebSockets are not accepted from pages of that origin.")]
    ForbiddenOrigin,
    #[error("Something went wrong on the server.")]
    Store(StoreError),
}

impl AppError {
    pub fn code(&self) -> ErrorCode {
        match self {
            AppError::UnknownGame(_) => ErrorCode::UnknownGame,
            AppError::BadConfig(_) => ErrorCode::BadConfig,
            AppError::BadRequest(_) => ErrorCode::BadRequest,
            AppError::RoomNotFound => ErrorCode::RoomNotFound,
            AppError::MatchNotFound => ErrorCode::MatchNotFound,
            AppError::UnknownToken => ErrorCode::UnknownToken,
            AppError::BadName => ErrorCode::BadName,
            AppError::NoSuchEndpoint => ErrorCode::NotFound,
            AppError::Unavailable => ErrorCode::Unavailable,
            AppError::RateLimited => ErrorCode::RateLimited,
            AppError::TooManyRooms => ErrorCode::TooManyRooms,
            AppError::ServerFull => ErrorCode::ServerFull,
            AppError::ForbiddenOrigin => ErrorCode::ForbiddenOrigin,
            AppError::Store(_) => ErrorCode::Internal,
        }
    }

    fn status(&self) -> StatusCode {
        match self {
            AppError::UnknownGame(_)
            | AppError::BadConfig(_)
            | AppError::BadRequest(_)
            | AppError::BadName => StatusCode::BAD_REQUEST,
            AppError::RoomNotFound | AppError::MatchNotFound | AppError::NoSuchEndpoint => {
                StatusCode::NOT_FOUND
            }
            AppError::UnknownToken => StatusCode::UNAUTHORIZED,
            AppError::Unavailable | AppError::ServerFull => StatusCode::SERVICE_UNAVAILABLE,
            AppError::RateLimited | AppError::TooManyRooms => StatusCode::TOO_MANY_REQUESTS,
            AppError::ForbiddenOrigin => StatusCode::FORBIDDEN,
            AppError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn body(&self) -> ApiError {
        ApiError {
            code: self.code(),
            message: self.to_string(),
        }
    }
}

/// A read past its deadline is the server being busy, which people can do something about
/// (try again); every other store error is the server's fault.
impl From<StoreError> for AppError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::TimedOut => {
                tracing::warn!("a request's read passed its deadline; answered busy");
                AppError::Unavailable
            }
            error => AppError::Store(error),
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        if let AppError::Store(error) = &self {
            tracing::error!(%error, "request failed in the store");
        }
        (self.status(), Json(self.body())).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_past_its_deadline_is_answered_busy_and_other_store_errors_as_the_servers_fault() {
        let busy = AppError::from(StoreError::TimedOut);
        assert_eq!(busy.code(), ErrorCode::Unavailable);
        assert_eq!(busy.status(), StatusCode::SERVICE_UNAVAILABLE);
        let broken = AppError::from(StoreError::Closed);
        assert_eq!(broken.code(), ErrorCode::Internal);
        assert_eq!(broken.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
