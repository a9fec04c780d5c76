//! Team modes: the consultation windows, the team's round win, figure allocation and the
//! Square's reveal of adverse players only.

use pandemonium_demos::{AllocationTargets, DemosAction, Draw, Mode, Phase};
use pandemonium_game_contract::{Game, Viewer};

use super::support::*;

#[test]
fn teams_are_reported_per_seat_with_the_independent_as_a_team_of_its_own() {
    let (game, _) = rigged(Mode::Team2v2Plus1, 4, &[&FORFEIT], "ES");
    assert_eq!(game.teams(), Some(vec![0, 1, 0, 1, 2]));
    let (game, _) = rigged(Mode::Complete, 2, &[&FORFEIT[..3]], "ES");
    assert_eq!(game.teams(), None);
}

#[test]
fn a_team_round_opens_with_a_consultation_before_the_deal() {
    let (mut game, _) = rigged(Mode::Team2v2Plus1, 4, &[&FORFEIT], "ES");
    let view = game.view(Viewer::Seat(0));
    assert_eq!(view.phase, Phase::Consultation);
    assert_eq!(
        view.players[0].hand,
        Some(vec![]),
        "the cards are not dealt yet"
    );
    assert_eq!(game.rule_deadline().map(|clock| clock.seconds), Some(15));
    assert!(game.team_chat_open(0) && game.team_chat_open(1));
    assert!(
        !game.team_chat_open(2),
        "the Independent has nobody to consult"
    );
    assert_eq!(game.to_act().len(), 5);
    assert_eq!(game.default_action(3), Some(DemosAction::Proceed));
    for seat in 0..4 {
        apply(&mut game, seat, DemosAction::Proceed);
        assert_eq!(phase(&game), Phase::Consultation);
    }
    apply(&mut game, 4, DemosAction::Proceed);
    assert_eq!(phase(&game), Phase::PublicDiscard);
    assert_eq!(hand(&game, 0).len(), 5);
    assert_eq!(game.rule_deadline(), None);
    assert!(
        !game.team_chat_open(0),
        "the window closes with the discards"
    );
}

#[test]
fn the_team_of_the_best_scorer_wins_the_round_and_its_members_see_the_figure_drawn() {
    let (mut game, plans) = rigged(
        Mode::Team2v2,
        3,
        &[&[FORFEIT[0], "6D 7D 8D 2H 4S", FORFEIT[1], "4H 5S 6H 10C 2C"]],
        "LH ES",
    );
    play_discards(&mut game, &plans[0]);
    assert_eq!(
        phase(&game),
        Phase::Allocation {
            sides: vec![1],
            figures: vec![1]
        }
    );
    assert_eq!(game.to_act().iter().collect::<Vec<_>>(), vec![1, 3]);
    assert_eq!(game.rule_deadline().map(|clock| clock.seconds), Some(15));
    assert!(game.team_chat_open(1) && !game.team_chat_open(0));
    let drawn = figures("LH");
    assert_eq!(game.view(Viewer::Seat(3)).drawn, drawn);
    assert_eq!(game.view(Viewer::Team(1)).drawn, drawn);
    assert!(game.view(Viewer::Seat(0)).drawn.is_empty());
    assert!(game.view(Viewer::Spectator).drawn.is_empty());
}

#[test]
fn by_default_the_figures_go_to_the_rounds_winning_player() {
    let (mut game, plans) = rigged(
        Mode::Team2v2,
        3,
        &[&[FORFEIT[0], "6D 7D 8D 2H 4S", FORFEIT[1], "4H 5S 6H 10C 2C"]],
        "LH ES",
    );
    play_discards(&mut game, &plans[0]);
    let default = DemosAction::Allocate {
        to: AllocationTargets::new(&[1]),
    };
    assert_eq!(game.default_action(3), Some(default));
    assert_eq!(game.default_action(1), Some(default));
    apply(&mut game, 3, default);
    assert_eq!(omniscient(&game).players[1].figures.len(), 1);
}

#[test]
fn the_team_gives_its_figure_face_down_to_the_member_it_chooses_and_teammates_see_it() {
    let (mut game, plans) = rigged(
        Mode::Team2v2,
        3,
        &[&[FORFEIT[0], "6D 7D 8D 2H 4S", FORFEIT[1], "4H 5S 6H 10C 2C"]],
        "LH ES",
    );
    play_discards(&mut game, &plans[0]);
    let bad = DemosAction::Allocate {
        to: AllocationTargets::new(&[0]),
    };
    assert!(
        !game.legal_actions(1).contains(&bad),
        "only to a member of the team"
    );
    apply(
        &mut game,
        1,
        DemosAction::Allocate {
            to: AllocationTargets::new(&[3]),
        },
    );
    let lh = Some(figures("LH")[0]);
    for viewer in [Viewer::Seat(3), Viewer::Seat(1), Viewer::Team(1)] {
        assert_eq!(
            game.view(viewer).players[3].figures[0].figure,
            lh,
            "{viewer:?}"
        );
    }
    for viewer in [
        Viewer::Seat(0),
        Viewer::Seat(2),
        Viewer::Team(0),
        Viewer::Spectator,
    ] {
        let view = game.view(viewer);
        assert_eq!(view.players[3].figures.len(), 1, "the count is public");
        assert_eq!(view.players[3].figures[0].figure, None, "{viewer:?}");
    }
}

#[test]
fn tied_players_of_one_team_give_their_team_a_single_draw() {
    let (mut game, plans) = rigged(
        Mode::Team2v2,
        3,
        &[&[
            "7S 8S 9S 2H 4D",
            "1C 3S 5H 10D 10C",
            "7H 8H 9H 2D 4S",
            "1D 3C 5D 10H 10S",
        ]],
        "LH ES JD",
    );
    play_discards(&mut game, &plans[0]);
    let round = omniscient(&game).last_round.unwrap();
    assert_eq!(round.winners, vec![0, 2]);
    assert_eq!(round.draws, vec![Draw { side: 0, count: 1 }]);
}

#[test]
fn tied_players_of_different_teams_each_draw_for_their_team() {
    let (mut game, plans) = rigged(
        Mode::Team2v2,
        3,
        &[&[
            "7S 8S 9S 2H 4D",
            "7H 8H 9H 2D 4S",
            "1C 3S 5H 10D 10S",
            "1D 3C 5D 10H 10C",
        ]],
        "LH ES JD",
    );
    play_discards(&mut game, &plans[0]);
    assert_eq!(
        phase(&game),
        Phase::Allocation {
            sides: vec![0, 1],
            figures: vec![1, 1]
        }
    );
    assert_eq!(game.to_act().len(), 4);
    assert_eq!(game.view(Viewer::Seat(0)).drawn, figures("LH"));
    assert_eq!(game.view(Viewer::Seat(1)).drawn, figures("ES"));
    allocate_defaults(&mut game);
    let view = omniscient(&game);
    assert_eq!(
        (view.players[0].figures.len(), view.players[1].figures.len()),
        (1, 1)
    );
}

#[test]
fn a_team_square_draws_two_figures_and_reveals_only_adverse_players_first_figures() {
    let (mut game, plans) = rigged_with(
        config(Mode::Team2v2),
        3,
        &[&[
            "7S 7H 7D 7C 2H",
            "1S 3H 5D 9C 9S",
            "1H 3D 5C 9H 10D",
            "1D 3C 5S 10S 10H",
        ]],
        "EH LD JC",
        |r| r.figures = vec![vec![], figures("LH"), figures("ES"), figures("M JD")],
    );
    play_discards(&mut game, &plans[0]);
    assert_eq!(
        phase(&game),
        Phase::Allocation {
            sides: vec![0],
            figures: vec![2]
        }
    );
    let view = game.view(Viewer::Spectator);
    assert!(view.players[1].figures[0].face_up);
    assert!(view.players[3].figures[1].face_up && !view.players[3].figures[0].face_up);
    assert!(
        !view.players[2].figures[0].face_up,
        "the winner's teammate keeps theirs hidden"
    );
    apply(
        &mut game,
        2,
        DemosAction::Allocate {
            to: AllocationTargets::new(&[2, 0]),
        },
    );
    let view = omniscient(&game);
    assert_eq!(view.players[2].figures.len(), 2);
    assert_eq!(view.players[0].figures.len(), 1);
}

#[test]
fn the_independent_draws_its_figure_directly() {
    let (mut game, plans) = rigged(
        Mode::Team2v2Plus1,
        3,
        &[&[
            FORFEIT[0],
            FORFEIT[1],
            FORFEIT[2],
            FORFEIT[4],
            "7D 8D 9C 2H 4H",
        ]],
        "LH ES",
    );
    play_discards(&mut game, &plans[0]);
    assert_eq!(
        phase(&game),
        Phase::Consultation,
        "no allocation: the next round begins"
    );
    assert_eq!(omniscient(&game).players[4].figures.len(), 1);
}
