//! The veto poll before the Unanimous Discard (proposal 4).

use pandemonium_demos::{Demos, DemosAction, DiscardView, Mode, Phase, VetoUsed};
use pandemonium_game_contract::{Game, SeatSet, Viewer};

use super::support::*;

/// A rigged round of `mode` played up to its veto poll (everyone keeps their hand in the
/// Secret Discard, except seat 0 who discards).
fn at_the_poll(mode: Mode, vetoes: Option<Vec<u8>>) -> (Demos, Plan) {
    let seats = match mode {
        Mode::Team2v2 => 4,
        Mode::Team2v3 | Mode::Team2v2Plus1 => 5,
        _ => 4,
    };
    let finals: Vec<&str> = FORFEIT[..seats].to_vec();
    let (mut game, mut plans) = rigged_with(
        config(mode),
        seats as u8 - 1,
        &[&finals],
        "ES LH JD EC",
        |r| r.vetoes = vetoes,
    );
    let plan = plans.remove(0);
    consult(&mut game);
    for seat in 0..seats as u8 {
        apply(
            &mut game,
            seat,
            DemosAction::PublicDiscard {
                card: plan.junk[seat as usize][0],
            },
        );
    }
    apply(
        &mut game,
        0,
        DemosAction::SecretDiscard {
            card: plan.junk[0][1],
            take: pandemonium_demos::Take::Pack,
        },
    );
    for seat in 1..seats as u8 {
        apply(&mut game, seat, DemosAction::KeepHand);
    }
    (game, plan)
}

fn to_act(game: &Demos) -> Vec<u8> {
    game.to_act().iter().collect()
}

#[test]
fn the_poll_asks_each_player_in_turn_clockwise_from_the_dealers_left() {
    let (mut game, _) = at_the_poll(Mode::Complete, None);
    // Dealer 3: seat 0 first.
    for seat in 0..4 {
        assert_eq!(to_act(&game), vec![seat]);
        assert_eq!(
            game.legal_actions(seat),
            vec![DemosAction::Pass, DemosAction::Veto]
        );
        apply(&mut game, seat, DemosAction::Pass);
    }
    assert_eq!(
        phase(&game),
        Phase::UnanimousDiscard,
        "nobody vetoed: unanimous agreement"
    );
}

#[test]
fn the_first_veto_cancels_the_unanimous_discard_and_only_it_is_spent() {
    let (mut game, _) = at_the_poll(Mode::Complete, None);
    apply(&mut game, 0, DemosAction::Pass);
    apply(&mut game, 1, DemosAction::Veto);
    let view = game.view(Viewer::Spectator);
    assert_eq!(
        view.vetoes,
        vec![1, 0, 1, 1],
        "seats 2 and 3 were never asked"
    );
    assert_eq!(
        view.last_round.unwrap().veto,
        Some(VetoUsed {
            side: 1,
            by: Some(1)
        })
    );
    assert_eq!(view.round, 2);
}

#[test]
fn the_default_answer_in_the_poll_is_no_veto_and_an_individual_poll_has_no_deadline() {
    let (game, _) = at_the_poll(Mode::Complete, None);
    assert_eq!(game.default_action(0), Some(DemosAction::Pass));
    assert_eq!(game.rule_deadline(), None);
}

#[test]
fn players_without_a_veto_are_skipped() {
    let (game, _) = at_the_poll(Mode::Complete, Some(vec![0, 0, 1, 0]));
    assert_eq!(to_act(&game), vec![2]);
}

#[test]
fn with_no_veto_left_anywhere_the_unanimous_discard_follows_without_a_poll() {
    let (game, plan) = at_the_poll(Mode::Complete, Some(vec![0, 0, 0, 0]));
    let view = game.view(Viewer::Seat(2));
    assert_eq!(view.phase, Phase::UnanimousDiscard);
    assert_eq!(
        view.players[0].turns[1].discard,
        DiscardView::FaceUp {
            card: plan.junk[0][1]
        }
    );
}

#[test]
fn remaining_vetoes_are_public() {
    let (game, _) = at_the_poll(Mode::Complete, Some(vec![1, 0, 1, 0]));
    assert_eq!(game.view(Viewer::Spectator).vetoes, vec![1, 0, 1, 0]);
}

#[test]
fn each_team_of_two_versus_two_has_one_veto_and_the_independent_its_own() {
    let (game, _) = at_the_poll(Mode::Team2v2, None);
    assert_eq!(game.view(Viewer::Spectator).vetoes, vec![1, 1]);
    let (game, _) = at_the_poll(Mode::Team2v2Plus1, None);
    assert_eq!(game.view(Viewer::Spectator).vetoes, vec![1, 1, 1]);
}

#[test]
fn a_team_is_polled_once_with_a_fifteen_second_window_for_its_members() {
    let (game, _) = at_the_poll(Mode::Team2v2, None);
    // Dealer 3: seat 0 (team 0) comes up first; any member may propose.
    assert_eq!(to_act(&game), vec![0, 2]);
    assert_eq!(game.rule_deadline().map(|clock| clock.seconds), Some(15));
    assert!(game.team_chat_open(0));
    assert!(!game.team_chat_open(1));
    assert!(game.view(Viewer::Seat(2)).team_chat_open);
    assert!(!game.view(Viewer::Seat(1)).team_chat_open);
    assert_eq!(game.default_action(2), Some(DemosAction::Pass));
}

#[test]
fn a_team_passes_only_when_every_member_has_passed() {
    let (mut game, _) = at_the_poll(Mode::Team2v2, None);
    apply(&mut game, 0, DemosAction::Pass);
    assert_eq!(to_act(&game), vec![2]);
    apply(&mut game, 2, DemosAction::Pass);
    assert_eq!(to_act(&game), vec![1, 3], "then team 1");
}

#[test]
fn a_veto_proposal_waits_for_every_teammate_and_defaults_to_a_decline() {
    let (mut game, _) = at_the_poll(Mode::Team2v2, None);
    apply(&mut game, 0, DemosAction::Pass);
    apply(&mut game, 2, DemosAction::Veto);
    assert_eq!(
        to_act(&game),
        vec![0],
        "the teammate who passed must still confirm"
    );
    assert_eq!(
        game.view(Viewer::Team(0)).phase,
        Phase::VetoPoll {
            seat: 0,
            side: 0,
            proposer: Some(2)
        }
    );
    assert_eq!(game.rule_deadline().map(|clock| clock.seconds), Some(15));
    assert_eq!(game.default_action(0), Some(DemosAction::DeclineVeto));
    assert_eq!(
        game.legal_actions(0),
        vec![DemosAction::DeclineVeto, DemosAction::ConfirmVeto]
    );
    apply(&mut game, 0, DemosAction::DeclineVeto);
    assert_eq!(
        game.view(Viewer::Spectator).vetoes,
        vec![1, 1],
        "a declined veto is not spent"
    );
    assert_eq!(to_act(&game), vec![1, 3]);
    apply(&mut game, 3, DemosAction::Veto);
    apply(&mut game, 1, DemosAction::ConfirmVeto);
    let view = game.view(Viewer::Team(1));
    assert_eq!(view.vetoes, vec![1, 0]);
    assert_eq!(
        view.last_round.unwrap().veto,
        Some(VetoUsed {
            side: 1,
            by: Some(3)
        })
    );
}

/// Seats waiting in the current step, as `viewer` sees them.
fn waiting_seen_by(game: &Demos, viewer: Viewer) -> Vec<u8> {
    game.view(viewer).waiting_for
}

#[test]
fn a_team_consultation_on_a_veto_is_seen_by_the_team_only() {
    let (mut game, _) = at_the_poll(Mode::Team2v2, None);
    // Seat 0 passes: its team (0 and 2) still decides. Outside the team nobody learns who
    // passed, only that the team is deciding.
    apply(&mut game, 0, DemosAction::Pass);
    assert_eq!(waiting_seen_by(&game, Viewer::Seat(2)), vec![2]);
    for outsider in [
        Viewer::Seat(1),
        Viewer::Seat(3),
        Viewer::Team(1),
        Viewer::Spectator,
    ] {
        assert_eq!(waiting_seen_by(&game, outsider), vec![0, 2], "{outsider:?}");
    }
    // Seat 2 proposes the team's veto: its teammate sees who proposed and must confirm.
    apply(&mut game, 2, DemosAction::Veto);
    for insider in [Viewer::Seat(0), Viewer::Seat(2), Viewer::Team(0)] {
        let view = game.view(insider);
        assert_eq!(
            view.phase,
            Phase::VetoPoll {
                seat: 0,
                side: 0,
                proposer: Some(2)
            },
            "{insider:?}"
        );
        assert_eq!(view.waiting_for, vec![0], "{insider:?}");
    }
    // The other team and the spectators see only that team 0 is deciding, as before the
    // proposal: no proposer, no confirmations.
    for outsider in [
        Viewer::Seat(1),
        Viewer::Seat(3),
        Viewer::Team(1),
        Viewer::Spectator,
    ] {
        let view = game.view(outsider);
        assert_eq!(
            view.phase,
            Phase::VetoPoll {
                seat: 0,
                side: 0,
                proposer: None
            },
            "{outsider:?}"
        );
        assert_eq!(view.waiting_for, vec![0, 2], "{outsider:?}");
    }
}

#[test]
fn who_is_still_to_act_on_a_team_veto_is_seen_by_the_team_only() {
    let (mut game, _) = at_the_poll(Mode::Team2v2, None);
    // Seat 2 proposes: only seat 0 must still confirm, which would name the proposer to
    // anyone who saw the room's list of seats to act.
    apply(&mut game, 2, DemosAction::Veto);
    let seats = |set: SeatSet| set.iter().collect::<Vec<_>>();
    assert_eq!(seats(game.to_act()), vec![0]);
    assert_eq!(seats(game.to_act_seen_by(Viewer::Seat(0))), vec![0]);
    for outsider in [Viewer::Seat(1), Viewer::Seat(3), Viewer::Spectator] {
        assert_eq!(
            seats(game.to_act_seen_by(outsider)),
            vec![0, 2],
            "{outsider:?}"
        );
    }
}

#[test]
fn a_confirmed_team_veto_names_the_team_and_not_the_seat_outside_it() {
    let (mut game, _) = at_the_poll(Mode::Team2v2, None);
    apply(&mut game, 0, DemosAction::Veto);
    apply(&mut game, 2, DemosAction::ConfirmVeto);
    let named = Some(VetoUsed {
        side: 0,
        by: Some(0),
    });
    let unnamed = Some(VetoUsed { side: 0, by: None });
    for insider in [Viewer::Seat(0), Viewer::Seat(2), Viewer::Team(0)] {
        let view = game.view(insider);
        assert_eq!(view.veto, named, "{insider:?}");
        assert_eq!(view.last_round.unwrap().veto, named, "{insider:?}");
    }
    for outsider in [
        Viewer::Seat(1),
        Viewer::Seat(3),
        Viewer::Team(1),
        Viewer::Spectator,
    ] {
        let view = game.view(outsider);
        assert_eq!(view.veto, unnamed, "{outsider:?}");
        assert_eq!(view.last_round.unwrap().veto, unnamed, "{outsider:?}");
        assert_eq!(view.vetoes, vec![0, 1], "the spent veto is public");
    }
}

#[test]
fn the_independent_vetoes_alone_without_a_consultation_window() {
    // 2 vs 2 + 1 with the Independent in seat 4; dealer 4, so the Independent comes up last.
    let (mut game, _) = at_the_poll(Mode::Team2v2Plus1, None);
    for seat in [0, 2, 1, 3] {
        apply(&mut game, seat, DemosAction::Pass);
    }
    assert_eq!(to_act(&game), vec![4]);
    assert_eq!(game.rule_deadline(), None);
    assert!(!game.team_chat_open(2));
    apply(&mut game, 4, DemosAction::Veto);
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.vetoes, vec![1, 1, 0]);
    assert_eq!(
        view.veto,
        Some(VetoUsed {
            side: 2,
            by: Some(4)
        }),
        "an individual's veto is no consultation: everyone sees who vetoed"
    );
}

#[test]
fn the_pair_in_two_versus_three_can_veto_in_two_rounds() {
    let (mut game, _) = at_the_poll(Mode::Team2v3, None);
    apply(&mut game, 0, DemosAction::Veto);
    apply(&mut game, 2, DemosAction::ConfirmVeto);
    assert_eq!(game.view(Viewer::Spectator).vetoes, vec![1, 1]);
    allocate_defaults(&mut game);
    consult(&mut game);
    // Round 2 (shuffled): dealer 0, so seat 1 (the trio) is polled before seat 2 (the pair).
    for seat in 0..5 {
        let card = hand(&game, seat)[0];
        apply(&mut game, seat, DemosAction::PublicDiscard { card });
    }
    for seat in 0..5 {
        apply(&mut game, seat, DemosAction::KeepHand);
    }
    assert_eq!(to_act(&game), vec![1, 3, 4]);
    for seat in [1, 3, 4] {
        apply(&mut game, seat, DemosAction::Pass);
    }
    assert_eq!(to_act(&game), vec![0, 2]);
    apply(&mut game, 2, DemosAction::Veto);
    apply(&mut game, 0, DemosAction::ConfirmVeto);
    assert_eq!(game.view(Viewer::Spectator).vetoes, vec![0, 1]);
}
