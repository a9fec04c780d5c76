//! JSON written by hand where serde's general path is the cost: a view, four times a move,
//! and the long lists of legal discard actions. What is written here is exactly what the
//! types' `Serialize` writes; tests (here, in `view_json.rs`, and the conformance harness for
//! whole views and legal lists) hold it to that, byte for byte.

use serde::Serialize;

use crate::actions::Take;
use crate::cards::{Card, Figure, Suit};
use crate::state::Turn;

/// A JSON object written member by member at the end of a buffer. Its keys are the field
/// names of this crate's types, plain ASCII, copied as they are: a derived `Serialize` passes
/// every key through serde's string escaper, and views are written for every seat after
/// every move, so the escaper was a large part of writing them (docs/performance.md,
/// "Frames").
pub(crate) struct Members<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> Members<'a> {
    pub(crate) fn open(out: &'a mut Vec<u8>) -> Self {
        out.push(b'{');
        Members { out, first: true }
    }

    /// Writes the member's key; its value is to be written next, into what this returns.
    pub(crate) fn key(&mut self, key: &str) -> &mut Vec<u8> {
        debug_assert!(key.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'));
        if !std::mem::take(&mut self.first) {
            self.out.push(b',');
        }
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\":");
        self.out
    }

    pub(crate) fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) {
        // Writing to a Vec cannot fail.
        serde_json::to_writer(self.key(key), value).expect("every value written here serialises");
    }

    /// A member whose value is an array of plain values.
    pub(crate) fn list<T: Plain>(&mut self, key: &str, items: impl Iterator<Item = T>) {
        list(self.key(key), items);
    }

    pub(crate) fn plain<T: Plain>(&mut self, key: &str, value: T) {
        value.write(self.key(key));
    }

    pub(crate) fn close(self) {
        self.out.push(b'}');
    }
}

/// Writes a JSON array of plain values.
pub(crate) fn list<T: Plain>(out: &mut Vec<u8>, items: impl Iterator<Item = T>) {
    out.push(b'[');
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        item.write(out);
    }
    out.push(b']');
}

/// A value written without serde, as its `Serialize` writes it: cards, turns, figures and
/// the like, whose names and keys a derived `Serialize` would pass through serde's string
/// escaper one by one (they are plain ASCII, nothing to escape). Tests hold each to its
/// `Serialize`.
pub(crate) trait Plain {
    fn write(&self, out: &mut Vec<u8>);
}

impl<T: Plain + ?Sized> Plain for &T {
    fn write(&self, out: &mut Vec<u8>) {
        (*self).write(out);
    }
}

impl<T: Plain> Plain for Option<T> {
    fn write(&self, out: &mut Vec<u8>) {
        match self {
            Some(value) => value.write(out),
            None => out.extend_from_slice(b"null"),
        }
    }
}

impl Plain for bool {
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(if *self { b"true" } else { b"false" });
    }
}

impl Plain for u8 {
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(itoa::Buffer::new().format(*self).as_bytes());
    }
}

impl<T: Plain> Plain for [T] {
    fn write(&self, out: &mut Vec<u8>) {
        list(out, self.iter());
    }
}

/// A name between quotes.
fn quoted(out: &mut Vec<u8>, name: &str) {
    out.push(b'"');
    out.extend_from_slice(name.as_bytes());
    out.push(b'"');
}

impl Plain for Card {
    fn write(&self, out: &mut Vec<u8>) {
        quoted(out, self.name());
    }
}

impl Plain for Figure {
    fn write(&self, out: &mut Vec<u8>) {
        quoted(out, self.name());
    }
}

impl Plain for Suit {
    fn write(&self, out: &mut Vec<u8>) {
        quoted(
            out,
            match self {
                Suit::Spades => "spades",
                Suit::Hearts => "hearts",
                Suit::Diamonds => "diamonds",
                Suit::Clubs => "clubs",
            },
        );
    }
}

impl Plain for Turn {
    fn write(&self, out: &mut Vec<u8>) {
        quoted(
            out,
            match self {
                Turn::Public => "public",
                Turn::Secret => "secret",
                Turn::Unanimous => "unanimous",
            },
        );
    }
}

impl Plain for Take {
    fn write(&self, out: &mut Vec<u8>) {
        match self {
            Take::Pack => quoted(out, "pack"),
            Take::Discard(card) => {
                let mut take = Members::open(out);
                take.plain("discard", card);
                take.close();
            }
        }
    }
}

/// The tag of an internally tagged enum's variant.
pub(crate) struct Kind(pub &'static str);

impl Plain for Kind {
    fn write(&self, out: &mut Vec<u8>) {
        quoted(out, self.0);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// `value` written by hand.
    pub(crate) fn plain<T: Plain>(value: T) -> String {
        let mut out = Vec::new();
        value.write(&mut out);
        String::from_utf8(out).unwrap()
    }

    /// `value` written by hand and by its `Serialize` are the same text.
    pub(crate) fn same<T: Plain + Serialize>(value: T) {
        assert_eq!(plain(&value), serde_json::to_string(&value).unwrap());
    }

    #[test]
    fn every_card_figure_suit_turn_and_take_is_written_as_serde_writes_it() {
        for card in Card::all() {
            same(card);
            same(Take::Discard(card));
        }
        Figure::pile(true).into_iter().for_each(same);
        Suit::ALL.into_iter().for_each(same);
        [Turn::Public, Turn::Secret, Turn::Unanimous]
            .into_iter()
            .for_each(same);
        [0u8, 7, 200].into_iter().for_each(same);
        same(true);
        same(false);
        same(Take::Pack);
        same(None::<Card>);
        let cards: Vec<Card> = Card::all().take(3).collect();
        same(&cards[..]);
        same(&cards[..0]);
    }
}
