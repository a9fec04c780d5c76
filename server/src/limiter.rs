//! The one rate limiter: a token bucket on tokio's clock, for a connection's frames, a room's
//! spectator chat and, keyed by address, the quotas on guests, rooms and code lookups.
//!
//! On tokio's clock rather than the system's so that a test which pauses time sees every limit
//! refill exactly when the time it advances says, without waiting in real time.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use tokio::time::Instant;

/// How much a bucket holds and how fast it fills again.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    burst: f64,
    per_second: f64,
}

impl Rate {
    /// `burst` at once, refilled at `per_second`.
    pub fn per_second(per_second: u32, burst: u32) -> Rate {
        Rate {
            burst: burst.into(),
            per_second: per_second.into(),
        }
    }

    /// `count` a minute, all of which may be taken at once.
    pub fn per_minute(count: u32) -> Rate {
        Rate {
            burst: count.into(),
            per_second: f64::from(count) / 60.0,
        }
    }
}

/// Tokens for one sender: full when made, one taken per message.
#[derive(Debug)]
pub struct TokenBucket {
    rate: Rate,
    tokens: f64,
    at: Instant,
}

impl TokenBucket {
    pub fn full(rate: Rate) -> TokenBucket {
        TokenBucket {
            rate,
            tokens: rate.burst,
            at: Instant::now(),
        }
    }

    /// Takes one token, if there is one.
    pub fn take(&mut self) -> bool {
        self.take_at(Instant::now())
    }

    fn take_at(&mut self, now: Instant) -> bool {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    fn refill(&mut self, now: Instant) {
        let refill = now.saturating_duration_since(self.at).as_secs_f64() * self.rate.per_second;
        self.tokens = (self.tokens + refill).min(self.rate.burst);
        self.at = now;
    }

    fn is_full_at(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.tokens >= self.rate.burst
    }
}

/// One bucket per key (a client's address), made full on first use.
#[derive(Debug)]
pub struct Keyed<K> {
    rate: Rate,
    // A std mutex: held only to look up and update one bucket, never across an await.
    buckets: Mutex<HashMap<K, TokenBucket>>,
}

impl<K: Hash + Eq> Keyed<K> {
    pub fn new(rate: Rate) -> Keyed<K> {
        Keyed {
            rate,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token from `key`'s bucket, if there is one.
    pub fn take(&self, key: K) -> bool {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().expect("limiter lock");
        buckets
            .entry(key)
            .or_insert_with(|| TokenBucket {
                rate: self.rate,
                tokens: self.rate.burst,
                at: now,
            })
            .take_at(now)
    }

    /// Forgets the keys whose bucket is full again: they are as if never seen, so the table
    /// stays as small as the set of recent senders.
    pub fn forget_full(&self) {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().expect("limiter lock");
        buckets.retain(|_, bucket| !bucket.is_full_at(now));
    }

    /// How many keys have a bucket.
    pub fn len(&self) -> usize {
        self.buckets.lock().expect("limiter lock").len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test(start_paused = true)]
    async fn a_token_bucket_allows_a_burst_then_refuses() {
        let mut bucket = TokenBucket::full(Rate::per_second(1, 3));
        assert!(bucket.take() && bucket.take() && bucket.take());
        assert!(
            !bucket.take(),
            "the fourth message in the same instant is one too many"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_token_bucket_refills_at_its_rate_as_tokio_time_passes() {
        let mut bucket = TokenBucket::full(Rate::per_second(4, 8));
        assert_eq!((0..20).filter(|_| bucket.take()).count(), 8);
        tokio::time::advance(Duration::from_millis(500)).await;
        assert_eq!((0..20).filter(|_| bucket.take()).count(), 2);
        // Never more than the burst, however long it rests.
        tokio::time::advance(Duration::from_secs(3_600)).await;
        assert_eq!((0..20).filter(|_| bucket.take()).count(), 8);
    }

    #[tokio::test(start_paused = true)]
    async fn a_quota_per_minute_is_a_minute_s_worth_at_once_then_one_every_share_of_it() {
        let quota = Keyed::new(Rate::per_minute(3));
        assert_eq!((0..5).filter(|_| quota.take("a")).count(), 3);
        assert!(quota.take("b"), "another key has its own bucket");
        tokio::time::advance(Duration::from_secs(19)).await;
        assert!(!quota.take("a"));
        tokio::time::advance(Duration::from_secs(2)).await;
        assert!(quota.take("a"), "one every twenty seconds");
    }

    #[tokio::test(start_paused = true)]
    async fn keys_whose_bucket_is_full_again_are_forgotten() {
        let quota = Keyed::new(Rate::per_minute(2));
        quota.take("a");
        quota.take("b");
        quota.take("b");
        tokio::time::advance(Duration::from_secs(31)).await;
        quota.forget_full();
        assert_eq!(quota.len(), 1, "a is full again, b is not");
        tokio::time::advance(Duration::from_secs(31)).await;
        quota.forget_full();
        assert!(quota.is_empty());
    }
}
