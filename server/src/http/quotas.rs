//! What one address may create or look up: guests, rooms and room-code lookups per minute,
//! each a keyed GCRA rate limiter (`governor`) with a burst of a minute's worth.
//!
//! A client's address is its connection's, or — behind a reverse proxy that says so with
//! `--client-ip-header` — the one the proxy reports.

use axum::http::HeaderMap;
use governor::{DefaultKeyedRateLimiter, Quota};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use crate::config::{Network, Quotas as QuotaConfig};
use crate::error::AppError;
use crate::http::Peer;

#[derive(Debug)]
pub struct Quotas {
    guests: DefaultKeyedRateLimiter<IpAddr>,
    rooms: DefaultKeyedRateLimiter<IpAddr>,
    lookups: DefaultKeyedRateLimiter<IpAddr>,
    client_ip_header: Option<String>,
    network: Network,
}

fn per_minute(count: u32) -> DefaultKeyedRateLimiter<IpAddr> {
    // Validated at start: every quota is at least one.
    let count = NonZeroU32::new(count.max(1)).expect("at least one");
    DefaultKeyedRateLimiter::keyed(Quota::per_minute(count))
}

impl Quotas {
    pub fn new(quotas: &QuotaConfig, network: &Network) -> Quotas {
        Quotas {
            guests: per_minute(quotas.guests_per_minute),
            rooms: per_minute(quotas.rooms_per_minute),
            lookups: per_minute(quotas.lookups_per_minute),
            client_ip_header: network.client_ip_header.clone(),
            network: network.clone(),
        }
    }

    /// The address a request comes from, as far as quotas are concerned.
    pub fn client(&self, peer: &Peer, headers: &HeaderMap) -> IpAddr {
        let reported = self.client_ip_header.as_ref().and_then(|name| {
            let value = headers.get(name.as_str())?.to_str().ok()?;
            // The proxy appends the address it saw: the last entry is the one it vouches for.
            value.rsplit(',').next()?.trim().parse().ok()
        });
        reported.unwrap_or(peer.addr.ip())
    }

    /// One new guest from `client`.
    pub fn guest(&self, client: IpAddr) -> Result<(), AppError> {
        self.check(&self.guests, client)
    }

    /// One new room from `client`.
    pub fn room(&self, client: IpAddr) -> Result<(), AppError> {
        self.check(&self.rooms, client)
    }

    /// One room-code lookup from `client`, found or not: what bounds guessing private codes.
    pub fn lookup(&self, client: IpAddr) -> Result<(), AppError> {
        self.check(&self.lookups, client)
    }

    fn check(
        &self,
        limiter: &DefaultKeyedRateLimiter<IpAddr>,
        client: IpAddr,
    ) -> Result<(), AppError> {
        if self.network.unlimited(client) {
            return Ok(());
        }
        limiter
            .check_key(&client)
            .map_err(|_| AppError::RateLimited)
    }

    /// Forgets addresses whose quota is full again, so the tables stay as small as the set of
    /// recent clients.
    pub fn forget_idle(&self) {
        self.guests.retain_recent();
        self.rooms.retain_recent();
        self.lookups.retain_recent();
    }

    /// Forgets idle addresses every minute, for as long as the quotas exist.
    pub fn keep_tidy(self: &std::sync::Arc<Self>) {
        let quotas = std::sync::Arc::downgrade(self);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(60));
            loop {
                every.tick().await;
                match quotas.upgrade() {
                    Some(quotas) => quotas.forget_idle(),
                    None => return,
                }
            }
        });
    }
}
