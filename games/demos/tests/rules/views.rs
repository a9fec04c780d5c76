//! What each viewer sees: hands, commits, secret discards and face-down figures stay with
//! whoever may see them; public facts are public; the end of the match reveals everything.

use pandemonium_demos::{Demos, DemosAction, DiscardView, Mode, Take};
use pandemonium_game_contract::{Game, SeededChance, Viewer};

use super::support::*;

fn json(game: &Demos, viewer: Viewer) -> String {
    serde_json::to_string(&game.view(viewer)).unwrap()
}

fn two_v_two() -> (Demos, Plan) {
    let (mut game, mut plans) = rigged_with(
        config(Mode::Team2v2),
        3,
        &[&[FORFEIT[0], FORFEIT[1], FORFEIT[2], FORFEIT[3]]],
        "LH ES",
        |r| r.figures = vec![figures("EC"), figures("JD"), figures("LS"), vec![]],
    );
    consult(&mut game);
    (game, plans.remove(0))
}

#[test]
fn a_seat_sees_its_own_hand_and_no_other() {
    let (game, _) = two_v_two();
    let view = game.view(Viewer::Seat(1));
    assert_eq!(view.players[1].hand.as_ref().unwrap().len(), 5);
    for seat in [0, 2, 3] {
        assert_eq!(view.players[seat].hand, None, "not even a teammate's");
    }
}

#[test]
fn team_and_spectator_views_never_show_a_hand() {
    let (game, _) = two_v_two();
    for viewer in [Viewer::Team(0), Viewer::Team(1), Viewer::Spectator] {
        assert!(
            game.view(viewer).players.iter().all(|p| p.hand.is_none()),
            "{viewer:?}"
        );
    }
}

#[test]
fn a_commit_stays_private_even_from_teammates_until_it_is_applied() {
    let (mut game, plan) = two_v_two();
    let card = plan.junk[0][0];
    apply(&mut game, 0, DemosAction::PublicDiscard { card });
    assert_eq!(
        game.view(Viewer::Seat(0)).my_commit,
        Some(DemosAction::PublicDiscard { card })
    );
    for viewer in [Viewer::Seat(2), Viewer::Team(0), Viewer::Spectator] {
        assert_eq!(game.view(viewer).my_commit, None);
        assert!(
            !json(&game, viewer).contains(&format!("\"{card}\"")),
            "{viewer:?}"
        );
    }
}

#[test]
fn secret_discards_are_face_down_to_everyone_but_their_owner_until_the_reveal() {
    let (mut game, plan) = two_v_two();
    for seat in 0..4 {
        apply(
            &mut game,
            seat,
            DemosAction::PublicDiscard {
                card: plan.junk[seat as usize][0],
            },
        );
    }
    let secret = plan.junk[2][1];
    apply(
        &mut game,
        2,
        DemosAction::SecretDiscard {
            card: secret,
            take: Take::Discard(plan.junk[1][0]),
        },
    );
    for seat in [0, 1, 3] {
        apply(&mut game, seat, DemosAction::KeepHand);
    }
    assert_eq!(
        game.view(Viewer::Seat(2)).players[2].turns[1].discard,
        DiscardView::FaceDown { card: Some(secret) }
    );
    for viewer in [
        Viewer::Seat(0),
        Viewer::Seat(1),
        Viewer::Team(0),
        Viewer::Spectator,
    ] {
        let view = game.view(viewer);
        assert_eq!(
            view.players[2].turns[1].discard,
            DiscardView::FaceDown { card: None }
        );
        // Which public card was taken, and from whom, is public.
        assert_eq!(
            view.players[2].turns[1].took,
            Some(Take::Discard(plan.junk[1][0]))
        );
        assert_eq!(view.players[1].turns[0].taken_by, Some(2));
        assert_eq!(view.players[0].turns[0].took, Some(Take::Pack));
    }
    pass_poll(&mut game);
    assert_eq!(
        game.view(Viewer::Spectator).players[2].turns[1].discard,
        DiscardView::FaceUp { card: secret }
    );
}

#[test]
fn face_down_figures_are_seen_by_their_owner_and_teammates_only() {
    let (game, _) = two_v_two();
    let ec = Some(figures("EC")[0]);
    for viewer in [Viewer::Seat(0), Viewer::Seat(2), Viewer::Team(0)] {
        assert_eq!(
            game.view(viewer).players[0].figures[0].figure,
            ec,
            "{viewer:?}"
        );
    }
    for viewer in [
        Viewer::Seat(1),
        Viewer::Seat(3),
        Viewer::Team(1),
        Viewer::Spectator,
    ] {
        let view = game.view(viewer);
        assert_eq!(view.players[0].figures.len(), 1, "counts are public");
        assert_eq!(view.players[0].figures[0].figure, None, "{viewer:?}");
    }
}

#[test]
fn in_individual_games_face_down_figures_are_their_owners_alone() {
    let (game, _) = rigged_with(config(Mode::Complete), 0, &[&FORFEIT[..3]], "ES", |r| {
        r.figures = vec![figures("EC LD"), vec![], vec![]]
    });
    assert_eq!(
        game.view(Viewer::Seat(0)).players[0].figures[1].figure,
        Some(figures("LD")[0])
    );
    assert_eq!(
        game.view(Viewer::Seat(1)).players[0].figures[1].figure,
        None
    );
    assert_eq!(
        game.view(Viewer::Team(0)).players[0].figures[1].figure,
        None,
        "no teams here"
    );
}

#[test]
fn the_spectator_sees_public_information_only() {
    let (game, _) = two_v_two();
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.peoples_pack, 20);
    assert_eq!(view.power_pile, 2);
    assert_eq!(view.vetoes, vec![1, 1]);
    assert!(view.revealed.is_none());
    assert!(
        view.players
            .iter()
            .flat_map(|p| &p.figures)
            .all(|f| f.figure.is_none())
    );
    assert!(!view.team_chat_open);
}

#[test]
fn the_team_view_shows_whether_the_teams_chat_window_is_open() {
    let (mut game, _) = rigged(Mode::Team2v2, 3, &[&FORFEIT[..4]], "ES");
    assert!(game.view(Viewer::Team(1)).team_chat_open);
    assert!(game.view(Viewer::Seat(1)).team_chat_open);
    consult(&mut game);
    assert!(!game.view(Viewer::Team(1)).team_chat_open);
}

#[test]
fn once_the_match_is_over_every_view_reveals_everything() {
    let mut game = Demos::new(&config(Mode::Team2v2), 4, &mut SeededChance::from_u64(5)).unwrap();
    let mut chance = SeededChance::from_u64(6);
    while game.outcome().is_none() {
        let seat = game.to_act().iter().next().unwrap();
        let action = game.default_action(seat).unwrap();
        game.apply(seat, &action, &mut chance).unwrap();
    }
    let omniscient = json(&game, Viewer::Omniscient);
    for viewer in [Viewer::Spectator, Viewer::Seat(1), Viewer::Team(0)] {
        let view = game.view(viewer);
        assert!(view.players.iter().all(|p| p.hand.is_some()));
        assert!(
            view.players
                .iter()
                .flat_map(|p| &p.figures)
                .all(|f| f.figure.is_some())
        );
        assert!(view.revealed.is_some());
        assert!(view.election.is_some());
    }
    assert!(omniscient.contains("\"election\""));
}

#[test]
fn the_omniscient_view_sees_every_hand_and_the_order_of_both_piles_during_play() {
    let (game, _) = two_v_two();
    let view = game.view(Viewer::Omniscient);
    assert!(
        view.players
            .iter()
            .all(|p| p.hand.as_ref().is_some_and(|h| h.len() == 5))
    );
    let revealed = view.revealed.unwrap();
    assert_eq!(
        (revealed.peoples_pack.len(), revealed.power_pile),
        (20, figures("LH ES"))
    );
}
