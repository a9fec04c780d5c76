//! Identifiers shared by every layer: seats, viewers and room codes.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A seat at the table, numbered from 0 clockwise. No game has more than eight.
pub type Seat = u8;

/// Who a view is computed for. A view is the only way game state leaves an engine, so this
/// enum is the whole list of audiences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "kind", content = "id")]
pub enum Viewer {
    /// The person (or bot) in this seat.
    Seat(Seat),
    /// Every member of a team at once: what teammates share (DēmoS figures), never hands.
    Team(u8),
    /// Anyone watching: public information only.
    Spectator,
    /// Everything, hidden or not. Only for finished matches and fully revealed replays.
    Omniscient,
}

impl Viewer {
    /// The seat this viewer plays, when it is one seat's person (or bot).
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(seat) => Some(seat),
            _ => None,
        }
    }
}

/// The code that names a room in links (`/r/K7QX2MHDWA`). Ten characters from an alphabet
/// without look-alikes, so it can be read aloud and typed from a phone.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(transparent)]
pub struct RoomCode(pub String);

impl RoomCode {
    /// Letters and digits that cannot be mistaken for one another (no 0/O, 1/I/L, 5/S, 8/B).
    pub const ALPHABET: &'static [u8] = b"ACDEFGHJKMNPQRTUVWXY2345679";
    /// Long enough that guessing a private room is hopeless. There are 27^10 ≈ 2.1e14 codes;
    /// with the server full (`--max-rooms` 2,000) one guess in about 1e11 finds a room. At the
    /// lookup quota (120 a minute per address), even 10,000 addresses (20,000 guesses a
    /// second) need on average 5.1e6 s, about two months, to find one, and rooms live for
    /// minutes to hours. Six characters (27^6 ≈ 3.9e8) fell to 100 addresses in ~16 minutes.
    pub const LEN: usize = 10;
    /// The length codes had before: rooms stored with such a code still resume after a
    /// restart and can still be joined by it. New rooms never get one.
    pub const LEGACY_LEN: usize = 6;

    /// Parses a code typed by a person: surrounding space is ignored and case does not matter.
    pub fn parse(text: &str) -> Option<RoomCode> {
        let code = text.trim().to_ascii_uppercase();
        let valid = (code.len() == Self::LEN || code.len() == Self::LEGACY_LEN)
            && code.bytes().all(|b| Self::ALPHABET.contains(&b));
        valid.then_some(RoomCode(code))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for RoomCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_seat_viewer_names_a_seat() {
        assert_eq!(Viewer::Seat(3).seat(), Some(3));
        assert_eq!(Viewer::Team(1).seat(), None);
        assert_eq!(Viewer::Spectator.seat(), None);
        assert_eq!(Viewer::Omniscient.seat(), None);
    }

    #[test]
    fn room_codes_are_read_case_insensitively_and_reject_look_alikes() {
        assert_eq!(
            RoomCode::parse(" k7qx2mhdwa ").map(|c| c.0),
            Some("K7QX2MHDWA".into())
        );
        assert_eq!(
            RoomCode::parse("K0QX2MHDWA"),
            None,
            "0 is not in the alphabet"
        );
        assert_eq!(RoomCode::parse("K7QX2MHDW"), None, "too short");
        assert_eq!(RoomCode::parse("K7QX2MHDWAC"), None, "too long");
    }

    #[test]
    fn six_letter_codes_of_rooms_made_before_the_longer_codes_still_parse() {
        assert_eq!(
            RoomCode::parse("k7qx2m").map(|c| c.0),
            Some("K7QX2M".into())
        );
        assert_eq!(
            RoomCode::parse("K7QX2MH"),
            None,
            "only the two lengths are codes"
        );
    }

    #[test]
    fn viewers_serialise_as_tagged_objects() {
        let json = serde_json::to_string(&Viewer::Seat(2)).unwrap();
        assert_eq!(json, r#"{"kind":"seat","id":2}"#);
        let back: Viewer = serde_json::from_str(r#"{"kind":"spectator"}"#).unwrap();
        assert_eq!(back, Viewer::Spectator);
    }
}
