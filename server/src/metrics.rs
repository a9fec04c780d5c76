//! Prometheus metrics, kept in atomics: recording one costs a relaxed add, and no lock is
//! shared between rooms.

use std::fmt::Write;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// Upper bounds of the action latency histogram, in seconds (from the room taking the action
/// to its store commit being durable, when its ack and states go out).
const BUCKETS: [f64; 10] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
];

#[derive(Debug, Default)]
pub struct Metrics {
    pub rooms: AtomicI64,
    pub connections: AtomicI64,
    pub actions: AtomicU64,
    pub rejects: AtomicU64,
    pub dropped_slow_clients: AtomicU64,
    latency_buckets: [AtomicU64; BUCKETS.len()],
    latency_count: AtomicU64,
    latency_sum_micros: AtomicU64,
}

impl Metrics {
    pub fn observe_action(&self, took: Duration) {
        self.actions.fetch_add(1, Relaxed);
        let seconds = took.as_secs_f64();
        for (bucket, bound) in self.latency_buckets.iter().zip(BUCKETS) {
            if seconds <= bound {
                bucket.fetch_add(1, Relaxed);
            }
        }
        self.latency_count.fetch_add(1, Relaxed);
        self.latency_sum_micros
            .fetch_add(took.as_micros() as u64, Relaxed);
    }

    /// The Prometheus text exposition format.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let mut gauge = |name: &str, help: &str, kind: &str, value: String| {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
            );
        };
        gauge(
            "pandemonium_rooms",
            "Open rooms.",
            "gauge",
            self.rooms.load(Relaxed).to_string(),
        );
        gauge(
            "pandemonium_connections",
            "Open WebSocket connections.",
            "gauge",
            self.connections.load(Relaxed).to_string(),
        );
        gauge(
            "pandemonium_actions_total",
            "Accepted game actions.",
            "counter",
            self.actions.load(Relaxed).to_string(),
        );
        gauge(
            "pandemonium_rejected_actions_total",
            "Refused game actions.",
            "counter",
            self.rejects.load(Relaxed).to_string(),
        );
        gauge(
            "pandemonium_slow_clients_dropped_total",
            "Connections dropped because their outbox was full.",
            "counter",
            self.dropped_slow_clients.load(Relaxed).to_string(),
        );
        let name = "pandemonium_action_latency_seconds";
        let _ = writeln!(
            out,
            "# HELP {name} From the room applying an action to its commit being durable (when its ack and states go out).\n# TYPE {name} histogram"
        );
        for (bucket, bound) in self.latency_buckets.iter().zip(BUCKETS) {
            let _ = writeln!(
                out,
                "{name}_bucket{{le=\"{bound}\"}} {}",
                bucket.load(Relaxed)
            );
        }
        let count = self.latency_count.load(Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let sum = self.latency_sum_micros.load(Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "{name}_sum {sum}\n{name}_count {count}");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latency_lands_in_every_bucket_at_or_above_it() {
        let metrics = Metrics::default();
        metrics.observe_action(Duration::from_millis(3));
        let text = metrics.render();
        assert!(text.contains("pandemonium_action_latency_seconds_bucket{le=\"0.0025\"} 0"));
        assert!(text.contains("pandemonium_action_latency_seconds_bucket{le=\"0.005\"} 1"));
        assert!(text.contains("pandemonium_action_latency_seconds_count 1"));
        assert!(text.contains("pandemonium_actions_total 1"));
    }
}
