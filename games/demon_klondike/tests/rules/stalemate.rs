//! The stalemate detector on hand-built positions: a layout is stuck when no progress move is
//! reachable through any number of stock cycles (and tableau shuffles).

use pandemonium_demon_klondike::stalemate::can_progress;
use pandemonium_demon_klondike::{Foundation, Layout, RunMoves, Suit};

use super::support::*;

fn any(layout: &Layout, foundations: &[Foundation]) -> bool {
    can_progress(layout, foundations, RunMoves::AnyRun)
}

#[test]
fn a_layout_with_nothing_to_play_anywhere_in_its_stock_is_stuck() {
    let me = layout(["5D | 9S", "7C", "", "", "", "", ""], "10D 4S QH", "7H");
    let foundations = [foundation(Suit::Hearts, 2, 1)];
    assert!(!any(&me, &foundations));
}

#[test]
fn a_card_reachable_only_after_turning_the_waste_over_is_progress() {
    // This pass turns 3H 10D 4S together (4S on top); after the waste is turned over the
    // first draw is QC JC 3H, with 3H on top.
    let me = layout(["5D | 9S", "", "", "", "", "", ""], "3H 10D 4S", "QC JC");
    let foundations = [foundation(Suit::Hearts, 2, 1)];
    assert!(any(&me, &foundations));
    let without = layout(["5D | 9S", "", "", "", "", "", ""], "5H 10D 4S", "QC JC");
    assert!(!any(&without, &foundations));
}

#[test]
fn a_card_that_is_never_on_top_of_the_waste_is_not_progress() {
    // Draw-3 over six cards only ever shows the third and the sixth.
    let me = layout(
        ["5D | 9S", "", "", "", "", "", ""],
        "JC 3H 10D 4S QC 6S",
        "",
    );
    let foundations = [foundation(Suit::Hearts, 2, 1)];
    assert!(!any(&me, &foundations));
}

#[test]
fn moving_part_of_a_run_to_expose_a_foundation_card_is_progress_with_any_run() {
    // 3H is covered by 2S; moving 2S onto 3D exposes 3H for the hearts foundation.
    let me = layout(["6C | 4C 3H 2S", "3D", "", "", "", "", ""], "", "");
    let foundations = [foundation(Suit::Hearts, 2, 1)];
    assert!(any(&me, &foundations));
    assert!(!can_progress(&me, &foundations, RunMoves::WholeRun));
}

#[test]
fn emptying_a_pile_without_face_down_cards_makes_room_for_a_king_from_a_deep_pile() {
    // 8D moves onto 9C, emptying its pile; then KS (on face-down cards) can go there.
    let me = layout(["8D", "9C", "2C 3C | KS", "", "", "", ""], "", "");
    // Only seven piles exist and six are full: fill the remaining empty ones.
    let mut me = me;
    for (i, name) in ["4H", "4D", "4S", "4C"].into_iter().enumerate() {
        me.piles[3 + i].up = cards(name);
    }
    assert!(any(&me, &[]));
    // Without the 9C to take the 8D, nothing can move.
    me.piles[1].up = cards("10C");
    assert!(!any(&me, &[]));
}

#[test]
fn shuffling_a_run_between_piles_alone_is_not_progress() {
    // The 9S can hop between the two red tens forever; nothing comes of it.
    let mut me = layout(["10H", "10D 9S", "", "", "", "", ""], "", "");
    for (i, name) in ["5H", "5S", "7H", "7S", "QC"].into_iter().enumerate() {
        me.piles[2 + i].up = cards(name);
    }
    assert!(!any(&me, &[]));
}

#[test]
fn a_king_run_into_an_empty_pile_from_a_pile_with_face_down_cards_is_progress() {
    let me = layout(["4C | KD QS", "", "", "", "", "", ""], "", "");
    assert!(any(&me, &[]));
}

#[test]
fn a_pile_top_the_foundations_take_is_progress() {
    let me = layout(["5H", "", "", "", "", "", ""], "", "");
    assert!(!any(&me, &[foundation(Suit::Hearts, 3, 0)]));
    assert!(any(&me, &[foundation(Suit::Hearts, 4, 0)]));
    assert!(any(&layout(["AC", "", "", "", "", "", ""], "", ""), &[]));
}

#[test]
fn a_waste_card_onto_a_pile_is_progress() {
    let me = layout(["9S", "", "", "", "", "", ""], "4D 5D 8H", "");
    assert!(any(&me, &[]));
}
