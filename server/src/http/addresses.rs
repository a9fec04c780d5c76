//! Whose address a connection or a request counts as, for the per-address connection cap and
//! quotas.
//!
//! A client's address is the connection's own, unless the connection comes from a proxy named
//! by `--trusted-proxy`: then it is the address the proxy reports, in a PROXY protocol header
//! at the start of the connection (`--proxy-protocol`, read in [`super::listen`]) or in a
//! forwarded header on each request (`--client-ip-header`). A forwarded header from anyone
//! else is ignored (anyone could claim any address with it), and a log line says so, at most
//! once a minute, because it usually means a proxy that the settings do not name.
//!
//! `--unlimited-address` lifts the per-address limits for some addresses: local tools such
//! as a load test, which open thousands of connections from one address.

use axum::http::{HeaderMap, HeaderName};
use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;
use std::sync::Mutex;
use std::time::Duration;
use tokio::time::Instant;

use crate::config::Network;
use crate::http::Peer;

/// An address or a CIDR range of them: `10.0.0.5`, `10.0.0.0/8`, `::1`, `fd00::/8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddressRange {
    base: IpAddr,
    prefix: u8,
}

impl AddressRange {
    pub fn contains(&self, ip: IpAddr) -> bool {
        // An IPv4 client of a dual-stack socket shows as `::ffff:a.b.c.d`.
        match (self.base, ip.to_canonical()) {
            (IpAddr::V4(base), IpAddr::V4(ip)) => {
                prefix_matches(&base.octets(), &ip.octets(), self.prefix)
            }
            (IpAddr::V6(base), IpAddr::V6(ip)) => {
                prefix_matches(&base.octets(), &ip.octets(), self.prefix)
            }
            _ => false,
        }
    }
}

fn prefix_matches(base: &[u8], ip: &[u8], prefix: u8) -> bool {
    let whole = usize::from(prefix / 8);
    let rest = prefix % 8;
    if base[..whole] != ip[..whole] {
        return false;
    }
    rest == 0 || {
        let mask = 0xffu8 << (8 - rest);
        base[whole] & mask == ip[whole] & mask
    }
}

impl FromStr for AddressRange {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        let (addr, prefix) = match text.split_once('/') {
            Some((addr, prefix)) => (addr, Some(prefix)),
            None => (text, None),
        };
        let base: IpAddr = addr
            .parse()
            .map_err(|_| format!("`{text}` is not an address or a range like 10.0.0.0/8"))?;
        let base = base.to_canonical();
        let bits = if base.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => bits,
            Some(prefix) => prefix
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= bits)
                .ok_or_else(|| format!("`{text}`: the prefix length must be 0 to {bits}"))?,
        };
        Ok(AddressRange { base, prefix })
    }
}

impl fmt::Display for AddressRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.base, self.prefix)
    }
}

/// A log line about something that may happen on every request, written at most once per
/// interval with the count since the last one.
#[derive(Debug)]
pub struct Throttled {
    interval: Duration,
    /// When it last logged, and how many times it happened since.
    state: Mutex<(Option<Instant>, u64)>,
}

impl Throttled {
    pub fn new(interval: Duration) -> Throttled {
        Throttled {
            interval,
            state: Mutex::new((None, 0)),
        }
    }

    /// Counts one more; `Some(count)` when it is time to log it (the count includes this one).
    pub fn note(&self) -> Option<u64> {
        let mut state = self.state.lock().expect("throttle lock");
        state.1 += 1;
        if state.0.is_some_and(|at| at.elapsed() < self.interval) {
            return None;
        }
        state.0 = Some(Instant::now());
        Some(std::mem::take(&mut state.1))
    }
}

/// How often, at most, a warning about proxies is logged.
pub const PROXY_WARNING_INTERVAL: Duration = Duration::from_secs(60);

/// Headers that say a proxy is in front when the settings name none.
const USUAL_FORWARDED_HEADERS: [&str; 3] = ["x-forwarded-for", "x-real-ip", "forwarded"];

/// The address rules: which peers are trusted proxies, how they say who their client is, and
/// which addresses are not limited.
#[derive(Debug)]
pub struct Addresses {
    trusted: Vec<AddressRange>,
    unlimited: Vec<AddressRange>,
    header: Option<HeaderName>,
    proxy_protocol: bool,
    untrusted_header: Throttled,
}

impl Addresses {
    pub fn new(network: &Network) -> Addresses {
        Addresses {
            trusted: network.trusted_proxies.clone(),
            unlimited: network.unlimited_addresses.clone(),
            // Checked by `Config::validate`; a bad name would only mean no header.
            header: network
                .client_ip_header
                .as_deref()
                .and_then(|h| HeaderName::from_bytes(h.as_bytes()).ok()),
            proxy_protocol: network.proxy_protocol,
            untrusted_header: Throttled::new(PROXY_WARNING_INTERVAL),
        }
    }

    /// Whether `peer` is one of the proxies whose word on its clients is believed.
    pub fn trusted(&self, peer: IpAddr) -> bool {
        self.trusted.iter().any(|range| range.contains(peer))
    }

    /// Whether the per-address limits leave `client` alone (`--unlimited-address`).
    pub fn unlimited(&self, client: IpAddr) -> bool {
        self.unlimited.iter().any(|range| range.contains(client))
    }

    /// Whether a connection from `peer` must start with a PROXY header.
    pub fn expects_proxy_header(&self, peer: IpAddr) -> bool {
        self.proxy_protocol && self.trusted(peer)
    }

    /// Whether a connection counts against the per-address connection cap: not from an
    /// unlimited address, and not a trusted proxy's own (without a PROXY header it stands for
    /// many clients, whose addresses come only with each request's headers: the proxy limits
    /// connections per client).
    pub fn connection_capped(&self, peer: IpAddr, client: Option<IpAddr>) -> bool {
        match client {
            Some(client) => !self.unlimited(client),
            None => !self.unlimited(peer) && !self.trusted(peer),
        }
    }

    /// The address a request comes from, as far as quotas are concerned.
    pub fn client(&self, peer: &Peer, headers: &HeaderMap) -> IpAddr {
        if let Some(client) = peer.carried {
            return client;
        }
        let from = peer.addr.ip().to_canonical();
        let trusted = self.trusted(from);
        match &self.header {
            Some(name) => {
                let Some(value) = headers.get(name) else {
                    return from;
                };
                if !trusted {
                    self.ignored(name.as_str(), from);
                    return from;
                }
                let reported = value.to_str().ok().and_then(|value| {
                    // The proxy appends the address it saw: the last entry is the one it
                    // vouches for; any before it came from the client, who may say anything.
                    value.rsplit(',').next()?.trim().parse::<IpAddr>().ok()
                });
                reported.map_or(from, |ip| ip.to_canonical())
            }
            None => {
                if !trusted
                    && let Some(name) = USUAL_FORWARDED_HEADERS
                        .into_iter()
                        .find(|name| headers.contains_key(*name))
                {
                    self.ignored(name, from);
                }
                from
            }
        }
    }

    fn ignored(&self, header: &str, peer: IpAddr) {
        if let Some(ignored) = self.untrusted_header.note() {
            tracing::warn!(
                header,
                %peer,
                ignored,
                "a forwarded client address came from a peer that is not a trusted proxy: ignored, \
                 the connection's own address counts (behind a proxy, name it with --trusted-proxy \
                 and its header with --client-ip-header)"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(text: &str) -> AddressRange {
        text.parse().unwrap()
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_range_holds_the_addresses_under_its_prefix() {
        assert!(range("10.0.0.0/8").contains(ip("10.200.3.4")));
        assert!(!range("10.0.0.0/8").contains(ip("11.0.0.1")));
        assert!(range("192.168.4.0/22").contains(ip("192.168.7.255")));
        assert!(!range("192.168.4.0/22").contains(ip("192.168.8.0")));
        assert!(range("127.0.0.1").contains(ip("127.0.0.1")));
        assert!(!range("127.0.0.1").contains(ip("127.0.0.2")));
        assert!(range("0.0.0.0/0").contains(ip("203.0.113.9")));
        assert!(range("fd00::/8").contains(ip("fd12::1")));
        assert!(!range("fd00::/8").contains(ip("fe80::1")));
        assert!(
            !range("::/0").contains(ip("10.0.0.1")),
            "families do not mix"
        );
    }

    #[test]
    fn an_ipv4_client_of_a_dual_stack_socket_is_its_ipv4_address() {
        assert!(range("127.0.0.0/8").contains(ip("::ffff:127.0.0.9")));
        assert_eq!(range("::ffff:10.0.0.1"), range("10.0.0.1"));
    }

    #[test]
    fn ranges_that_are_not_ranges_are_refused_with_the_text() {
        for bad in [
            "10.0.0.0/33",
            "::/129",
            "localhost",
            "10.0.0/8",
            "10.0.0.0/x",
            "",
        ] {
            let error = bad.parse::<AddressRange>().unwrap_err();
            assert!(error.contains(bad.trim()), "{error}");
        }
        assert_eq!(range(" 10.0.0.0/8 ").to_string(), "10.0.0.0/8");
    }

    #[tokio::test(start_paused = true)]
    async fn a_throttled_warning_comes_once_per_interval_with_the_count() {
        let warning = Throttled::new(Duration::from_secs(60));
        assert_eq!(warning.note(), Some(1));
        assert_eq!(warning.note(), None);
        assert_eq!(warning.note(), None);
        tokio::time::advance(Duration::from_secs(61)).await;
        assert_eq!(warning.note(), Some(3));
        assert_eq!(warning.note(), None);
    }
}
