//! A view's JSON written straight from the state: what the server sends in every frame.
//!
//! Building a [`DemosView`](crate::view::DemosView) to serialise it copies every player's hand, points, turns and
//! figures into vectors of their own: allocations for every list of every seat's frame, on
//! every move. Here the same fields, in the same order, are read in place, each from the method
//! that `build_view` uses. The conformance harness holds the text to exactly that of the
//! built view serialised, at every position of its matches, for every viewer.
//!
//! Why by hand rather than a serde derive: a derived writer that borrows from the state the
//! same way (no view built, no allocations) was measured against this one with criterion
//! (`move_plus_four_views`, each built in turn and run interleaved). Its keys and enum tags go
//! through serde's string escaper one by one (`json.rs`), and it cost well over the 2 µs a
//! move that the project holds a hand-written serialiser to.

use pandemonium_game_contract::{Seat, Viewer};
use serde::ser::{Serialize, Serializer};

use crate::json::{Kind, Members, Plain};
use crate::state::{Demos, RoundSummary};
use crate::view::{DiscardView, FigureView, TurnView};

/// [`DemosView`](crate::view::DemosView)'s JSON for `viewer`.
pub(crate) struct ViewJson<'a> {
    pub game: &'a Demos,
    pub viewer: Viewer,
}

impl ViewJson<'_> {
    /// Writes the view at the end of `out`.
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        let (game, viewer) = (self.game, self.viewer);
        let mut view = Members::open(out);
        view.field("viewer", &viewer);
        view.field("mode", &game.mode());
        view.field("discard_order", &game.discard_order());
        view.field("round_cap", &game.rules.round_cap);
        view.field("creators_suggestion", &game.rules.suggestion);
        view.field("round", &game.round);
        view.field("dealer", &game.dealer);
        view.field("phase", &game.phase(viewer));
        view.list("waiting_for", game.waiting_seen_by(viewer).iter());
        view.field("peoples_pack", &(game.peoples_pack.len() as u8));
        view.field("power_pile", &(game.power_pile.len() as u8));
        view.field("vetoes", &game.vetoes);
        view.list("visible_discards", game.visible_discards());
        let players = view.key("players");
        players.push(b'[');
        for seat in 0..game.seats {
            if seat > 0 {
                players.push(b',');
            }
            PlayerJson { game, viewer, seat }.write(players);
        }
        players.push(b']');
        view.field("my_commit", &game.commit_seen_by(viewer));
        view.list("drawn", game.drawn_seen_by(viewer));
        view.field("veto", &game.veto.map(|v| game.veto_seen_by(viewer, v)));
        let last_round = view.key("last_round");
        match &game.last_round {
            Some(round) => RoundJson {
                game,
                viewer,
                round,
            }
            .write(last_round),
            None => last_round.extend_from_slice(b"null"),
        }
        view.field("scandal", &game.scandal);
        view.field("election", &game.election);
        view.field("team_chat_open", &game.team_chat_open_for(viewer));
        view.field("revealed", &game.revealed_to(viewer));
        view.close();
    }
}

/// One `PlayerView`.
struct PlayerJson<'a> {
    game: &'a Demos,
    viewer: Viewer,
    seat: Seat,
}

impl PlayerJson<'_> {
    fn write(&self, out: &mut Vec<u8>) {
        let (game, viewer, seat) = (self.game, self.viewer, self.seat);
        let player = &game.players[seat as usize];
        let mut view = Members::open(out);
        view.field("team", &game.team_of(seat));
        view.field("points", &player.points);
        view.plain("round_points", &player.round_points[..]);
        view.plain("hand", game.hand_seen_by(viewer, seat));
        view.list("turns", game.turns_seen_by(viewer, seat));
        view.list("figures", game.figures_seen_by(viewer, seat));
        view.field("declaration", &player.declaration);
        view.close();
    }
}

/// The last round's `RoundSummary` as `viewer` sees it: the veto's proposer and the missed
/// takes filtered as `build_view` filters them, without cloning the summary.
struct RoundJson<'a> {
    game: &'a Demos,
    viewer: Viewer,
    round: &'a RoundSummary,
}

impl RoundJson<'_> {
    fn write(&self, out: &mut Vec<u8>) {
        let (game, viewer, round) = (self.game, self.viewer, self.round);
        let mut summary = Members::open(out);
        summary.field("round", &round.round);
        summary.field("dealer", &round.dealer);
        summary.field("combinations", &round.combinations);
        summary.field("winners", &round.winners);
        summary.field("decided_by", &round.decided_by);
        summary.field("veto", &round.veto.map(|v| game.veto_seen_by(viewer, v)));
        summary.field("draws", &round.draws);
        summary.field("square_reveals", &round.square_reveals);
        summary.field(
            "missed",
            &Listed(|| round.missed.iter().filter(|m| game.sees_missed(viewer, m))),
        );
        summary.close();
    }
}

impl Plain for DiscardView {
    fn write(&self, out: &mut Vec<u8>) {
        let mut discard = Members::open(out);
        match self {
            DiscardView::Kept => discard.plain("kind", Kind("kept")),
            DiscardView::FaceUp { card } => {
                discard.plain("kind", Kind("face_up"));
                discard.plain("card", card);
            }
            DiscardView::FaceDown { card } => {
                discard.plain("kind", Kind("face_down"));
                discard.plain("card", card);
            }
        }
        discard.close();
    }
}

impl Plain for TurnView {
    fn write(&self, out: &mut Vec<u8>) {
        let mut turn = Members::open(out);
        turn.plain("turn", self.turn);
        turn.plain("discard", self.discard);
        turn.plain("took", self.took);
        turn.plain("wanted", self.wanted);
        turn.plain("taken_by", self.taken_by);
        turn.close();
    }
}

impl Plain for FigureView {
    fn write(&self, out: &mut Vec<u8>) {
        let mut figure = Members::open(out);
        figure.plain("figure", self.figure);
        figure.plain("face_up", self.face_up);
        figure.plain("media", self.media);
        figure.close();
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
    use crate::actions::Take;
    use crate::cards::{Card, Figure, Suit};
    use crate::config::Mode;
    use crate::json::tests::same;
    use crate::state::Turn;
    use crate::view::DemosView;
    use pandemonium_game_contract::playout::positions;
    use pandemonium_game_contract::{Game, SeededChance};

    /// Every kind of turn, discard and figure of a view, written by hand, reads as serde
    /// writes it (the cards and names in them: `json.rs`).
    #[test]
    fn the_turns_and_figures_of_a_view_are_written_as_serde_writes_them() {
        let cards: Vec<Card> = Card::all().collect();
        let figures: Vec<Figure> = Figure::pile(true).into_iter().collect();
        let discards = [
            DiscardView::Kept,
            DiscardView::FaceUp { card: cards[3] },
            DiscardView::FaceDown { card: None },
            DiscardView::FaceDown {
                card: Some(cards[9]),
            },
        ];
        for turn in [Turn::Public, Turn::Secret, Turn::Unanimous] {
            for discard in discards {
                for took in [None, Some(Take::Pack), Some(Take::Discard(cards[5]))] {
                    same(TurnView {
                        turn,
                        discard,
                        took,
                        wanted: took.and(Some(cards[1])),
                        taken_by: took.map(|_| 2),
                    });
                }
            }
        }
        for figure in [None, Some(figures[0]), Some(Figure::MEDIA)] {
            for media in [None, Some(Suit::Clubs)] {
                same(FigureView {
                    figure,
                    face_up: media.is_some(),
                    media,
                });
            }
        }
    }

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
                        let mut written = Vec::new();
                        ViewJson {
                            game: &game,
                            viewer,
                        }
                        .write(&mut written);
                        assert_eq!(
                            String::from_utf8(written).unwrap(),
                            serde_json::to_string(&built).unwrap(),
                            "{mode:?}, {viewer:?}"
                        );
                    }
                }
            }
        }
    }
}
