//! Pruning guests nobody uses: created long ago and seated in no match. Guest creation is
//! cheap and rate-limited per address, not forbidden, so unused rows are cleared away.

use std::time::Duration;

use super::{Store, StoreError, now_ms};

/// Guests removed in one statement, so a prune never holds the database for long.
const BATCH: i64 = 500;

impl Store {
    /// Deletes guests created more than `older_than` ago whose id appears in no match's seats;
    /// returns how many. A pruned guest's token is simply unknown: they choose a name again.
    pub async fn prune_guests(&self, older_than: Duration) -> Result<u64, StoreError> {
        let cutoff = now_ms() - i64::try_from(older_than.as_millis()).unwrap_or(i64::MAX);
        let mut pruned = 0;
        loop {
            // `seats` is JSON naming each seat's player id: a guest who ever sat is kept.
            let deleted = sqlx::query(
                "DELETE FROM players WHERE id IN (SELECT p.id FROM players p \
                 WHERE p.created_at <= $1 AND NOT EXISTS \
                 (SELECT 1 FROM matches m WHERE m.seats LIKE '%\"' || p.id || '\"%') LIMIT $2)",
            )
            .bind(cutoff)
            .bind(BATCH)
            .execute(&self.pool)
            .await?
            .rows_affected();
            pruned += deleted;
            if deleted < BATCH as u64 {
                return Ok(pruned);
            }
        }
    }
}
