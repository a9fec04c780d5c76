//! Mimics (proposal 5; scenario 3).

use pandemonium_game_contract::RuleError;
use pandemonium_soulitaire::{Action, Face, Rank, Suit, Top};

use super::common::*;

#[test]
fn a_mimic_declared_8_onto_a_7_becomes_an_8_for_good() {
    // Scenario 3: the next card may be a 7 or a 9, not an 8 or a 6.
    let mut game = rig(
        ["M", "7s2", "9s3", "8s4", "6s1", ""],
        ["7s1", "Ks1", "Ks1", "Ks1"],
        &[TWO_IMP],
    );
    play(&mut game, mv_mimic(0, 0, "8s3"));
    assert_eq!(top(&game, 0), Top::Face(face("8s3")));
    for (column, ok) in [(1, true), (2, true), (3, false), (4, false)] {
        let mut copy = game.clone();
        assert_eq!(
            try_play(&mut copy, &mv(column, 0)).is_ok(),
            ok,
            "column {column}"
        );
    }
}

#[test]
fn a_mimic_must_be_declared_with_a_rank_next_to_the_top() {
    let game = rig(
        ["M", "8s2", "", "", "", ""],
        ["7s1", "Ks1", "Ks1", "Ks1"],
        &[TWO_IMP],
    );
    let cases = [
        (mv(0, 0), "mimic_undeclared"),
        (mv_mimic(0, 0, "5s1"), "not_adjacent"),
        (mv_mimic(0, 0, "7s1"), "not_adjacent"),
        (mv_mimic(1, 0, "8s2"), "not_a_mimic"),
    ];
    for (action, code) in cases {
        let mut copy = game.clone();
        assert_eq!(
            try_play(&mut copy, &action).unwrap_err().rule(),
            code,
            "{action:?}"
        );
        assert_eq!(copy, game);
    }
    // Onto a 7: declared as a 6 or an 8, in any of the four suits.
    let declared: Vec<Face> = moves(&game)
        .into_iter()
        .filter_map(|a| match a {
            Action::Move {
                column: 0,
                foundation: 0,
                declare,
            } => declare,
            _ => None,
        })
        .collect();
    assert_eq!(declared.len(), 8);
    assert!(
        declared
            .iter()
            .all(|f| f.rank == Rank::Six || f.rank == Rank::Eight)
    );
}

#[test]
fn a_starting_mimic_accepts_any_first_ritual_card() {
    // Scenario 3: a Mimic dealt as a foundation card is wild rank.
    for rank in Rank::ALL {
        let card = pandemonium_soulitaire::Card::new(Suit::S2, rank);
        let mut d = deal(
            ["", "", "", "", "", ""],
            ["M", "Ks1", "Ks1", "Ks1"],
            &[TWO_IMP],
        );
        d.spellboard[0] = vec![card];
        let mut game = pandemonium_soulitaire::Soulitaire::rigged(Default::default(), d);
        assert_eq!(top(&game, 0), Top::Wild);
        play(&mut game, mv(0, 0));
    }
}

#[test]
fn a_mimic_placed_on_a_starting_mimic_may_be_declared_as_any_card() {
    let game = rig(
        ["M", "", "", "", "", ""],
        ["M", "5s1", "5s1", "5s1"],
        &[TWO_IMP],
    );
    let onto_wild = moves(&game)
        .into_iter()
        .filter(|a| matches!(a, Action::Move { foundation: 0, .. }))
        .count();
    assert_eq!(onto_wild, 52);
}

#[test]
fn a_starting_mimic_matches_rank_symbols_but_no_suit_symbol() {
    // Proposal 5: wild rank, no suit. Scenario 4: with every top a starting Mimic, Bosche
    // (four suits) cannot be sacrificed; a demon with a rank symbol can.
    let board = ["3s1", "Ks3", "9s4", "", "", ""];
    let bosche = rig(board, ["M", "M", "M", "M"], &[BOSCHE]);
    assert!(sacrifices(&bosche).is_empty());
    let mut copy = bosche.clone();
    let error = try_play(&mut copy, &sacrifice(0)).unwrap_err();
    assert_eq!(error.rule(), "demon_does_not_match");
    let two = rig(board, ["M", "M", "M", "M"], &[TWO_IMP]);
    let mut copy = two.clone();
    play(&mut copy, sacrifice(2));
}

#[test]
fn a_mimic_declared_in_a_ritual_move_keeps_its_declared_suit_for_demons() {
    // "becoming any card you desire": the declared suit counts when a demon is matched.
    let mut game = rig(
        ["M", "", "", "", "", "4s2"],
        ["7s1", "5s2", "5s2", "5s2"],
        &[TRIDENT_IMP],
    );
    assert!(sacrifices(&game).is_empty());
    play(&mut game, mv_mimic(0, 0, "8s3"));
    assert!(matches!(
        sacrifices(&game)[..],
        [Action::Sacrifice { foundation: 0, .. }]
    ));
}
