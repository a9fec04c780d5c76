//! Moving Ritual cards (rules: "Moving a card", "Uncovering"; proposals 1-4; scenarios 1-2).

use pandemonium_game_contract::{Game, RuleError, Viewer};
use pandemonium_soulitaire::{Action, Top};

use super::common::*;

/// A board whose exposed cards are the given ones, one per column, onto foundation `top`.
fn single_cards(exposed: [&str; 6], top: &str) -> pandemonium_soulitaire::Soulitaire {
    rig(exposed, [top, "Ks1", "Ks2", "Ks3"], &[TWO_IMP])
}

#[test]
fn a_card_moves_onto_a_foundation_one_rank_higher_or_lower() {
    // Scenario 1: top 7 — a 6 or 8 of any suit goes on; a 5, 9 or 7 does not.
    let game = single_cards(["6s1", "8s4", "5s2", "9s3", "7s2", "6s3"], "7s1");
    for column in [0, 1, 5] {
        let mut copy = game.clone();
        play(&mut copy, mv(column, 0));
    }
    for column in [2, 3, 4] {
        let mut copy = game.clone();
        let error = try_play(&mut copy, &mv(column, 0)).unwrap_err();
        assert_eq!(error.rule(), "not_adjacent");
        assert_eq!(copy, game);
    }
}

#[test]
fn the_rank_cycle_wraps_from_keeper_to_ace_and_runs_ten_e_s_keeper() {
    // Scenario 1: top K takes A or S; top A takes 2 or K; top E takes 10 or S; top 10 takes 9 or E.
    for (top, good, bad) in [
        ("Ks1", ["As2", "Ss3"], ["2s2", "Es3"]),
        ("As1", ["2s2", "Ks3"], ["3s2", "Ss3"]),
        ("Es1", ["10s2", "Ss3"], ["9s2", "Ks3"]),
        ("10s1", ["9s2", "Es3"], ["8s2", "Ss3"]),
    ] {
        let game = rig(
            [good[0], good[1], bad[0], bad[1], "", ""],
            [top, "5s4", "5s4", "5s4"],
            &[TWO_IMP],
        );
        for column in [0, 1] {
            let mut copy = game.clone();
            play(&mut copy, mv(column, 0));
        }
        for column in [2, 3] {
            let mut copy = game.clone();
            assert_eq!(
                try_play(&mut copy, &mv(column, 0)).unwrap_err().rule(),
                "not_adjacent",
                "{} onto {top}",
                bad[column as usize - 2]
            );
        }
    }
}

#[test]
fn suit_never_matters_for_a_ritual_move() {
    let game = single_cards(["8s1", "8s2", "8s3", "8s4", "", ""], "7s1");
    let legal = moves(&game);
    for column in 0..4 {
        assert!(legal.contains(&mv(column, 0)), "the 8 in column {column}");
    }
}

#[test]
fn a_card_placed_on_a_foundation_can_never_move_again() {
    // Scenario 2: cards never leave a foundation. Actions only name Spellboard columns, so the
    // placed card can only be asked for through its old column, which is now empty.
    let mut game = rig(
        ["8s1", "", "", "", "", "9s2"],
        ["7s1", "Ks1", "Ks2", "Ks3"],
        &[TWO_IMP],
    );
    play(&mut game, mv(0, 0));
    let before = game.clone();
    assert_eq!(
        try_play(&mut game, &mv(0, 1)).unwrap_err().rule(),
        "empty_column"
    );
    assert_eq!(game, before);
    assert!(
        game.legal_actions(0)
            .iter()
            .all(|a| !matches!(a, Action::Move { column: 0, .. }))
    );
    assert_eq!(top(&game, 0), Top::Face(face("8s1")));
    assert_eq!(game.view(Viewer::Seat(0)).foundations[0].layers.len(), 2);
}

#[test]
fn only_the_bottom_card_of_a_column_can_move_and_the_one_above_turns_face_up() {
    // Proposals 2 and 3: straight columns; an uncovered card turns face up by itself.
    let mut game = rig(
        ["Ks1 8s1", "", "", "", "", "9s3"],
        ["7s1", "Ks2", "Ks2", "Ks2"],
        &[TWO_IMP],
    );
    let view = game.view(Viewer::Seat(0));
    assert!(!view.spellboard[0][0].face_up);
    assert_eq!(
        view.spellboard[0][0].card, None,
        "the covered King is hidden"
    );
    assert!(view.spellboard[0][1].face_up);
    // Only exposed cards are offered: the King stays put under the 8.
    assert_eq!(moves(&game), vec![mv(0, 0)]);
    play(&mut game, mv(0, 0));
    let view = game.view(Viewer::Seat(0));
    assert_eq!(view.spellboard[0].len(), 1);
    assert!(view.spellboard[0][0].face_up);
    assert_eq!(view.spellboard[0][0].card, Some(c("Ks1")));
}
