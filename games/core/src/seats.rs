//! A small set of seats: who may act now.

use serde::{Deserialize, Serialize};

use crate::Seat;

/// A set of seats as a bit mask (no game has more than eight seats, and most steps involve one
/// or all of them). Serialised as a sorted list.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "Vec<Seat>", into = "Vec<Seat>")]
pub struct SeatSet(u16);

impl SeatSet {
    pub const EMPTY: SeatSet = SeatSet(0);

    pub fn only(seat: Seat) -> SeatSet {
        SeatSet(1 << seat)
    }

    /// Seats `0..count`.
    pub fn all(count: u8) -> SeatSet {
        SeatSet(((1u32 << count) - 1) as u16)
    }

    pub fn insert(&mut self, seat: Seat) {
        self.0 |= 1 << seat;
    }

    pub fn remove(&mut self, seat: Seat) {
        self.0 &= !(1 << seat);
    }

    pub fn contains(self, seat: Seat) -> bool {
        seat < 16 && self.0 & (1 << seat) != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..16u8).filter(move |&s| self.contains(s))
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        let mut set = SeatSet::EMPTY;
        for seat in iter {
            set.insert(seat);
        }
        set
    }
}

impl From<Vec<Seat>> for SeatSet {
    fn from(seats: Vec<Seat>) -> Self {
        seats.into_iter().collect()
    }
}

impl From<SeatSet> for Vec<Seat> {
    fn from(set: SeatSet) -> Self {
        set.iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_set_holds_exactly_what_was_put_in() {
        let mut set = SeatSet::only(2);
        set.insert(5);
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![2, 5]);
        set.remove(2);
        assert!(!set.contains(2) && set.contains(5) && set.len() == 1);
        assert_eq!(SeatSet::all(4).iter().collect::<Vec<_>>(), vec![0, 1, 2, 3]);
        assert_eq!(serde_json::to_string(&SeatSet::all(2)).unwrap(), "[0,1]");
    }
}
