//! How long the store's commits take: each one counted in the commit-time histogram, and a
//! slow one told in the log, at once and then at most once a minute with the count since.

use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

use crate::metrics::Histogram;

/// A commit this slow is logged: every action of its batch, and every action queued behind
/// it in every room, waited that long to be acked (a disk stalling on a sync, typically).
const SLOW_COMMIT: Duration = Duration::from_millis(250);
/// At most one slow-commit warning this often: a failing disk would otherwise fill the log.
const SLOW_COMMIT_WARNINGS_EVERY: Duration = Duration::from_secs(60);

/// Counts each commit's time, and warns of slow ones.
pub(super) struct CommitWatch {
    times: Arc<Histogram>,
    /// Slow commits since the last warning, and the longest of them.
    slow: u32,
    slowest: Duration,
    last_warning: Option<Instant>,
}

impl CommitWatch {
    pub(super) fn new(times: Arc<Histogram>) -> Self {
        CommitWatch {
            times,
            slow: 0,
            slowest: Duration::ZERO,
            last_warning: None,
        }
    }

    pub(super) fn took(&mut self, started: Instant, finished: Instant) {
        let took = finished.saturating_duration_since(started);
        self.times.observe(took);
        if let Some((slow, slowest)) = self.slow_commits_to_tell(took, finished) {
            tracing::warn!(
                slow_commits = slow,
                slowest_ms = slowest.as_millis() as u64,
                "the store took over {} ms to commit (and sync to disk) {slow} time(s) since \
                 the last such warning, at worst {} ms; acks waited as long",
                SLOW_COMMIT.as_millis(),
                slowest.as_millis()
            );
        }
    }

    /// Counts a commit that took `took`, ending at `now`; says how many slow ones there were
    /// and the slowest, when a warning is due.
    fn slow_commits_to_tell(&mut self, took: Duration, now: Instant) -> Option<(u32, Duration)> {
        if took < SLOW_COMMIT {
            return None;
        }
        self.slow += 1;
        self.slowest = self.slowest.max(took);
        let due = self
            .last_warning
            .is_none_or(|at| now.saturating_duration_since(at) >= SLOW_COMMIT_WARNINGS_EVERY);
        if !due {
            return None;
        }
        self.last_warning = Some(now);
        let told = (self.slow, self.slowest);
        self.slow = 0;
        self.slowest = Duration::ZERO;
        Some(told)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slow_commit_is_told_at_once_then_at_most_once_a_minute_with_those_between() {
        let mut watch = CommitWatch::new(Arc::default());
        let start = Instant::now();
        let at = |seconds: u64| start + Duration::from_secs(seconds);
        let ms = Duration::from_millis;
        assert_eq!(watch.slow_commits_to_tell(ms(249), at(0)), None);
        assert_eq!(
            watch.slow_commits_to_tell(ms(300), at(1)),
            Some((1, ms(300)))
        );
        // Within the minute: counted, not told.
        assert_eq!(watch.slow_commits_to_tell(ms(900), at(10)), None);
        assert_eq!(watch.slow_commits_to_tell(ms(10), at(30)), None);
        assert_eq!(watch.slow_commits_to_tell(ms(400), at(60)), None);
        assert_eq!(
            watch.slow_commits_to_tell(ms(260), at(61)),
            Some((3, ms(900)))
        );
        assert_eq!(watch.slow_commits_to_tell(ms(500), at(70)), None);
    }

    #[test]
    fn every_commit_is_counted_in_the_histogram_slow_or_not() {
        let times = Arc::new(Histogram::default());
        let mut watch = CommitWatch::new(times.clone());
        let start = Instant::now();
        watch.took(start, start + Duration::from_millis(2));
        watch.took(start, start + Duration::from_millis(700));
        assert_eq!(times.count(), 2);
    }
}
