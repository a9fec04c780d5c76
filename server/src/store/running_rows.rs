//! Where SQLite's writer has put each running match's actions: their rowids in
//! `running_actions`, so that the match's end can gather its log by them, and the index each
//! match appends next.
//!
//! `running_actions` is appended to in rowid order and never indexed: an append writes the
//! table's last page and nothing else. Rows are found by the rowids recorded here as they are
//! inserted (and read back from the table when the writer starts, scanning from the lowest
//! `log_from` of the running matches).
//!
//! Without a primary key on (match, index) nothing in the table refuses a second action at an
//! index already taken, so the index each match appends next is kept here too.

use std::collections::HashMap;

/// The rows of every running match this writer knows of, by rowid.
#[derive(Debug, Default)]
pub(super) struct RunningRows {
    running: HashMap<String, Running>,
}

#[derive(Debug)]
struct Running {
    /// In the order they were appended: the order of the match's indexes.
    rowids: Vec<i64>,
    /// The index of the match's next action.
    next: i64,
}

impl Running {
    fn new() -> Self {
        Running {
            rowids: Vec::new(),
            next: 0,
        }
    }
}

/// What one transaction did to the running rows, applied only once it has committed.
#[derive(Debug, Default)]
pub(super) struct RowsChange<'a> {
    /// `(match, rowid, index)` of each row added.
    added: Vec<(&'a str, i64, i64)>,
    ended: Vec<&'a str>,
}

impl<'a> RowsChange<'a> {
    pub fn add(&mut self, match_id: &'a str, rowid: i64, index: i64) {
        self.added.push((match_id, rowid, index));
    }

    pub fn end(&mut self, match_id: &'a str) {
        self.ended.push(match_id);
    }
}

impl RunningRows {
    /// The rows of running matches read back from the table, as `(rowid, match_id, index)`.
    pub fn from_rows(rows: impl IntoIterator<Item = (i64, String, i64)>) -> Self {
        let mut known = RunningRows::default();
        for (rowid, match_id, index) in rows {
            let running = known.running.entry(match_id).or_insert_with(Running::new);
            running.rowids.push(rowid);
            running.next = running.next.max(index + 1);
        }
        for running in known.running.values_mut() {
            running.rowids.sort_unstable();
        }
        known
    }

    /// The index `match_id` appends next, if it has rows (here or in `change`); a running
    /// match without any has its actions, if any, in `actions`.
    pub fn next_index(&self, match_id: &str, change: &RowsChange<'_>) -> Option<i64> {
        let added = change.added.iter().rev().find(|(m, ..)| *m == match_id);
        match added {
            Some((_, _, index)) => Some(index + 1),
            None => self.running.get(match_id).map(|r| r.next),
        }
    }

    /// The rowids of `match_id`'s rows as a JSON array in index order, with those `change`
    /// adds: what its end gathers its log by. `None` if the writer knows of no row of it (it
    /// has none, or an earlier end gathered them).
    pub fn rowids(&self, match_id: &str, change: &RowsChange<'_>) -> Option<String> {
        let committed = self.running.get(match_id).map(|r| r.rowids.as_slice());
        let added = change
            .added
            .iter()
            .filter(|(m, ..)| *m == match_id)
            .map(|&(_, rowid, _)| rowid);
        let rowids: Vec<i64> = committed
            .unwrap_or_default()
            .iter()
            .copied()
            .chain(added)
            .collect();
        (!rowids.is_empty()).then(|| serde_json::to_string(&rowids).expect("numbers serialise"))
    }

    /// Records a committed transaction's rows: those added stay until their match ends.
    pub fn commit(&mut self, change: RowsChange<'_>) {
        for (match_id, rowid, index) in change.added {
            let running = match self.running.get_mut(match_id) {
                Some(running) => running,
                None => self
                    .running
                    .entry(match_id.to_string())
                    .or_insert_with(Running::new),
            };
            running.rowids.push(rowid);
            running.next = index + 1;
        }
        for match_id in change.ended {
            self.running.remove(match_id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Commits rows `(match, rowid)`; each match's indexes count from its next one, in the
    /// order given.
    fn committed(known: &mut RunningRows, rows: &[(&str, i64)], ended: &[&str]) {
        let mut change = RowsChange::default();
        for (m, rowid) in rows {
            let index = known.next_index(m, &change).unwrap_or(0);
            change.add(m, *rowid, index);
        }
        for m in ended {
            change.end(m);
        }
        known.commit(change);
    }

    #[test]
    fn an_end_records_every_row_of_its_match_those_of_its_own_transaction_included() {
        let mut known = RunningRows::default();
        committed(&mut known, &[("a", 1), ("b", 2), ("a", 3)], &[]);
        let mut change = RowsChange::default();
        change.add("b", 4, 1);
        change.add("a", 5, 2);
        change.end("a");
        assert_eq!(known.rowids("a", &change).as_deref(), Some("[1,3,5]"));
        assert_eq!(known.rowids("b", &change).as_deref(), Some("[2,4]"));
        assert_eq!(known.rowids("c", &change), None, "no rows known");
        known.commit(change);
        let none = RowsChange::default();
        assert_eq!(known.rowids("a", &none), None, "ended: forgotten");
        assert_eq!(known.next_index("a", &none), None);
        assert_eq!(known.next_index("b", &none), Some(2));
    }

    #[test]
    fn rows_of_a_transaction_that_did_not_commit_are_not_recorded() {
        let mut known = RunningRows::default();
        committed(&mut known, &[("a", 1)], &[]);
        let mut change = RowsChange::default();
        change.add("a", 2, 1);
        change.add("b", 3, 0);
        change.end("a");
        drop(change);
        let none = RowsChange::default();
        assert_eq!(known.rowids("a", &none).as_deref(), Some("[1]"));
        assert_eq!(known.next_index("a", &none), Some(1));
        assert_eq!(known.next_index("b", &none), None);
    }

    #[test]
    fn rows_read_back_at_start_are_ordered_per_match() {
        let known = RunningRows::from_rows([
            (7, "a".to_string(), 1),
            (5, "a".to_string(), 0),
            (6, "b".to_string(), 4),
        ]);
        let none = RowsChange::default();
        assert_eq!(known.next_index("a", &none), Some(2));
        assert_eq!(known.next_index("b", &none), Some(5));
        assert_eq!(known.next_index("e", &none), None);
        assert_eq!(known.rowids("a", &none).as_deref(), Some("[5,7]"));
    }

    #[test]
    fn the_next_index_counts_rows_added_in_the_transaction_under_way() {
        let mut known = RunningRows::default();
        committed(&mut known, &[("a", 1), ("a", 2)], &[]);
        let mut change = RowsChange::default();
        assert_eq!(known.next_index("a", &change), Some(2));
        change.add("a", 3, 2);
        assert_eq!(known.next_index("a", &change), Some(3));
        assert_eq!(known.next_index("b", &change), None);
    }
}
