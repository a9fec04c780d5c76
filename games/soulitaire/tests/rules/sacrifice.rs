//! Sacrifices (rules: "Sacrifice"; proposals 6-7; scenario 4).

use pandemonium_game::{Game, RuleError, Viewer};
use pandemonium_soulitaire::{
    Action, Config, Demon, DemonOnTop, LayerView, Offering, Rank, Suit, Symbol, Top,
};

use super::common::*;

const SKULL_OR_SEVEN: Demon = Demon::new(
    "Skull or Seven",
    &[Symbol::Suit(Suit::S1), Symbol::Rank(Rank::Seven)],
);
const TWO_SKULLS_TWO_TRIDENTS: Demon = Demon::new(
    "Vesh",
    &[
        Symbol::Suit(Suit::S1),
        Symbol::Suit(Suit::S1),
        Symbol::Suit(Suit::S3),
        Symbol::Suit(Suit::S3),
    ],
);

/// Scenario 4's board: visible 3 of S1, K of S3, 9 of S4 and a Mimic; one foundation top of
/// S2; the other tops are starting Mimics, which Bosche cannot match.
fn bosche_board() -> pandemonium_soulitaire::Soulitaire {
    rig(
        ["3s1", "Ks3", "9s4", "M", "", ""],
        ["5s2", "M", "M", "M"],
        &[BOSCHE, TWO_IMP],
    )
}

#[test]
fn bosche_can_be_sacrificed_onto_a_top_of_one_of_his_suits() {
    // Scenario 4: a foundation top has suit S2, so Bosche can go there (and only there).
    let mut game = bosche_board();
    assert!(
        sacrifices(&game)
            .iter()
            .all(|a| matches!(a, Action::Sacrifice { foundation: 0, .. }))
    );
    play(&mut game, sacrifice(0, &[Offering::card(0)]));
    let view = game.view(Viewer::Seat(0));
    let layers = &view.foundations[0].layers;
    assert!(matches!(&layers[1], LayerView::Demon(d) if d.name == "Bosche the Plague Doctor"));
    assert_eq!(layers[2], LayerView::Ritual(face("3s1")));
}

#[test]
fn bosche_takes_one_card_of_each_suit_in_any_order_and_the_last_is_the_new_top() {
    // Scenario 4: four cards, one per suit, the Mimic declared as an S2 card.
    let game = bosche_board();
    let mut copy = game.clone();
    play(
        &mut copy,
        sacrifice(
            0,
            &[
                Offering::card(0),
                Offering::card(1),
                Offering::card(2),
                Offering::mimic(3, face("6s2")),
            ],
        ),
    );
    assert_eq!(top(&copy, 0), Top::Face(face("6s2")));
    assert_eq!(copy.view(Viewer::Seat(0)).foundations[0].layers.len(), 6);
    let mut copy = game.clone();
    play(
        &mut copy,
        sacrifice(
            0,
            &[
                Offering::mimic(3, face("Es2")),
                Offering::card(2),
                Offering::card(1),
                Offering::card(0),
            ],
        ),
    );
    assert_eq!(top(&copy, 0), Top::Face(face("3s1")));
    // Every order of the four, with the Mimic as any of the 13 S2 cards, is listed.
    let full = sacrifices(&game)
        .into_iter()
        .filter(|a| matches!(a, Action::Sacrifice { offerings, .. } if offerings.len() == 4))
        .count();
    assert_eq!(full, 24 * 13);
}

#[test]
fn a_sacrifice_needs_a_foundation_top_sharing_a_symbol() {
    let mut game = rig(
        ["3s1", "", "", "", "", ""],
        ["2s2", "5s3", "9s4", "Ks2"],
        &[SKULL_IMP, MOON_IMP],
    );
    assert!(sacrifices(&game).is_empty());
    let before = game.clone();
    let error = try_play(&mut game, &sacrifice(0, &[Offering::card(0)])).unwrap_err();
    assert_eq!(error.code(), "demon_does_not_match");
    assert_eq!(game, before);
}

#[test]
fn cards_uncovered_during_a_sacrifice_cannot_be_used_in_it() {
    // Proposal 6: choose from the cards visible when the demon is placed; the 4 of S2 under
    // the 3 of S1 is not one of them.
    let game = rig(
        ["4s2 3s1", "", "", "", "", "9s4"],
        ["5s2", "M", "M", "M"],
        &[BOSCHE],
    );
    let mut copy = game.clone();
    let twice = sacrifice(0, &[Offering::card(0), Offering::card(0)]);
    assert_eq!(
        try_play(&mut copy, &twice).unwrap_err().code(),
        "column_offered_twice"
    );
    assert_eq!(copy, game);
    for action in sacrifices(&game) {
        let Action::Sacrifice { offerings, .. } = action else {
            unreachable!()
        };
        let mut columns: Vec<u8> = offerings.iter().map(|o| o.column).collect();
        columns.dedup();
        assert_eq!(columns.len(), offerings.len());
    }
}

#[test]
fn a_demon_takes_at_most_one_card_per_symbol() {
    let game = rig(
        ["3s1", "4s1", "9s4", "Ks3", "2s2", "5s2"],
        ["5s2", "M", "M", "M"],
        &[BOSCHE],
    );
    let mut copy = game.clone();
    let two_skulls = sacrifice(0, &[Offering::card(0), Offering::card(1)]);
    assert_eq!(
        try_play(&mut copy, &two_skulls).unwrap_err().code(),
        "offerings_do_not_match"
    );
    let five = sacrifice(0, &(0..5).map(Offering::card).collect::<Vec<_>>());
    assert_eq!(
        try_play(&mut copy, &five).unwrap_err().code(),
        "too_many_offerings"
    );
    assert_eq!(copy, game);
    assert!(!game.legal_actions(0).contains(&two_skulls));
}

#[test]
fn repeated_symbols_allow_that_many_cards() {
    // Proposal 6: a demon with two Skull symbols takes two Skull cards.
    let mut game = rig(
        ["3s1", "4s1", "9s1", "Ks3", "", ""],
        ["5s3", "M", "M", "M"],
        &[TWO_SKULLS_TWO_TRIDENTS],
    );
    let three_skulls = sacrifice(
        0,
        &[Offering::card(0), Offering::card(1), Offering::card(2)],
    );
    assert!(!game.legal_actions(0).contains(&three_skulls));
    play(
        &mut game,
        sacrifice(
            0,
            &[Offering::card(0), Offering::card(3), Offering::card(1)],
        ),
    );
    assert_eq!(top(&game, 0), Top::Face(face("4s1")));
}

#[test]
fn each_card_satisfies_exactly_one_symbol() {
    // A 7 of Skulls can take either symbol of a {Skulls, 7} demon, but only one of them.
    let game = rig(
        ["7s1", "3s1", "7s2", "4s1", "", ""],
        ["5s1", "M", "M", "M"],
        &[SKULL_OR_SEVEN],
    );
    for (offered, ok) in [
        (vec![0, 1], true),
        (vec![0, 2], true),
        (vec![1, 2], true),
        (vec![1, 3], false),
        (vec![0, 1, 2], false),
    ] {
        let action = sacrifice(
            0,
            &offered
                .iter()
                .map(|&c| Offering::card(c))
                .collect::<Vec<_>>(),
        );
        let mut copy = game.clone();
        assert_eq!(try_play(&mut copy, &action).is_ok(), ok, "{offered:?}");
        assert_eq!(game.legal_actions(0).contains(&action), ok, "{offered:?}");
    }
}

#[test]
fn an_offered_card_must_match_a_symbol_of_the_demon() {
    let mut game = rig(
        ["3s2", "", "", "", "", "4s1"],
        ["5s1", "M", "M", "M"],
        &[SKULL_IMP],
    );
    let before = game.clone();
    let error = try_play(&mut game, &sacrifice(0, &[Offering::card(0)])).unwrap_err();
    assert_eq!(error.code(), "offerings_do_not_match");
    assert_eq!(game, before);
}

#[test]
fn a_mimic_taken_in_a_sacrifice_is_declared_as_a_card_matching_its_symbol() {
    // Proposal 5: the declared card (rank and suit) is fixed and becomes the top.
    let game = rig(
        ["M", "7s3", "Ks3", "", "", "9s2"],
        ["5s1", "M", "M", "M"],
        &[SKULL_IMP],
    );
    for (offering, code) in [
        (Offering::mimic(0, face("8s2")), "offerings_do_not_match"),
        (Offering::card(0), "mimic_undeclared"),
        (
            Offering {
                column: 1,
                declare: Some(face("7s1")),
            },
            "not_a_mimic",
        ),
    ] {
        let mut copy = game.clone();
        let error = try_play(&mut copy, &sacrifice(0, &[offering])).unwrap_err();
        assert_eq!(error.code(), code);
        assert_eq!(copy, game);
    }
    // A Mimic taken for a suit symbol may be any of the 13 cards of that suit.
    let declarations = sacrifices(&game).len();
    assert_eq!(declarations, 1 + 13);
    let mut game = game;
    play(&mut game, sacrifice(0, &[Offering::mimic(0, face("8s1"))]));
    assert_eq!(top(&game, 0), Top::Face(face("8s1")));
    let mut copy = game.clone();
    play(&mut copy, mv(1, 0)); // a 7 goes on the declared 8
    let mut copy = game.clone();
    assert_eq!(
        try_play(&mut copy, &mv(2, 0)).unwrap_err().code(),
        "not_adjacent"
    );
}

#[test]
fn legal_actions_list_every_subset_and_order_of_a_sacrifice() {
    // Three visible cards of three different suits under Bosche, one matching foundation:
    // 1 empty + 3 singles + 6 ordered pairs + 6 ordered triples.
    let game = rig(
        ["3s1", "Ks3", "9s4", "", "", ""],
        ["5s2", "M", "M", "M"],
        &[BOSCHE],
    );
    assert_eq!(sacrifices(&game).len(), 16);
}

#[test]
fn a_sacrifice_takes_the_top_demon_and_the_next_one_becomes_the_top() {
    let mut game = rig(
        ["3s1", "", "", "", "", "Ks3"],
        ["5s1", "M", "M", "M"],
        &[SKULL_IMP, TWO_IMP],
    );
    play(&mut game, sacrifice(0, &[Offering::card(0)]));
    assert_eq!(game.top_demon(), Some(&TWO_IMP));
    assert_eq!(game.remaining_demons().len(), 1);
}

#[test]
fn a_sacrifice_with_no_cards_is_legal() {
    // Proposal 9: a 0-card sacrifice still counts as a move.
    let mut game = rig(
        ["3s2", "", "", "", "", ""],
        ["5s1", "Ks1", "Ks1", "Ks1"],
        &[SKULL_IMP, TWO_IMP],
    );
    assert!(game.legal_actions(0).contains(&sacrifice(0, &[])));
    play(&mut game, sacrifice(0, &[]));
    assert_eq!(game.remaining_demons(), &[TWO_IMP]);
}

#[test]
fn a_demon_left_bare_kills_its_stack() {
    // Proposal 7 (default): nothing, Ritual card or demon, goes on a bare demon.
    let mut game = rig(
        ["4s2", "6s3", "", "", "", "Ks4"],
        ["5s1", "3s4", "2s4", "2s4"],
        &[SKULL_IMP, BOSCHE],
    );
    play(&mut game, sacrifice(0, &[]));
    assert_eq!(top(&game, 0), Top::Dead);
    let before = game.clone();
    for action in [
        mv(0, 0),
        sacrifice(0, &[]),
        sacrifice(0, &[Offering::card(0)]),
    ] {
        assert_eq!(
            try_play(&mut game, &action).unwrap_err().code(),
            "dead_stack"
        );
        assert_eq!(game, before);
    }
    assert!(game.legal_actions(0).iter().all(|a| !matches!(
        a,
        Action::Move { foundation: 0, .. } | Action::Sacrifice { foundation: 0, .. }
    )));
}

#[test]
fn under_the_forgiving_rule_the_card_beneath_a_bare_demon_still_counts() {
    let config = Config {
        demon_on_top: DemonOnTop::Forgiving,
        ..Config::default()
    };
    let mut game = rig_with(
        config,
        ["4s2", "6s3", "", "", "", "Ks4"],
        ["5s1", "3s4", "2s4", "2s4"],
        &[SKULL_IMP, BOSCHE],
    );
    play(&mut game, sacrifice(0, &[]));
    assert_eq!(top(&game, 0), Top::Face(face("5s1")));
    let mut copy = game.clone();
    play(&mut copy, mv(0, 0));
    // The next demon may go onto the bare one too: the 5 of Skulls beneath matches Bosche.
    play(&mut game, sacrifice(0, &[Offering::card(1)]));
    assert_eq!(top(&game, 0), Top::Face(face("6s3")));
}

#[test]
fn a_demon_matches_a_top_by_rank_as_well_as_by_suit() {
    // "any foundation whose suit or rank matches one of the demon's symbols"
    let game = rig(
        ["3s1", "", "", "", "", ""],
        ["2s2", "2s3", "9s4", "Ks2"],
        &[TWO_IMP],
    );
    let foundations: Vec<u8> = sacrifices(&game)
        .iter()
        .filter_map(|a| match a {
            Action::Sacrifice { foundation, .. } => Some(*foundation),
            _ => None,
        })
        .collect();
    assert_eq!(foundations, vec![0, 1]);
}

#[test]
fn a_sacrifice_and_a_discard_are_allowed_even_when_ritual_moves_remain() {
    // "You may perform a Sacrifice at any time, not only when you are stuck."
    let mut game = rig(
        ["6s1", "", "", "", "", "8s1"],
        ["7s1", "Ks1", "Ks1", "Ks1"],
        &[SKULL_IMP, SKULL_IMP],
    );
    assert!(!moves(&game).is_empty());
    play(&mut game, sacrifice(0, &[Offering::card(0)]));
    play(&mut game, Action::Discard);
}
