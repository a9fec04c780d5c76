//! What one address may create or look up: guests, rooms and room-code lookups per minute,
//! each a token bucket per address ([`crate::limiter`]) with a burst of a minute's worth.
//!
//! A client's address is its connection's, or — behind a trusted proxy — the one the proxy
//! reports ([`crate::http::addresses`]).

use axum::http::HeaderMap;
use std::net::IpAddr;
use std::time::Duration;

use crate::config::{Network, Quotas as QuotaConfig};
use crate::error::AppError;
use crate::http::Peer;
use crate::http::addresses::Addresses;
use crate::limiter::{Keyed, Rate};

#[derive(Debug)]
pub struct Quotas {
    guests: Keyed<IpAddr>,
    rooms: Keyed<IpAddr>,
    lookups: Keyed<IpAddr>,
    addresses: Addresses,
}

fn per_minute(count: u32) -> Keyed<IpAddr> {
    Keyed::new(Rate::per_minute(count))
}

impl Quotas {
    pub fn new(quotas: &QuotaConfig, network: &Network) -> Quotas {
        Quotas {
            guests: per_minute(quotas.guests_per_minute),
            rooms: per_minute(quotas.rooms_per_minute),
            lookups: per_minute(quotas.lookups_per_minute),
            addresses: Addresses::new(network),
        }
    }

    /// The address a request comes from, as far as quotas are concerned.
    pub fn client(&self, peer: &Peer, headers: &HeaderMap) -> IpAddr {
        self.addresses.client(peer, headers)
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

    fn check(&self, limiter: &Keyed<IpAddr>, client: IpAddr) -> Result<(), AppError> {
        if self.addresses.unlimited(client) || limiter.take(client) {
            return Ok(());
        }
        Err(AppError::RateLimited)
    }

    /// Forgets addresses whose quota is full again, so the tables stay as small as the set of
    /// recent clients.
    pub fn forget_idle(&self) {
        self.guests.forget_full();
        self.rooms.forget_full();
        self.lookups.forget_full();
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
