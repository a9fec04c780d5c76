//! Time without waiting. The server in this process keeps its deadlines, timers and rate
//! limits on tokio's clock, so a test moves that clock on instead of sleeping.
//!
//! The clock is paused only for the moment it is moved. A test paused throughout
//! (`start_paused`) lets tokio jump to the next timer whenever the runtime waits on anything
//! else — the database's own threads, a PostgreSQL answer — and the app does not even start:
//! the pool's time-out on taking a connection fires first (`PoolTimedOut`, on SQLite and on
//! PostgreSQL alike). Moved by hand, everything else goes on in real time. Pausing needs the
//! current-thread runtime: `#[tokio::test]`, or [`crate::on_both_stores_passing_time`].

use std::future::Future;
use std::time::Duration;

/// Moves tokio's clock on by `by` at once, firing every timer that falls due.
pub async fn pass_time(by: Duration) {
    tokio::time::pause();
    tokio::time::advance(by).await;
    tokio::time::resume();
}

/// Runs `work`, moving the clock on by `step` each time it has waited a moment in vain: for a
/// deadline the server arms at an instant the test does not see (when a socket it opened is
/// accepted, when a write it caused blocks). At most `steps` steps; `None` if it is not done
/// by then.
pub async fn passing_time<F: Future>(step: Duration, steps: u32, work: F) -> Option<F::Output> {
    let mut work = std::pin::pin!(work);
    for _ in 0..steps {
        if let Ok(done) = tokio::time::timeout(A_MOMENT, work.as_mut()).await {
            return Some(done);
        }
        pass_time(step).await;
    }
    tokio::time::timeout(A_MOMENT * 100, work).await.ok()
}

/// How long a real wait lets the server and the sockets catch up with a step of the clock.
const A_MOMENT: Duration = Duration::from_millis(20);
