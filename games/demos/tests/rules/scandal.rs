//! The Scandal Phase: Media revealed, cancelled, aimed blind at face-down figures.

use pandemonium_demos::{
    Demos, DemosAction, DemosConfig, DemosError, ElectionDecidedBy, Mode, Phase, ScandalEvent, Suit,
};
use pandemonium_game_contract::{Game, RuleError, SeededChance, Viewer};

use super::support::*;

/// The last round of a match (everyone forfeits, the round cap ends it), with these figures
/// in hand and this dealer.
fn last_round(mode: Mode, dealer: u8, held: &[&str]) -> Demos {
    let seats = held.len();
    let finals: Vec<&str> = FORFEIT[..seats].to_vec();
    let config = DemosConfig {
        round_cap: Some(1),
        ..config(mode)
    };
    let (mut game, plans) = rigged_with(config, dealer, &[&finals], "EH", |r| {
        r.figures = held.iter().map(|h| figures(h)).collect();
    });
    play_round(&mut game, &plans[0]);
    game
}

#[test]
fn every_media_is_turned_face_up_when_the_scandal_phase_begins() {
    let game = last_round(Mode::Complete, 0, &["ES", "LS JD M", "EC LC"]);
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.phase, Phase::Scandal { holder: 1 });
    let media = view.players[1].figures[2];
    assert!(media.face_up);
    assert_eq!(media.figure, Some(figures("M")[0]));
    assert_eq!(
        view.players[1].figures[0].figure, None,
        "other figures stay face down"
    );
}

#[test]
fn media_act_clockwise_from_the_left_of_the_last_rounds_dealer() {
    let mut game = last_round(Mode::Complete, 1, &["M EH", "LS", "M JC", "LD"]);
    assert_eq!(phase(&game), Phase::Scandal { holder: 2 });
    apply(
        &mut game,
        2,
        DemosAction::Media {
            target: 1,
            position: 0,
            suit: Suit::Hearts,
        },
    );
    assert_eq!(phase(&game), Phase::Scandal { holder: 0 });
    apply(
        &mut game,
        0,
        DemosAction::Media {
            target: 3,
            position: 0,
            suit: Suit::Clubs,
        },
    );
    assert!(game.outcome().is_some());
    assert_eq!(omniscient(&game).scandal.len(), 2);
}

#[test]
fn a_media_aims_only_at_another_players_face_down_figure() {
    let game = last_round(Mode::Complete, 0, &["ES", "M LS", "EC LC"]);
    let legal = game.legal_actions(1);
    // Seat 0's one figure and seat 2's two, with four suits each.
    assert_eq!(legal.len(), 12);
    let refuse = |action: DemosAction| {
        let mut copy = game.clone();
        copy.apply(1, &action, &mut SeededChance::from_u64(0))
            .unwrap_err()
    };
    assert_eq!(
        refuse(DemosAction::Media {
            target: 1,
            position: 1,
            suit: Suit::Hearts
        }),
        DemosError::BadMediaTarget
    );
    assert_eq!(
        refuse(DemosAction::Media {
            target: 0,
            position: 1,
            suit: Suit::Hearts
        })
        .rule(),
        "bad_media_target"
    );
    assert_eq!(
        refuse(DemosAction::Media {
            target: 9,
            position: 0,
            suit: Suit::Hearts
        }),
        DemosError::BadMediaTarget
    );
}

#[test]
fn a_figure_already_face_up_cannot_be_targeted() {
    let mut game = last_round(Mode::Complete, 0, &["ES", "M LS", "M EC LC"]);
    apply(
        &mut game,
        1,
        DemosAction::Media {
            target: 2,
            position: 1,
            suit: Suit::Hearts,
        },
    );
    assert_eq!(phase(&game), Phase::Scandal { holder: 2 });
    let legal = game.legal_actions(2);
    assert!(
        !legal
            .iter()
            .any(|a| matches!(a, DemosAction::Media { target: 2, .. }))
    );
    // Seat 1's L (seat 1's Media is gone) and seat 0's E are the targets left.
    assert_eq!(legal.len(), 8);
}

#[test]
fn a_media_holder_with_no_face_down_figure_to_aim_at_loses_the_action() {
    let game = last_round(Mode::Complete, 0, &["", "M LS", ""]);
    assert!(game.outcome().is_some());
    assert_eq!(
        omniscient(&game).scandal,
        vec![ScandalEvent::Lost { holder: 1 }]
    );
}

#[test]
fn two_media_marked_figures_of_the_same_power_leave_no_trio() {
    let mut game = last_round(Mode::Complete, 3, &["M", "M", "LD", "EH ES LC JD"]);
    apply(
        &mut game,
        0,
        DemosAction::Media {
            target: 3,
            position: 0,
            suit: Suit::Spades,
        },
    );
    apply(
        &mut game,
        1,
        DemosAction::Media {
            target: 3,
            position: 1,
            suit: Suit::Hearts,
        },
    );
    let election = omniscient(&game).election.unwrap();
    assert_eq!(
        election.trios[3], None,
        "both marked E must be in the trio: impossible"
    );
    assert_eq!(election.result.decided_by, ElectionDecidedBy::NoWinner);
}

#[test]
fn the_independent_holding_both_media_keeps_them_face_up_and_takes_no_action() {
    let game = last_round(Mode::Team2v2Plus1, 0, &["ES", "LH", "JD", "EC", "M M"]);
    assert!(game.outcome().is_some(), "no Media action is asked for");
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.scandal, vec![ScandalEvent::KeptFaceUp { holder: 4 }]);
    assert_eq!(view.players[4].figures.len(), 2);
    assert!(view.players[4].figures.iter().all(|f| f.face_up));
}

#[test]
fn a_team_member_holding_both_media_discards_them() {
    let game = last_round(Mode::Team2v2Plus1, 0, &["M M ES", "LH", "JD", "EC", "JS"]);
    let view = omniscient(&game);
    assert_eq!(view.scandal, vec![ScandalEvent::Cancelled { holder: 0 }]);
    assert_eq!(view.players[0].figures.len(), 1);
}

#[test]
fn a_media_may_help_a_teammate() {
    let mut game = last_round(Mode::Team2v2, 0, &["EH LH", "M", "JH", "ES"]);
    // Seat 1 (team 1) sees its teammate's E of spades and aims at it.
    assert_eq!(
        game.view(Viewer::Seat(1)).players[3].figures[0].figure,
        Some(figures("ES")[0])
    );
    apply(
        &mut game,
        1,
        DemosAction::Media {
            target: 3,
            position: 0,
            suit: Suit::Clubs,
        },
    );
    assert_eq!(
        omniscient(&game).players[3].figures[0].media,
        Some(Suit::Clubs)
    );
}

#[test]
fn the_simplified_game_has_no_scandal_phase() {
    let config = DemosConfig {
        round_cap: Some(1),
        ..config(Mode::Simplified)
    };
    let (mut game, plans) = rigged_with(
        config,
        0,
        &[&[FORFEIT_NO_ACES[0], FORFEIT_NO_ACES[1], FORFEIT_NO_ACES[2]]],
        "EH",
        |r| r.figures = vec![figures("ES LH JD"), vec![], vec![]],
    );
    play_round(&mut game, &plans[0]);
    assert!(game.outcome().is_some());
    assert!(omniscient(&game).scandal.is_empty());
}
