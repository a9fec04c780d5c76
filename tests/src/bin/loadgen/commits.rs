//! The store's commits over a phase, read from the server's `/metrics` page.

use crate::client::http;

/// The server's store commit histogram (`/metrics`): the count of commits, the seconds they
/// took in all, and the cumulative count at or under each bucket's bound.
#[derive(Debug, Default)]
pub struct Commits {
    count: f64,
    seconds: f64,
    buckets: Vec<(String, f64)>,
}

const COMMITS: &str = "pandemonium_store_commit_seconds";

pub async fn store_commits(port: u16) -> Commits {
    let page = http(
        port,
        "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    )
    .await;
    Commits::read(&page)
}

impl Commits {
    /// Reads the histogram from a Prometheus text page.
    fn read(page: &str) -> Commits {
        let mut commits = Commits::default();
        for line in page.lines() {
            let Some((series, value)) = line.rsplit_once(' ') else {
                continue;
            };
            let Ok(value) = value.parse::<f64>() else {
                continue;
            };
            let Some(rest) = series.strip_prefix(COMMITS) else {
                continue;
            };
            match rest {
                "_count" => commits.count = value,
                "_sum" => commits.seconds = value,
                _ => {
                    if let Some(bound) = rest
                        .strip_prefix("_bucket{le=\"")
                        .and_then(|b| b.strip_suffix("\"}"))
                    {
                        commits.buckets.push((bound.to_string(), value));
                    }
                }
            }
        }
        commits
    }

    /// The commits of several servers (the nodes of a cluster) as one histogram.
    pub fn sum(all: Vec<Commits>) -> Commits {
        let mut total = Commits::default();
        for commits in all {
            total.count += commits.count;
            total.seconds += commits.seconds;
            for (bound, n) in commits.buckets {
                match total.buckets.iter_mut().find(|(b, _)| *b == bound) {
                    Some((_, sum)) => *sum += n,
                    None => total.buckets.push((bound, n)),
                }
            }
        }
        total
    }

    /// How many commits took at most the bucket `bound` (seconds, as the page writes it).
    fn at_most(&self, bound: &str) -> f64 {
        self.buckets
            .iter()
            .find(|(b, _)| b == bound)
            .map_or(0.0, |(_, n)| *n)
    }

    /// What was committed between `before` and `self`, in one line.
    pub fn since(&self, before: &Commits, actions: usize) -> String {
        let count = self.count - before.count;
        if count <= 0.0 {
            return "no commits".into();
        }
        let within = |bound: &str| self.at_most(bound) - before.at_most(bound);
        // The smallest bound every commit of the phase came in under.
        let slowest = self
            .buckets
            .iter()
            .find(|(bound, _)| within(bound) >= count)
            .map_or("?", |(bound, _)| bound.as_str());
        format!(
            "{count:.0} commits ({:.2} accepted actions per commit), {:.3} ms on average; over 10 ms: {:.0}, over 100 ms: {:.0}; the slowest under {slowest} s",
            actions as f64 / count,
            (self.seconds - before.seconds) * 1e3 / count,
            count - within("0.01"),
            count - within("0.1"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(count: u32, sum: f64, buckets: [u32; 3]) -> String {
        format!(
            "# TYPE pandemonium_action_latency_seconds histogram\n\
             pandemonium_action_latency_seconds_count 999\n\
             # TYPE {COMMITS} histogram\n\
             {COMMITS}_bucket{{le=\"0.01\"}} {}\n\
             {COMMITS}_bucket{{le=\"0.1\"}} {}\n\
             {COMMITS}_bucket{{le=\"1\"}} {}\n\
             {COMMITS}_bucket{{le=\"+Inf\"}} {count}\n\
             {COMMITS}_sum {sum}\n\
             {COMMITS}_count {count}\n",
            buckets[0], buckets[1], buckets[2]
        )
    }

    #[test]
    fn the_store_line_tells_the_phase_s_commits_apart_from_those_before() {
        let before = Commits::read(&page(10, 0.01, [10, 10, 10]));
        let after = Commits::read(&page(110, 0.51, [107, 109, 110]));
        assert_eq!(after.count, 110.0);
        assert_eq!(
            after.since(&before, 250),
            "100 commits (2.50 accepted actions per commit), 5.000 ms on average; \
             over 10 ms: 3, over 100 ms: 1; the slowest under 1 s"
        );
        assert_eq!(before.since(&before, 0), "no commits");
    }

    #[test]
    fn a_cluster_s_commits_are_its_nodes_added_up() {
        let one = Commits::read(&page(10, 0.02, [8, 9, 10]));
        let two = Commits::read(&page(30, 0.06, [29, 30, 30]));
        let both = Commits::sum(vec![one, two]);
        assert_eq!(both.count, 40.0);
        assert_eq!(both.at_most("0.01"), 37.0);
        assert_eq!(both.at_most("+Inf"), 40.0);
    }
}
