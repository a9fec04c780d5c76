//! What the store reads: the running matches a restart rebuilds, a match with its log, and
//! the history. Every read a request waits for uses an index and is bounded by
//! [`READ_DEADLINE`]; `query_plans` checks SQLite's plans for them.

use sqlx::Row;
use std::collections::HashMap;
use std::time::Duration;

use pandemonium_protocol::{LoggedAction, MatchSummary};

use super::{MatchStatus, Store, StoreError, StoredMatch, records};

impl Store {
    /// Matches that were running when the server stopped, with their logs, to be rebuilt.
    /// Only running matches' rows are read: an ended match's log is in its own row.
    pub async fn running_matches(&self) -> Result<Vec<StoredMatch>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {MATCH_FIELDS} FROM matches WHERE status = 'running'"
        ))
        .fetch_all(&self.pool)
        .await?;
        let mut matches = rows
            .iter()
            .map(records::match_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        let logged = sqlx::query(&format!(
            "SELECT {LOG_COLUMNS}, match_id FROM running_actions \
             WHERE match_id IN (SELECT id FROM matches WHERE status = 'running') \
             ORDER BY match_id, idx"
        ))
        .fetch_all(&self.pool)
        .await?;
        let mut logs: HashMap<String, Vec<LoggedAction>> = HashMap::new();
        for row in &logged {
            let log = logs.entry(row.try_get(LOG_COLUMN_COUNT)?).or_default();
            log.push(records::action_from_row(row, log.len() as i64)?);
        }
        for m in &mut matches {
            m.log = logs.remove(&m.id).unwrap_or_default();
        }
        Ok(matches)
    }

    /// The match running in room `code`, with its log: what a node taking the room over
    /// rebuilds. Read once the room's lease is taken, so the log is whole (the previous
    /// owner's appends are fenced from then on). Running matches are few (one per open room)
    /// and found through `matches_by_finish`.
    pub async fn running_match_in(&self, code: &str) -> Result<Option<StoredMatch>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {MATCH_FIELDS} FROM matches WHERE status = 'running' AND room_code = $1 \
             ORDER BY started_at DESC LIMIT 1"
        ))
        .bind(code)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let mut m = records::match_from_row(&row)?;
        m.log = self.running_log(&m.id).await?;
        Ok(Some(m))
    }

    /// One match with its log.
    pub async fn get_match(&self, id: &str) -> Result<Option<StoredMatch>, StoreError> {
        self.read_match(id, true).await
    }

    /// One match as the API serves it: with its log once it has ended, without while it runs
    /// (nobody is shown a running match's log). Bounded by [`READ_DEADLINE`].
    pub async fn match_record(&self, id: &str) -> Result<Option<StoredMatch>, StoreError> {
        within_deadline(self.read_match(id, false)).await
    }

    async fn read_match(
        &self,
        id: &str,
        running_log: bool,
    ) -> Result<Option<StoredMatch>, StoreError> {
        let row = sqlx::query(&record_sql())
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let mut m = records::match_from_row(&row)?;
        match row.try_get::<Option<String>, _>(MATCH_FIELD_COUNT)? {
            Some(log) => m.log = records::ended_log(&log)?,
            None if running_log && m.status == MatchStatus::Running => {
                m.log = self.running_log(id).await?;
            }
            None => {}
        }
        Ok(Some(m))
    }

    /// A running match's log, from `running_actions`. On SQLite, where that table has no
    /// index, this reads it whole: no request reads a running match's log (the API shows it
    /// only once the match has ended), and a restart reads every running match's at once.
    async fn running_log(&self, id: &str) -> Result<Vec<LoggedAction>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {LOG_COLUMNS} FROM running_actions WHERE match_id = $1 ORDER BY idx"
        ))
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .enumerate()
            .map(|(expected, row)| records::action_from_row(row, expected as i64))
            .collect()
    }

    /// Finished matches, newest first, optionally of one game; and how many there are. Each
    /// page is read off an index (`matches_by_finish`, `matches_by_game_finish`), whatever
    /// the history's size, and bounded by [`READ_DEADLINE`].
    pub async fn finished_matches(
        &self,
        game: Option<&str>,
        page: u32,
        per_page: u32,
    ) -> Result<(Vec<MatchSummary>, i64), StoreError> {
        within_deadline(async {
            let (count, ids) = history_sql(game.is_some());
            let (mut count, mut ids) = (sqlx::query(count), sqlx::query(&ids));
            if let Some(game) = game {
                count = count.bind(game);
                ids = ids.bind(game);
            }
            let total: i64 = count.fetch_one(&self.pool).await?.get(0);
            let ids: Vec<String> = ids
                .bind(i64::from(per_page))
                .bind(i64::from(page) * i64::from(per_page))
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|row| row.try_get(0))
                .collect::<Result<_, _>>()?;
            if ids.is_empty() {
                return Ok((Vec::new(), total));
            }
            let rows_sql = page_rows_sql(ids.len());
            let mut rows = sqlx::query(&rows_sql);
            for id in &ids {
                rows = rows.bind(id);
            }
            let mut matches: HashMap<String, StoredMatch> = rows
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|row| records::match_from_row(row).map(|m| (m.id.clone(), m)))
                .collect::<Result<_, _>>()?;
            let summaries = ids
                .iter()
                .filter_map(|id| matches.remove(id))
                .map(|m| m.summary())
                .collect();
            Ok((summaries, total))
        })
        .await
    }
}

/// The columns [`records::action_from_row`] reads, in its order.
const LOG_COLUMNS: &str = "idx, seat, action, source, seq";
const LOG_COLUMN_COUNT: usize = 5;

/// Every column of a match but its log, and the rematch that followed it (an abandoned one
/// does not count), found through `matches_by_rematch_of`.
pub(super) const MATCH_FIELDS: &str = "id, room_code, game, config, seats, room, seed, seed_hash, \
                            status, outcome, started_at, finished_at, rematch_of, \
                            (SELECT MIN(next.id) FROM matches next \
                             WHERE next.rematch_of = matches.id AND next.status <> 'abandoned')";
/// How many columns [`MATCH_FIELDS`] names: a column selected after them is at this index.
const MATCH_FIELD_COUNT: usize = 14;

/// The history's statements: how many finished matches there are, of one game (`$1`) or of
/// every game, kept in `history_counts`; and the ids of a page of them, newest first, read off
/// the index `matches_by_finish` (or `matches_by_game_finish`) alone, whose rows are then read
/// by id ([`page_rows_sql`]). The page's size and offset come last. Two statements rather than
/// one with `($1 = '' OR game = $1)`: a condition that may or may not name the game keeps the
/// database from choosing its index.
pub(super) fn history_sql(by_game: bool) -> (&'static str, String) {
    let (count, filter, page_from) = match by_game {
        true => (
            "SELECT CAST(COALESCE(SUM(finished), 0) AS BIGINT) FROM history_counts \
             WHERE game = $1",
            "status = 'finished' AND game = $1",
            2,
        ),
        false => (
            "SELECT CAST(COALESCE(SUM(finished), 0) AS BIGINT) FROM history_counts",
            "status = 'finished'",
            1,
        ),
    };
    let ids = format!(
        "SELECT id FROM matches WHERE {filter} \
         ORDER BY finished_at DESC, id DESC LIMIT ${page_from} OFFSET ${}",
        page_from + 1
    );
    (count, ids)
}

/// The rows of `count` matches named by id (`$1` …): a page of the history once its ids are
/// known.
pub(super) fn page_rows_sql(count: usize) -> String {
    let places: Vec<String> = (1..=count).map(|n| format!("${n}")).collect();
    format!(
        "SELECT {MATCH_FIELDS} FROM matches WHERE id IN ({})",
        places.join(", ")
    )
}

/// One match and its log (an ended match's; a running match's is in `running_actions`).
pub(super) fn record_sql() -> String {
    format!("SELECT {MATCH_FIELDS}, log FROM matches WHERE id = $1")
}

/// How long a read that a request is waiting for may take. Past it the request is answered
/// that the server is busy, and the read is dropped: it stops at its next row (and on
/// PostgreSQL the server cancels it at the same deadline, its `statement_timeout`). Every
/// history read uses an index, so only a database in trouble comes near it; a server that is
/// stopping never waits longer than this for a read in flight.
pub const READ_DEADLINE: Duration = Duration::from_secs(5);

/// `fut`, or [`StoreError::TimedOut`] once [`READ_DEADLINE`] has passed.
async fn within_deadline<T>(
    fut: impl std::future::Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    tokio::time::timeout(READ_DEADLINE, fut)
        .await
        .map_err(|_| StoreError::TimedOut)?
}
