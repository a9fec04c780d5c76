//! Pruning guests nobody uses: created long ago and seated in no match. Guest creation is
//! cheap and rate-limited per address, not forbidden, so unused rows are cleared away.
//!
//! The prune reads first and deletes briefly. One statement that searched every match's seats
//! for every old guest held SQLite's write lock for the whole search: on a server with years of
//! matches, long enough to stall every room's actions behind it (the writer gives up after 5 s).

use futures_util::TryStreamExt;
use sqlx::Row;
use std::collections::HashSet;
use std::time::Duration;

use super::{Store, StoreError, StoredSeat, now_ms};

/// Guests removed in one statement, so a prune never holds the database for long.
const BATCH: usize = 500;
/// A match's row is written a moment after its start is stamped. A guest seated in a match
/// started this long before the prune looked is kept too, in case its row was not yet there.
const START_MARGIN_MS: i64 = 60_000;

impl Store {
    /// Deletes guests created more than `older_than` ago whose id appears in no match's seats;
    /// returns how many. A pruned guest's token is simply unknown: they choose a name again.
    pub async fn prune_guests(&self, older_than: Duration) -> Result<u64, StoreError> {
        let looked_at = now_ms();
        let cutoff = looked_at - i64::try_from(older_than.as_millis()).unwrap_or(i64::MAX);
        let old: Vec<String> = sqlx::query("SELECT id FROM players WHERE created_at <= $1")
            .bind(cutoff)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|row| row.get(0))
            .collect();
        if old.is_empty() {
            return Ok(0);
        }
        let seated = self.seated_players().await?;
        let unused: Vec<&String> = old.iter().filter(|id| !seated.contains(*id)).collect();
        let mut pruned = 0;
        for ids in unused.chunks(BATCH) {
            // Kept after all: a guest who sat down in a match started since the reads above
            // (found through the index on `started_at`, so the lock is held only briefly).
            let list: Vec<String> = (0..ids.len()).map(|i| format!("${}", i + 2)).collect();
            let sql = format!(
                "DELETE FROM players WHERE id IN ({}) AND NOT EXISTS \
                 (SELECT 1 FROM matches m WHERE m.started_at >= $1 \
                  AND m.seats LIKE '%\"' || players.id || '\"%')",
                list.join(", ")
            );
            let mut delete = sqlx::query(&sql).bind(looked_at - START_MARGIN_MS);
            for id in ids {
                delete = delete.bind(id.as_str());
            }
            pruned += delete.execute(&self.pool).await?.rows_affected();
        }
        Ok(pruned)
    }

    /// Everyone who ever sat in a match, from the matches' seats (read row by row: a large
    /// history is never held in memory at once).
    async fn seated_players(&self) -> Result<HashSet<String>, StoreError> {
        let mut seated = HashSet::new();
        let mut rows = sqlx::query("SELECT seats FROM matches").fetch(&self.pool);
        while let Some(row) = rows.try_next().await? {
            let seats: Vec<StoredSeat> = serde_json::from_str(&row.get::<String, _>(0))
                .map_err(|error| StoreError::Corrupt(format!("a match's seats: {error}")))?;
            seated.extend(seats.into_iter().filter_map(|seat| seat.player_id));
        }
        Ok(seated)
    }
}
