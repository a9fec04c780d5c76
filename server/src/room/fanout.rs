//! The state fan-out: from one position of a game, the frame each connection is sent.
//!
//! One frame per viewer class someone is connected as (each seat, the spectators), serialised
//! once and shared by every connection that sees the same thing. A connection that takes
//! patches and holds its class's previous state gets the class's patch instead, when the state
//! is large enough to be worth one ([`Bases::worth_patching`]) and the patch is smaller. It is
//! a function of the game, the viewers and the previous frames (the bases), so it is tested
//! without a room.

use pandemonium_game_contract::{DynGame, Viewer};
use pandemonium_protocol::Seat;

use super::deltas::{Bases, Patches};
use super::wire::{self, OutlinedFrame};
use super::{ConnId, Frame};

/// One connection, as the fan-out sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Recipient {
    pub conn: ConnId,
    pub viewer: Viewer,
    pub patches: Patches,
    /// It holds exactly its viewer's state at the version before: a patch applies to it.
    pub on_base: bool,
}

/// The viewer classes a version's state is made for, each with the deadline it carries.
pub(super) type Deadlines = Vec<(Viewer, Option<u64>)>;

/// The `state` frame `viewer` is sent of `game` at `version`.
pub(super) fn state_frame_of(
    game: &dyn DynGame,
    version: u64,
    viewer: Viewer,
    deadline_ms: Option<u64>,
) -> Frame {
    let seat = viewer.seat();
    let to_act: Vec<Seat> = game.to_act_seen_by(viewer).iter().collect();
    wire::state_frame(
        version,
        |out| game.write_view_json(viewer, out),
        &to_act,
        |out| match seat {
            Some(seat) => game.write_legal_json(seat, out),
            None => out.extend_from_slice(b"[]"),
        },
        deadline_ms,
        game.outcome().as_ref(),
    )
}

/// The frame each of `recipients` is sent of `game` at `version`, for the viewer classes of
/// `classes` (a recipient whose class is not among them is sent nothing). `bases` holds the
/// previous version's frames, and is left holding this version's for the classes someone
/// takes patches as.
pub(super) fn fan_out(
    game: &dyn DynGame,
    version: u64,
    classes: &[(Viewer, Option<u64>)],
    recipients: &[Recipient],
    bases: &mut Bases,
) -> Vec<(ConnId, Frame)> {
    let mut frames: Vec<(Viewer, Frame)> = Vec::with_capacity(classes.len());
    let mut patches: Vec<(Viewer, Patches, Frame)> = Vec::new();
    let mut outlined: Vec<(Viewer, OutlinedFrame)> = Vec::new();
    for &(viewer, deadline_ms) in classes {
        if !recipients.iter().any(|r| r.viewer == viewer) {
            continue;
        }
        let full = state_frame_of(game, version, viewer, deadline_ms);
        // The kinds of patches this class's connections read (they may differ).
        let mut kinds: Vec<Patches> = Vec::new();
        for r in recipients {
            if r.viewer == viewer && r.patches.on() && !kinds.contains(&r.patches) {
                kinds.push(r.patches);
            }
        }
        if !kinds.is_empty() && bases.worth_patching(full.len()) {
            let next = OutlinedFrame::new(full.clone());
            if let Some(base) = version.checked_sub(1).and_then(|v| bases.at(viewer, v)) {
                for kind in kinds {
                    let patch = wire::patch_frame(base, &next, kind == Patches::WithProducts);
                    if patch.len() < full.len() {
                        patches.push((viewer, kind, patch));
                    }
                }
            }
            outlined.push((viewer, next));
        }
        frames.push((viewer, full));
    }
    bases.replace(version, outlined);
    recipients
        .iter()
        .filter_map(|r| {
            let patch = patches
                .iter()
                .find(|(v, kind, _)| r.on_base && *v == r.viewer && *kind == r.patches)
                .map(|(_, _, patch)| patch);
            let full = frames.iter().find(|(v, _)| *v == r.viewer).map(|(_, f)| f);
            patch.or(full).map(|frame| (r.conn, frame.clone()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pandemonium_game_contract::SeededChance;
    use pandemonium_protocol::ServerMsg;

    /// A DēmoS table of four: a position large enough that one move's patch is smaller than
    /// the whole state.
    fn game() -> Box<dyn DynGame> {
        let entry = pandemonium_game_registry::find("demos").expect("DēmoS is registered");
        let options = serde_json::json!({"mode": "simplified"});
        let (game, _) =
            (entry.create)(&options, 4, &mut SeededChance::from_u64(7)).expect("a table of four");
        game
    }

    fn to(conn: ConnId, viewer: Viewer, patches: Patches, on_base: bool) -> Recipient {
        Recipient {
            conn,
            viewer,
            patches,
            on_base,
        }
    }

    fn kind(frame: &Frame) -> &'static str {
        match serde_json::from_str::<ServerMsg>(frame).expect("a server message") {
            ServerMsg::State(_) => "state",
            ServerMsg::Patch { .. } => "patch",
            _ => "other",
        }
    }

    fn classes() -> Deadlines {
        (0..4)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator])
            .map(|viewer| (viewer, None))
            .collect()
    }

    #[test]
    fn connections_that_see_the_same_thing_share_one_frame_and_others_get_their_own() {
        let game = game();
        let recipients = [
            to(1, Viewer::Seat(0), Patches::Off, false),
            to(2, Viewer::Spectator, Patches::Off, false),
            to(3, Viewer::Spectator, Patches::Off, false),
        ];
        let sent = fan_out(
            game.as_ref(),
            0,
            &classes(),
            &recipients,
            &mut Bases::new(0),
        );
        assert_eq!(sent.len(), 3);
        let frame = |conn| &sent.iter().find(|(c, _)| *c == conn).unwrap().1;
        assert_eq!(frame(2).as_ptr(), frame(3).as_ptr(), "one shared frame");
        assert_eq!(
            frame(1).as_str(),
            state_frame_of(game.as_ref(), 0, Viewer::Seat(0), None).as_str()
        );
        assert_eq!(
            frame(2).as_str(),
            state_frame_of(game.as_ref(), 0, Viewer::Spectator, None).as_str()
        );
    }

    #[test]
    fn a_class_nobody_is_told_gets_no_frame_and_a_viewer_outside_the_classes_gets_nothing() {
        let game = game();
        let recipients = [to(1, Viewer::Spectator, Patches::Off, false)];
        let only_seats = &classes()[..4];
        let sent = fan_out(
            game.as_ref(),
            0,
            only_seats,
            &recipients,
            &mut Bases::new(0),
        );
        assert!(sent.is_empty());
    }

    /// Plays one move of whoever is to act first.
    fn play(game: &mut Box<dyn DynGame>, chance: &mut SeededChance) {
        let seat = game.to_act().iter().next().expect("someone acts");
        let action = game.bot_action(seat, chance).expect("a move");
        game.apply_json(seat, &action, chance)
            .expect("a legal move");
    }

    #[test]
    fn only_a_connection_on_the_base_gets_a_patch_and_only_of_the_kind_it_reads() {
        let mut chance = SeededChance::from_u64(7);
        let mut game = game();
        // Every state worth a patch, however small.
        let mut bases = Bases::new(0);
        let watching = |on_base| {
            [
                to(1, Viewer::Spectator, Patches::Json, on_base),
                to(2, Viewer::Spectator, Patches::Off, on_base),
            ]
        };
        fan_out(game.as_ref(), 0, &classes(), &watching(false), &mut bases);
        play(&mut game, &mut chance);
        let sent = fan_out(game.as_ref(), 1, &classes(), &watching(true), &mut bases);
        let kinds: Vec<_> = sent.iter().map(|(c, f)| (*c, kind(f))).collect();
        assert!(kinds.contains(&(1, "patch")), "{kinds:?}");
        assert!(
            kinds.contains(&(2, "state")),
            "whole states only: {kinds:?}"
        );
        // Not on the base (it missed a version, or has just joined): the whole state.
        play(&mut game, &mut chance);
        let sent = fan_out(game.as_ref(), 2, &classes(), &watching(false), &mut bases);
        assert_eq!(sent.len(), 2);
        assert!(sent.iter().all(|(_, f)| kind(f) == "state"));
    }

    #[test]
    fn a_state_smaller_than_the_patch_size_goes_whole_to_a_connection_on_its_base() {
        let mut chance = SeededChance::from_u64(7);
        let mut game = game();
        let spectator = |version| state_frame_of(game.as_ref(), version, Viewer::Spectator, None);
        // Larger than the spectator's states of the first moves.
        let smallest = 2 * spectator(0).len();
        let mut bases = Bases::new(smallest);
        let watching = |on_base| [to(1, Viewer::Spectator, Patches::WithProducts, on_base)];
        fan_out(game.as_ref(), 0, &classes(), &watching(false), &mut bases);
        assert!(bases.at(Viewer::Spectator, 0).is_none(), "no base kept");
        play(&mut game, &mut chance);
        assert!(state_frame_of(game.as_ref(), 1, Viewer::Spectator, None).len() < smallest);
        let sent = fan_out(game.as_ref(), 1, &classes(), &watching(true), &mut bases);
        assert_eq!(sent.len(), 1);
        assert_eq!(kind(&sent[0].1), "state");
    }
}
