//! Errors the framework answers on its own, before or around any handler, made `ApiError`s
//! like every other: a path that is not UTF-8 or a query it cannot read (400, plain text), a
//! method the endpoint does not take (405, no body), a request that ran out of time (408), a
//! request to `/ws` that is not a WebSocket upgrade (400 or 426, plain text).
//! Clients match on one body shape whatever refused them.

use axum::Json;
use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use pandemonium_protocol::{ApiError, ErrorCode};

/// Rewrites an error answer to an API path or the socket's endpoint that is not JSON, keeping
/// its status and headers.
pub async fn as_api_errors(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let socket = path == "/ws";
    let api = socket || path.starts_with("/api/");
    let response = next.run(request).await;
    let status = response.status();
    let failed = status.is_client_error() || status.is_server_error();
    if !api || !failed || is_json(&response) {
        return response;
    }
    let (mut parts, _) = response.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.remove(header::CONTENT_TYPE);
    let (code, message) = match status {
        // The upgrade's own refusals: a request without its headers, or an old protocol.
        StatusCode::BAD_REQUEST | StatusCode::UPGRADE_REQUIRED if socket => (
            ErrorCode::BadRequest,
            "This endpoint takes a WebSocket upgrade (version 13) and nothing else.",
        ),
        _ => describe(status),
    };
    let body = Json(ApiError {
        code,
        message: message.into(),
    });
    (parts, body).into_response()
}

fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}

/// The code and sentence for a status the framework chose.
fn describe(status: StatusCode) -> (ErrorCode, &'static str) {
    match status {
        StatusCode::NOT_FOUND => (ErrorCode::NotFound, "There is no such API endpoint."),
        StatusCode::METHOD_NOT_ALLOWED => (
            ErrorCode::BadRequest,
            "This endpoint does not take that method.",
        ),
        StatusCode::REQUEST_TIMEOUT => (
            ErrorCode::BadRequest,
            "The request took too long to arrive.",
        ),
        StatusCode::PAYLOAD_TOO_LARGE => (ErrorCode::BadRequest, "The request is too large."),
        StatusCode::TOO_MANY_REQUESTS => (
            ErrorCode::RateLimited,
            "Too many requests; wait a moment and try again.",
        ),
        StatusCode::SERVICE_UNAVAILABLE => (
            ErrorCode::Unavailable,
            "The server is busy; try again in a moment.",
        ),
        s if s.is_server_error() => (ErrorCode::Internal, "Something went wrong on the server."),
        _ => (
            ErrorCode::BadRequest,
            "The request's path or query cannot be read.",
        ),
    }
}
