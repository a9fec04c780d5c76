//! Patches instead of whole states, for connections that asked for them (`hello {patches}`).
//!
//! A room keeps, per viewer class, the state frame it broadcast last. The next version
//! goes to a connection as a patch against it only when that connection was told exactly
//! that version as that viewer; anything else (a join, a resync, a seat taken, a rollback)
//! gets the whole state, and patches resume from there.
//!
//! Only states of at least `--patch-min-bytes` (4 KiB by default) are patched. Working a
//! patch out (outlining the new state's text, diffing it against the base) comes on top of
//! building the whole state, which the room still does, and sending fewer bytes saves the
//! server next to nothing: at a table's pace a DēmoS move cost ~30% more CPU with every state
//! patched than with whole states (docs/performance.md, "Patches"). What patches buy is bytes
//! on the player's link and the host's egress, and those count on large states: the many-seat
//! tables of Daemon Dice, DēmoS's complete rules near their end, a crowded Demon Bound board.

use pandemonium_game_contract::Viewer;

use super::Frame;
use super::wire::OutlinedFrame;

/// Whether a connection takes patches, and which operations it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Patches {
    /// Whole states only.
    #[default]
    Off,
    /// JSON Patch's `add`, `remove` and `replace`.
    Json,
    /// Those and `products`.
    WithProducts,
}

impl Patches {
    /// What a client's `hello {patches, products}` asks for.
    pub fn asked(patches: Option<bool>, products: Option<bool>) -> Patches {
        match (patches, products) {
            (Some(true), Some(true)) => Patches::WithProducts,
            (Some(true), _) => Patches::Json,
            _ => Patches::Off,
        }
    }

    pub fn on(self) -> bool {
        self != Patches::Off
    }
}

/// The state a connection was last sent, as whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Told {
    pub viewer: Viewer,
    pub version: u64,
}

/// The state frames of the last broadcast version, for the viewer classes that had a
/// connection taking patches: the bases of the next version's patches.
#[derive(Debug)]
pub(super) struct Bases {
    version: u64,
    frames: Vec<(Viewer, OutlinedFrame)>,
    /// The smallest state frame worth a patch, in bytes.
    smallest: usize,
}

impl Bases {
    /// Bases for patches of state frames of at least `smallest` bytes.
    pub fn new(smallest: usize) -> Bases {
        Bases {
            version: 0,
            frames: Vec::new(),
            smallest,
        }
    }

    /// Whether a state frame of `len` bytes is worth a patch (and worth keeping as a base).
    pub fn worth_patching(&self, len: usize) -> bool {
        len >= self.smallest
    }

    /// `viewer`'s frame at `version`, if that is what was broadcast last.
    pub fn at(&self, viewer: Viewer, version: u64) -> Option<&OutlinedFrame> {
        if self.version != version {
            return None;
        }
        self.frames
            .iter()
            .find(|(v, _)| *v == viewer)
            .map(|(_, frame)| frame)
    }

    /// Replaces what is kept with the frames of a new broadcast.
    pub fn replace(&mut self, version: u64, frames: Vec<(Viewer, OutlinedFrame)>) {
        self.version = version;
        self.frames = frames;
    }

    /// Keeps `viewer`'s frame at `version` too (a connection taking patches joined as a viewer
    /// nobody else taking them is), unless the room has moved past that version or the frame
    /// is too small to be patched.
    pub fn insert(&mut self, version: u64, viewer: Viewer, frame: Frame) {
        if !self.worth_patching(frame.len()) {
            return;
        }
        if self.version != version {
            if self.version > version {
                return;
            }
            self.replace(version, Vec::new());
        }
        if self.at(viewer, version).is_none() {
            self.frames.push((viewer, OutlinedFrame::new(frame)));
        }
    }

    pub fn clear(&mut self) {
        self.frames.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(text: &str) -> Frame {
        text.to_string().into()
    }

    #[test]
    fn a_frame_is_a_base_only_for_the_version_broadcast_last() {
        let mut bases = Bases::new(0);
        let at =
            |bases: &Bases, viewer, version| bases.at(viewer, version).map(|b| b.frame.clone());
        bases.replace(
            4,
            vec![(Viewer::Seat(1), OutlinedFrame::new(frame(r#"{"view": 1}"#)))],
        );
        assert_eq!(
            at(&bases, Viewer::Seat(1), 4),
            Some(frame(r#"{"view": 1}"#))
        );
        assert_eq!(at(&bases, Viewer::Seat(1), 3), None);
        assert_eq!(at(&bases, Viewer::Spectator, 4), None);
        bases.replace(5, vec![]);
        assert_eq!(at(&bases, Viewer::Seat(1), 4), None);
        bases.insert(5, Viewer::Spectator, frame(r#"{"view": 5}"#));
        assert_eq!(
            at(&bases, Viewer::Spectator, 5),
            Some(frame(r#"{"view": 5}"#))
        );
        bases.insert(4, Viewer::Seat(0), frame(r#"{"view": 4}"#));
        assert_eq!(
            at(&bases, Viewer::Seat(0), 4),
            None,
            "an older version is no base"
        );
    }

    #[test]
    fn a_frame_smaller_than_the_patch_size_is_kept_as_no_base() {
        let mut bases = Bases::new(11);
        assert!(!bases.worth_patching(10));
        assert!(bases.worth_patching(11));
        bases.insert(1, Viewer::Seat(0), frame(r#"{"view":1}"#));
        assert!(bases.at(Viewer::Seat(0), 1).is_none(), "10 bytes");
        bases.insert(1, Viewer::Seat(1), frame(r#"{"view":12}"#));
        assert!(bases.at(Viewer::Seat(1), 1).is_some(), "11 bytes");
    }
}
