//! Which rows of SQLite's `pending_actions` belong to matches still running, so that a match's
//! actions can be moved into `actions` when it ends, and the rows of ended matches deleted.
//!
//! `pending_actions` is appended to in rowid order and never indexed: a move writes the
//! table's last page and nothing else. Rows are found by the rowids recorded here as they are
//! inserted (and read back from the table when the writer starts). The front of the table,
//! below the first row of every running match, holds only rows already moved into `actions`:
//! it is deleted in one statement now and then.
//!
//! Without the primary key of `actions` (match, index) nothing in the table refuses a second
//! action at an index already taken, so the index each match appends next is kept here too.

use std::collections::HashMap;

/// The pending rows of every running match, by rowid.
#[derive(Debug, Default)]
pub(super) struct PendingRows {
    running: HashMap<String, Running>,
    /// The highest rowid inserted so far: SQLite gives each new row the highest rowid in the
    /// table plus one, so every row in the table is at or below it.
    last: i64,
}

#[derive(Debug)]
struct Running {
    rowids: Vec<i64>,
    /// The index of the match's next action.
    next: i64,
}

/// What one transaction did to the pending rows, applied only once it has committed.
#[derive(Debug, Default)]
pub(super) struct PendingChange<'a> {
    /// `(match, rowid, index)` of each row added.
    added: Vec<(&'a str, i64, i64)>,
    ended: Vec<&'a str>,
}

impl<'a> PendingChange<'a> {
    pub fn add(&mut self, match_id: &'a str, rowid: i64, index: i64) {
        self.added.push((match_id, rowid, index));
    }

    pub fn end(&mut self, match_id: &'a str) {
        self.ended.push(match_id);
    }
}

impl PendingRows {
    /// The rows read back from the table as `(rowid, match_id, index)` of running matches,
    /// and the highest rowid in it.
    pub fn from_rows(rows: impl IntoIterator<Item = (i64, String, i64)>, last: i64) -> Self {
        let mut pending = PendingRows {
            running: HashMap::new(),
            last,
        };
        for (rowid, match_id, index) in rows {
            let running = pending.running.entry(match_id).or_insert(Running {
                rowids: Vec::new(),
                next: 0,
            });
            running.rowids.push(rowid);
            running.next = running.next.max(index + 1);
        }
        for running in pending.running.values_mut() {
            running.rowids.sort_unstable();
        }
        pending
    }

    /// The index `match_id` appends next, if it has pending rows (here or in `change`); a
    /// running match without any has its actions, if any, in `actions`.
    pub fn next_index(&self, match_id: &str, change: &PendingChange<'_>) -> Option<i64> {
        let added = change.added.iter().rev().find(|(m, ..)| *m == match_id);
        match added {
            Some((_, _, index)) => Some(index + 1),
            None => self.running.get(match_id).map(|r| r.next),
        }
    }

    /// The pending rows of `match_id` in order: those committed earlier, then those `change`
    /// added in the transaction under way.
    pub fn of<'s>(
        &'s self,
        match_id: &'s str,
        change: &'s PendingChange<'_>,
    ) -> impl Iterator<Item = i64> + 's {
        let committed = self
            .running
            .get(match_id)
            .into_iter()
            .flat_map(|r| r.rowids.iter().copied());
        let added = change
            .added
            .iter()
            .filter(move |(m, ..)| *m == match_id)
            .map(|(_, rowid, _)| *rowid);
        committed.chain(added)
    }

    /// Records a committed transaction's rows: those added stay until their match ends.
    pub fn commit(&mut self, change: PendingChange<'_>) {
        for (match_id, rowid, index) in change.added {
            self.last = rowid;
            let running = match self.running.get_mut(match_id) {
                Some(running) => running,
                None => self.running.entry(match_id.to_string()).or_insert(Running {
                    rowids: Vec::new(),
                    next: 0,
                }),
            };
            running.rowids.push(rowid);
            running.next = index + 1;
        }
        for match_id in change.ended {
            self.running.remove(match_id);
        }
    }

    /// Every row below this rowid belongs to an ended match (its copy is in `actions`).
    pub fn prunable_below(&self) -> i64 {
        self.running
            .values()
            .filter_map(|r| r.rowids.first().copied())
            .min()
            .unwrap_or(self.last.saturating_add(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Commits rows `(match, rowid)`; each match's indexes count from 0 in the order given.
    fn committed(pending: &mut PendingRows, rows: &[(&str, i64)], ended: &[&str]) {
        let mut change = PendingChange::default();
        for (m, rowid) in rows {
            let none = PendingChange::default();
            let earlier = rows.iter().take_while(|(_, r)| r < rowid);
            let index = pending.next_index(m, &none).unwrap_or(0)
                + earlier.filter(|(o, _)| o == m).count() as i64;
            change.add(m, *rowid, index);
        }
        for m in ended {
            change.end(m);
        }
        pending.commit(change);
    }

    #[test]
    fn only_rows_below_every_running_match_are_prunable() {
        let mut pending = PendingRows::default();
        committed(&mut pending, &[("a", 1), ("b", 2), ("a", 3), ("c", 4)], &[]);
        assert_eq!(pending.prunable_below(), 1);
        committed(&mut pending, &[("b", 5)], &["a"]);
        assert_eq!(pending.prunable_below(), 2, "b's first row is 2");
        committed(&mut pending, &[], &["b"]);
        assert_eq!(pending.prunable_below(), 4, "c's first row is 4");
        committed(&mut pending, &[], &["c"]);
        assert_eq!(
            pending.prunable_below(),
            6,
            "nothing runs: every row so far"
        );
    }

    #[test]
    fn rows_of_a_transaction_that_did_not_commit_are_not_recorded() {
        let mut pending = PendingRows::default();
        committed(&mut pending, &[("a", 1)], &[]);
        let mut change = PendingChange::default();
        change.add("a", 2, 1);
        change.add("b", 3, 0);
        assert_eq!(pending.of("a", &change).collect::<Vec<_>>(), vec![1, 2]);
        drop(change);
        let none = PendingChange::default();
        assert_eq!(pending.of("a", &none).collect::<Vec<_>>(), vec![1]);
        assert_eq!(pending.of("b", &none).count(), 0);
        assert_eq!(pending.prunable_below(), 1);
    }

    #[test]
    fn a_match_ending_in_the_transaction_that_adds_its_last_rows_moves_them_all() {
        let mut pending = PendingRows::default();
        committed(&mut pending, &[("a", 1), ("b", 2)], &[]);
        let mut change = PendingChange::default();
        change.add("a", 3, 1);
        change.end("a");
        assert_eq!(pending.of("a", &change).collect::<Vec<_>>(), vec![1, 3]);
        pending.commit(change);
        assert_eq!(pending.prunable_below(), 2);
    }

    #[test]
    fn rows_read_back_at_start_are_ordered_per_match() {
        let pending = PendingRows::from_rows(
            [
                (7, "a".to_string(), 1),
                (5, "a".to_string(), 0),
                (6, "b".to_string(), 4),
            ],
            9,
        );
        let none = PendingChange::default();
        assert_eq!(pending.of("a", &none).collect::<Vec<_>>(), vec![5, 7]);
        assert_eq!(pending.next_index("a", &none), Some(2));
        assert_eq!(pending.next_index("b", &none), Some(5));
        assert_eq!(pending.next_index("c", &none), None);
        assert_eq!(pending.prunable_below(), 5);
        assert_eq!(PendingRows::from_rows([], 9).prunable_below(), 10);
    }

    #[test]
    fn the_next_index_counts_rows_added_in_the_transaction_under_way() {
        let mut pending = PendingRows::default();
        committed(&mut pending, &[("a", 1), ("a", 2)], &[]);
        let mut change = PendingChange::default();
        assert_eq!(pending.next_index("a", &change), Some(2));
        change.add("a", 3, 2);
        assert_eq!(pending.next_index("a", &change), Some(3));
        assert_eq!(pending.next_index("b", &change), None);
    }
}
