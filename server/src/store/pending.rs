//! Which rows of SQLite's `pending_actions` belong to matches still running, so that a match's
//! actions can be moved into `actions` when it ends, and the rows of ended matches deleted.
//!
//! `pending_actions` is appended to in rowid order and never indexed: a move writes the
//! table's last page and nothing else. Rows are found by the rowids recorded here as they are
//! inserted (and read back from the table when the writer starts). The rows of ended matches
//! (already copied into `actions`) are deleted now and then, in rowid ranges: the front of
//! the table below the first row of every running match, and long runs between the rows of
//! running matches ([`PendingRows::prunable`]).
//!
//! Without the primary key of `actions` (match, index) nothing in the table refuses a second
//! action at an index already taken, so the index each match appends next is kept here too.
//!
//! An ended match's rows are moved after its end has committed, not in the same transaction
//! ([`PendingRows::to_move`]), and at a pace: moving ~150 rows takes a millisecond or so, and
//! when many tables end together the moves held every room's actions behind them.

use std::collections::{HashMap, VecDeque};

/// The pending rows of every running match, and of ended matches still to move, by rowid.
#[derive(Debug, Default)]
pub(super) struct PendingRows {
    running: HashMap<String, Running>,
    /// Ended matches whose rows are still to be moved into `actions`, oldest end first.
    unmoved: VecDeque<(String, Vec<i64>)>,
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
    /// The rows read back from the table as `(rowid, match_id, index)` of running matches
    /// and of ended matches still to move (`unmoved`, which may have no rows left), and the
    /// highest rowid in it.
    pub fn from_rows(
        rows: impl IntoIterator<Item = (i64, String, i64)>,
        unmoved: impl IntoIterator<Item = String>,
        last: i64,
    ) -> Self {
        let mut pending = PendingRows {
            running: HashMap::new(),
            unmoved: VecDeque::new(),
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
        for match_id in unmoved {
            pending.ended(&match_id);
        }
        pending
    }

    /// `match_id` has ended: its rows (if any) wait to be moved.
    fn ended(&mut self, match_id: &str) {
        let rowids = self
            .running
            .remove(match_id)
            .map(|r| r.rowids)
            .unwrap_or_default();
        self.unmoved.push_back((match_id.to_string(), rowids));
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
            self.ended(match_id);
        }
    }

    /// The ended match to move next, with its pending rows in order.
    pub fn to_move(&self) -> Option<(&str, &[i64])> {
        self.unmoved
            .front()
            .map(|(match_id, rowids)| (match_id.as_str(), rowids.as_slice()))
    }

    /// How many ended matches wait to be moved.
    pub fn waiting_to_move(&self) -> usize {
        self.unmoved.len()
    }

    /// Records that the match [`PendingRows::to_move`] gave has been moved (committed): its
    /// rows may be deleted now.
    pub fn moved(&mut self) {
        self.unmoved.pop_front();
    }

    /// Rowid ranges `(first, last)` holding rows of moved matches only: everything below the
    /// first row of every running (or unmoved) match, and higher up each run of at least
    /// `min_run` rows between two rows of those (or after the last one). A match that runs for
    /// hours, or one left running because it could not be resumed, would otherwise keep
    /// every row appended since its start; shorter runs among the rows of running matches
    /// wait, since deleting them would rewrite pages those rows still share.
    pub fn prunable(&self, min_run: i64) -> Vec<(i64, i64)> {
        let mut running: Vec<i64> = self
            .running
            .values()
            .map(|r| &r.rowids)
            .chain(self.unmoved.iter().map(|(_, rowids)| rowids))
            .flatten()
            .copied()
            .collect();
        running.sort_unstable();
        let Some(&lowest) = running.first() else {
            return vec![(i64::MIN, self.last)];
        };
        let mut ranges = vec![(i64::MIN, lowest - 1)];
        let long_enough = |first: i64, last: i64| last - first + 1 >= min_run;
        for pair in running.windows(2) {
            let (first, last) = (pair[0] + 1, pair[1] - 1);
            if long_enough(first, last) {
                ranges.push((first, last));
            }
        }
        let after = running[running.len() - 1] + 1;
        if long_enough(after, self.last) {
            ranges.push((after, self.last));
        }
        ranges
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

    /// Moves every ended match, as the writer does after their ends commit.
    fn move_all(pending: &mut PendingRows) {
        while pending.to_move().is_some() {
            pending.moved();
        }
    }

    /// The ended matches still to move, with their rows.
    fn unmoved(pending: &PendingRows) -> Vec<(String, Vec<i64>)> {
        pending
            .unmoved
            .iter()
            .map(|(m, rowids)| (m.clone(), rowids.clone()))
            .collect()
    }

    #[test]
    fn only_rows_below_every_running_match_are_prunable() {
        let mut pending = PendingRows::default();
        committed(&mut pending, &[("a", 1), ("b", 2), ("a", 3), ("c", 4)], &[]);
        assert_eq!(pending.prunable(2), vec![(i64::MIN, 0)]);
        committed(&mut pending, &[("b", 5)], &["a"]);
        move_all(&mut pending);
        assert_eq!(
            pending.prunable(2),
            vec![(i64::MIN, 1)],
            "b's first row is 2"
        );
        committed(&mut pending, &[], &["b"]);
        move_all(&mut pending);
        assert_eq!(
            pending.prunable(2),
            vec![(i64::MIN, 3)],
            "c's first row is 4"
        );
        committed(&mut pending, &[], &["c"]);
        move_all(&mut pending);
        assert_eq!(
            pending.prunable(2),
            vec![(i64::MIN, 5)],
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
        change.end("a");
        drop(change);
        assert_eq!(pending.prunable(1), vec![(i64::MIN, 0)]);
        assert!(pending.to_move().is_none(), "a's end did not commit");
        committed(&mut pending, &[], &["a", "b"]);
        assert_eq!(
            unmoved(&pending),
            vec![("a".to_string(), vec![1]), ("b".to_string(), vec![])]
        );
    }

    #[test]
    fn an_ended_match_s_rows_stay_until_it_is_moved() {
        let mut pending = PendingRows::default();
        committed(&mut pending, &[("a", 1), ("b", 2), ("a", 3)], &["a"]);
        assert_eq!(pending.to_move(), Some(("a", &[1, 3][..])));
        assert_eq!(pending.prunable(1), vec![(i64::MIN, 0)], "a still to move");
        pending.moved();
        assert_eq!(pending.to_move(), None);
        assert_eq!(pending.prunable(1), vec![(i64::MIN, 1), (3, 3)]);
    }

    #[test]
    fn a_match_ending_in_the_transaction_that_adds_its_last_rows_moves_them_all() {
        let mut pending = PendingRows::default();
        committed(&mut pending, &[("a", 1), ("b", 2)], &[]);
        let mut change = PendingChange::default();
        change.add("a", 3, 1);
        change.end("a");
        pending.commit(change);
        assert_eq!(pending.to_move(), Some(("a", &[1, 3][..])));
        move_all(&mut pending);
        assert_eq!(
            pending.prunable(1),
            vec![(i64::MIN, 1), (3, 3)],
            "both of a's rows"
        );
    }

    #[test]
    fn rows_read_back_at_start_are_ordered_per_match() {
        let pending = PendingRows::from_rows(
            [
                (7, "a".to_string(), 1),
                (5, "a".to_string(), 0),
                (6, "b".to_string(), 4),
                (3, "c".to_string(), 0),
            ],
            ["c".to_string(), "d".to_string()],
            9,
        );
        let none = PendingChange::default();
        assert_eq!(pending.next_index("a", &none), Some(2));
        assert_eq!(pending.next_index("b", &none), Some(5));
        assert_eq!(pending.next_index("e", &none), None);
        assert_eq!(
            unmoved(&pending),
            vec![("c".to_string(), vec![3]), ("d".to_string(), vec![])],
            "ended matches whose rows were still to move"
        );
        assert_eq!(pending.prunable(1), vec![(i64::MIN, 2), (4, 4), (8, 9)]);
        assert_eq!(
            PendingRows::from_rows([], [], 9).prunable(1),
            vec![(i64::MIN, 9)]
        );
    }

    #[test]
    fn long_runs_of_ended_rows_between_running_ones_are_prunable_short_ones_wait() {
        let mut pending = PendingRows::default();
        // "long" runs throughout; the others end: rows 2-3 (2 rows), 5-9 (5 rows), 11-13.
        let rows = [
            ("long", 1),
            ("x", 2),
            ("x", 3),
            ("long", 4),
            ("y", 5),
            ("y", 6),
            ("y", 7),
            ("y", 8),
            ("y", 9),
            ("long", 10),
            ("z", 11),
            ("z", 12),
            ("z", 13),
        ];
        committed(&mut pending, &rows, &["x", "y", "z"]);
        move_all(&mut pending);
        assert_eq!(
            pending.prunable(3),
            vec![(i64::MIN, 0), (5, 9), (11, 13)],
            "2-3 is shorter than 3 rows"
        );
        assert_eq!(pending.prunable(4), vec![(i64::MIN, 0), (5, 9)]);
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
