//! What every response carries: security headers, caching rules, and a 404 for paths that
//! cannot name anything (rather than a file-system error surfacing as a 500).

use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::AppError;

/// The web client loads its scripts, styles and images from this server and talks only to it
/// (`'self'` covers the same-origin WebSocket). Svelte sets some inline `style` attributes,
/// hence `'unsafe-inline'` for styles only; no inline script is ever allowed.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; \
connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; \
frame-ancestors 'none'";

/// Vite names every file under `assets/` by a hash of its content: such a URL never changes
/// meaning, so browsers may keep it for a year without asking again.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// A file name longer than this cannot exist (and would make the file system complain).
const LONGEST_SEGMENT: usize = 255;

/// Security headers on every response, unless a handler chose its own.
pub async fn security(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    let set = [
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "same-origin"),
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (
            HeaderName::from_static("cross-origin-opener-policy"),
            "same-origin",
        ),
    ];
    for (name, value) in set {
        headers
            .entry(name)
            .or_insert(HeaderValue::from_static(value));
    }
    response
}

/// Hashed assets are immutable; everything else (`index.html`, API answers) is checked again
/// on every use, so a new release is picked up at the next reload.
pub async fn caching(request: Request, next: Next) -> Response {
    let hashed = request.uri().path().starts_with("/assets/");
    let mut response = next.run(request).await;
    let value = if hashed && response.status().is_success() {
        IMMUTABLE
    } else {
        "no-cache"
    };
    response
        .headers_mut()
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static(value));
    response
}

/// Paths that cannot name anything are 404 before any handler sees them: a segment longer
/// than a file name may be, and source maps (the built client may contain them; they are for
/// developers, not for the public).
pub async fn impossible_paths(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let too_long = path.split('/').any(|s| s.len() > LONGEST_SEGMENT);
    if too_long || path.ends_with(".map") {
        return AppError::NoSuchEndpoint.into_response();
    }
    next.run(request).await
}
