//! Facing the open internet: what a hostile or careless client can cost the server, and what
//! the server promises every client (deadlines, limits, close codes, headers, quotas).
//!
//! Each test names the abuse it pins. Clients that need their own address connect from
//! another loopback address (127.0.0.2, …): per-IP limits count them apart from the rest
//! (`support::net`), loopback being limited like any other address.

mod addresses;
mod configuration;
mod connections;
mod http;
mod lobby;
mod logs;
mod outbox;
mod quotas;
mod store_errors;
mod websocket;

use crate::support::{Backend, TestDb};

/// A test of the connection layer alone: one store is enough.
async fn sqlite() -> TestDb {
    TestDb::new(Backend::Sqlite).await.expect("sqlite")
}
