//! Prometheus metrics, kept in atomics: recording one costs a relaxed add, and no lock is
//! shared between rooms.

use std::fmt::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// Upper bounds of the latency histograms' buckets, in seconds.
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
    /// From the room applying an action to its commit being durable.
    action_latency: Histogram,
    /// How long the store's writer took to commit each batch, the sync to disk included: a
    /// disk that stalls on a sync holds every action of the batch (and those queued behind it)
    /// for that long, and shows here.
    pub store_commits: Arc<Histogram>,
    /// Cluster mode's leases (all zero on a single node).
    pub cluster: Arc<ClusterCounters>,
}

/// What a node of a cluster counts of its room leases.
#[derive(Debug, Default)]
pub struct ClusterCounters {
    /// Rooms whose lease this node holds now.
    pub rooms_owned: AtomicI64,
    /// Leases this node took from another node whose lease had expired.
    pub leases_taken_over: AtomicU64,
    /// Writes of a room's match (its start, actions, end) refused unwritten because the
    /// room's lease was no longer this node's.
    pub fenced_appends: AtomicU64,
    /// WebSockets this node passed on to the node that holds their room.
    pub sockets_forwarded: AtomicU64,
}

/// A latency histogram in Prometheus's shape: cumulative buckets, a count and a sum.
#[derive(Debug, Default)]
pub struct Histogram {
    buckets: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    sum_micros: AtomicU64,
}

impl Histogram {
    pub fn observe(&self, took: Duration) {
        let seconds = took.as_secs_f64();
        for (bucket, bound) in self.buckets.iter().zip(BUCKETS) {
            if seconds <= bound {
                bucket.fetch_add(1, Relaxed);
            }
        }
        self.count.fetch_add(1, Relaxed);
        self.sum_micros.fetch_add(took.as_micros() as u64, Relaxed);
    }

    /// How many observations were made.
    pub fn count(&self) -> u64 {
        self.count.load(Relaxed)
    }

    fn render(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        for (bucket, bound) in self.buckets.iter().zip(BUCKETS) {
            let _ = writeln!(
                out,
                "{name}_bucket{{le=\"{bound}\"}} {}",
                bucket.load(Relaxed)
            );
        }
        let count = self.count();
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let sum = self.sum_micros.load(Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "{name}_sum {sum}\n{name}_count {count}");
    }
}

impl Metrics {
    pub fn observe_action(&self, took: Duration) {
        self.actions.fetch_add(1, Relaxed);
        self.action_latency.observe(took);
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
        gauge(
            "pandemonium_rooms_owned",
            "Rooms whose lease this node holds (cluster mode).",
            "gauge",
            self.cluster.rooms_owned.load(Relaxed).to_string(),
        );
        gauge(
            "pandemonium_leases_taken_over_total",
            "Room leases this node took over from another node whose lease had expired (cluster mode).",
            "counter",
            self.cluster.leases_taken_over.load(Relaxed).to_string(),
        );
        gauge(
            "pandemonium_fenced_appends_total",
            "Writes of a room's match (its start, actions, end) refused unwritten because the room's lease had moved to another node (cluster mode).",
            "counter",
            self.cluster.fenced_appends.load(Relaxed).to_string(),
        );
        gauge(
            "pandemonium_sockets_forwarded_total",
            "WebSockets passed on to the node that holds their room's lease (cluster mode).",
            "counter",
            self.cluster.sockets_forwarded.load(Relaxed).to_string(),
        );
        self.action_latency.render(
            &mut out,
            "pandemonium_action_latency_seconds",
            "From the room applying an action to its commit being durable (when its ack and states go out).",
        );
        self.store_commits.render(
            &mut out,
            "pandemonium_store_commit_seconds",
            "How long the store took to commit one batch of writes, its sync to disk included.",
        );
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

    #[test]
    fn a_store_commit_is_its_own_histogram_apart_from_the_actions() {
        let metrics = Metrics::default();
        metrics.store_commits.observe(Duration::from_millis(300));
        let text = metrics.render();
        assert!(text.contains("# TYPE pandemonium_store_commit_seconds histogram"));
        assert!(text.contains("pandemonium_store_commit_seconds_bucket{le=\"0.25\"} 0"));
        assert!(text.contains("pandemonium_store_commit_seconds_bucket{le=\"1\"} 1"));
        assert!(text.contains("pandemonium_store_commit_seconds_count 1"));
        assert!(text.contains("pandemonium_store_commit_seconds_sum 0.3\n"));
        assert!(text.contains("pandemonium_action_latency_seconds_count 0"));
        assert!(text.contains("pandemonium_actions_total 0"));
    }

    #[test]
    fn the_cluster_counters_are_rendered_with_their_kinds() {
        let metrics = Metrics::default();
        metrics.cluster.rooms_owned.store(3, Relaxed);
        metrics.cluster.leases_taken_over.fetch_add(2, Relaxed);
        metrics.cluster.fenced_appends.fetch_add(1, Relaxed);
        let text = metrics.render();
        assert!(text.contains("# TYPE pandemonium_rooms_owned gauge\npandemonium_rooms_owned 3\n"));
        assert!(text.contains(
            "# TYPE pandemonium_leases_taken_over_total counter\npandemonium_leases_taken_over_total 2\n"
        ));
        assert!(text.contains(
            "# TYPE pandemonium_fenced_appends_total counter\npandemonium_fenced_appends_total 1\n"
        ));
    }
}
