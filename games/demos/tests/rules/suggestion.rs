//! The Creator's Suggestion (proposal 19): a favourite suit worth +10 on a one-suit sequence,
//! and a declared trio that takes primacy in an Election tie.

use pandemonium_demos::harmony::{Candidate, Held, best_trio, elect};
use pandemonium_demos::scoring::best_combination;
use pandemonium_demos::{
    Declaration, DemosAction, DemosConfig, ElectionDecidedBy, Mode, Phase, Suit,
};
use pandemonium_game_contract::{Game, Viewer};

use super::support::*;

fn suggestion(mode: Mode) -> DemosConfig {
    DemosConfig {
        creators_suggestion: true,
        ..config(mode)
    }
}

const SPADES: Declaration = Declaration {
    favourite: Suit::Spades,
    trio: [Suit::Spades, Suit::Hearts, Suit::Diamonds],
};

#[test]
fn without_the_option_nobody_declares() {
    let (game, _) = rigged(Mode::Complete, 0, &[&FORFEIT[..3]], "ES");
    assert_eq!(phase(&game), Phase::PublicDiscard);
}

#[test]
fn declarations_are_committed_privately_and_announced_together_before_the_first_deal() {
    let (mut game, _) = rigged_with(
        suggestion(Mode::Complete),
        0,
        &[&FORFEIT[..3]],
        "ES",
        |_| {},
    );
    assert_eq!(phase(&game), Phase::Declaration);
    assert_eq!(game.legal_actions(0).len(), 4 * 64);
    assert_eq!(
        game.default_action(0),
        Some(DemosAction::Declare {
            declaration: SPADES
        })
    );
    apply(
        &mut game,
        0,
        DemosAction::Declare {
            declaration: SPADES,
        },
    );
    assert_eq!(
        game.view(Viewer::Seat(0)).my_commit,
        Some(DemosAction::Declare {
            declaration: SPADES
        })
    );
    let other = game.view(Viewer::Seat(1));
    assert_eq!(other.my_commit, None);
    assert_eq!(other.players[0].declaration, None);
    let hearts = Declaration {
        favourite: Suit::Hearts,
        ..SPADES
    };
    apply(
        &mut game,
        1,
        DemosAction::Declare {
            declaration: hearts,
        },
    );
    apply(
        &mut game,
        2,
        DemosAction::Declare {
            declaration: SPADES,
        },
    );
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.phase, Phase::PublicDiscard);
    assert_eq!(view.players[1].declaration, Some(hearts));
    assert_eq!(view.round, 1);
}

#[test]
fn a_one_suit_sequence_in_the_favourite_suit_scores_ten_more() {
    assert_eq!(
        best_combination(&cards("7S 8S 9S"), true, Some(Suit::Spades))
            .unwrap()
            .combination
            .points,
        29
    );
    assert_eq!(
        best_combination(&cards("7S 8S 9S"), true, Some(Suit::Hearts))
            .unwrap()
            .combination
            .points,
        19
    );
    assert_eq!(
        best_combination(&cards("7S 8S 9H"), true, Some(Suit::Spades))
            .unwrap()
            .combination
            .points,
        15
    );
    let (mut game, plans) = rigged_with(
        suggestion(Mode::Complete),
        2,
        &[&["7S 8S 9S 2H 4D", "4H 5S 6H 1C 10C", "1D 3C 5D 10H 10S"]],
        "ES LH",
        |_| {},
    );
    for seat in 0..3 {
        apply(
            &mut game,
            seat,
            DemosAction::Declare {
                declaration: SPADES,
            },
        );
    }
    play_round(&mut game, &plans[0]);
    assert_eq!(
        game.view(Viewer::Spectator).players[0].round_points,
        vec![29]
    );
}

#[test]
fn the_trio_presented_as_declared_takes_primacy_in_an_election_tie() {
    let candidate = |seat: u8, points: u16, figures: &str| {
        let held: Vec<Held> = pandemonium_demos::Figure::list(figures)
            .into_iter()
            .map(Held::face_down)
            .collect();
        Candidate {
            seat,
            side: seat,
            points,
            trio: best_trio(&held, Some(SPADES.trio)),
            independent: false,
            media_kept: 0,
            holds_judicial: true,
        }
    };
    let declared = candidate(0, 10, "ES LH JD");
    assert!(declared.trio.as_ref().unwrap().as_declared);
    let election = elect(
        Mode::Complete,
        &[declared.clone(), candidate(1, 50, "EC LD JH")],
        true,
    );
    assert_eq!(election.winners, vec![0]);
    assert_eq!(election.decided_by, ElectionDecidedBy::Declaration);
    let election = elect(
        Mode::Complete,
        &[declared, candidate(1, 50, "EC LD JH")],
        false,
    );
    assert_eq!(
        election.winners,
        vec![1],
        "without the option, points decide"
    );
}
