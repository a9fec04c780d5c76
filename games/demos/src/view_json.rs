//! A view's JSON written straight from the state: what the server sends in every frame.
//!
//! Building a [`DemosView`](crate::view::DemosView) to serialise it copies every player's hand, points, turns and
//! figures into vectors of their own: about sixty allocations for the four seats' frames of
//! one move. Here the same fields, in the same order, are read in place, each from the method
//! that `build_view` uses. The conformance harness holds the text to exactly that of the
//! built view serialised, at every position of its matches, for every viewer.

use pandemonium_game::{Seat, Viewer};
use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::state::{Demos, RoundSummary};

/// [`DemosView`](crate::view::DemosView)'s JSON for `viewer`.
pub(crate) struct ViewJson<'a> {
    pub game: &'a Demos,
    pub viewer: Viewer,
}

impl Serialize for ViewJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (game, viewer) = (self.game, self.viewer);
        let mut view = serializer.serialize_struct("DemosView", 22)?;
        view.serialize_field("viewer", &viewer)?;
        view.serialize_field("mode", &game.mode())?;
        view.serialize_field("discard_order", &game.discard_order())?;
        view.serialize_field("round_cap", &game.rules.round_cap)?;
        view.serialize_field("creators_suggestion", &game.rules.suggestion)?;
        view.serialize_field("round", &game.round)?;
        view.serialize_field("dealer", &game.dealer)?;
        view.serialize_field("phase", &game.phase(viewer))?;
        view.serialize_field(
            "waiting_for",
            &Listed(|| game.waiting_seen_by(viewer).iter()),
        )?;
        view.serialize_field("peoples_pack", &(game.peoples_pack.len() as u8))?;
        view.serialize_field("power_pile", &(game.power_pile.len() as u8))?;
        view.serialize_field("vetoes", &game.vetoes)?;
        view.serialize_field("visible_discards", &Listed(|| game.visible_discards()))?;
        view.serialize_field(
            "players",
            &Listed(|| (0..game.seats).map(|seat| PlayerJson { game, viewer, seat })),
        )?;
        view.serialize_field("my_commit", &game.commit_seen_by(viewer))?;
        view.serialize_field("drawn", &Listed(|| game.drawn_seen_by(viewer)))?;
        view.serialize_field("veto", &game.veto.map(|v| game.veto_seen_by(viewer, v)))?;
        view.serialize_field(
            "last_round",
            &game.last_round.as_ref().map(|round| RoundJson {
                game,
                viewer,
                round,
            }),
        )?;
        view.serialize_field("scandal", &game.scandal)?;
        view.serialize_field("election", &game.election)?;
        view.serialize_field("team_chat_open", &game.team_chat_open_for(viewer))?;
        view.serialize_field("revealed", &game.revealed_to(viewer))?;
        view.end()
    }
}

/// One `PlayerView`.
struct PlayerJson<'a> {
    game: &'a Demos,
    viewer: Viewer,
    seat: Seat,
}

impl Serialize for PlayerJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (game, viewer, seat) = (self.game, self.viewer, self.seat);
        let player = &game.players[seat as usize];
        let mut view = serializer.serialize_struct("PlayerView", 7)?;
        view.serialize_field("team", &game.team_of(seat))?;
        view.serialize_field("points", &player.points)?;
        view.serialize_field("round_points", &player.round_points)?;
        view.serialize_field("hand", &game.hand_seen_by(viewer, seat))?;
        view.serialize_field("turns", &Listed(|| game.turns_seen_by(viewer, seat)))?;
        view.serialize_field("figures", &Listed(|| game.figures_seen_by(viewer, seat)))?;
        view.serialize_field("declaration", &player.declaration)?;
        view.end()
    }
}

/// The last round's `RoundSummary` as `viewer` sees it: the veto's proposer and the missed
/// takes filtered as `build_view` filters them, without cloning the summary.
struct RoundJson<'a> {
    game: &'a Demos,
    viewer: Viewer,
    round: &'a RoundSummary,
}

impl Serialize for RoundJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (game, viewer, round) = (self.game, self.viewer, self.round);
        let mut summary = serializer.serialize_struct("RoundSummary", 9)?;
        summary.serialize_field("round", &round.round)?;
        summary.serialize_field("dealer", &round.dealer)?;
        summary.serialize_field("combinations", &round.combinations)?;
        summary.serialize_field("winners", &round.winners)?;
        summary.serialize_field("decided_by", &round.decided_by)?;
        summary.serialize_field("veto", &round.veto.map(|v| game.veto_seen_by(viewer, v)))?;
        summary.serialize_field("draws", &round.draws)?;
        summary.serialize_field("square_reveals", &round.square_reveals)?;
        summary.serialize_field(
            "missed",
            &Listed(|| round.missed.iter().filter(|m| game.sees_missed(viewer, m))),
        )?;
        summary.end()
    }
}

/// A JSON array of what the closure's iterator yields, made when it is written.
struct Listed<F>(F);

impl<F, I> Serialize for Listed<F>
where
    F: Fn() -> I,
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DemosConfig;
    use crate::config::Mode;
    use crate::view::DemosView;
    use pandemonium_game::playout::positions;
    use pandemonium_game::{Game, SeededChance};

    /// The conformance harness checks this for every game through `Game::write_view`; here it
    /// runs over every mode, where a field only some modes fill (teams, vetoes, allocation,
    /// scandal) would show a difference.
    #[test]
    fn the_written_view_is_the_built_view_serialised_in_every_mode() {
        let modes = [
            (Mode::Simplified, 4),
            (Mode::Complete, 4),
            (Mode::Team2v2, 4),
            (Mode::Team2v3, 5),
            (Mode::Team2v2Plus1, 5),
        ];
        for (mode, seats) in modes {
            let config = DemosConfig {
                mode,
                ..DemosConfig::default()
            };
            for seed in 0..3 {
                let mut played = positions::<Demos>(&config, seats, seed);
                // And the position after the last move: the match over, everything shown.
                let (last, seat, action) = played.last().cloned().expect("a move");
                let mut over = last;
                over.apply(seat, &action, &mut SeededChance::from_u64(seed))
                    .expect("a legal action");
                played.push((over, seat, action));
                for (game, _, _) in played {
                    let viewers = (0..seats)
                        .map(Viewer::Seat)
                        .chain([Viewer::Spectator, Viewer::Omniscient])
                        .chain((0..3).map(Viewer::Team));
                    for viewer in viewers {
                        let built: DemosView = game.build_view(viewer);
                        let written = serde_json::to_string(&ViewJson {
                            game: &game,
                            viewer,
                        })
                        .unwrap();
                        assert_eq!(
                            written,
                            serde_json::to_string(&built).unwrap(),
                            "{mode:?}, {viewer:?}"
                        );
                    }
                }
            }
        }
    }
}
