//! Scoring: 62 for going out, otherwise one point per own card on the foundations, credited
//! to the deck it came from; never subtracted.

use pandemonium_demon_klondike::{DEMON_SCORE, Ending, Suit};

use super::support::*;

#[test]
fn foundation_cards_are_credited_to_the_deck_they_came_from() {
    let mixed = pandemonium_demon_klondike::Foundation {
        suit: Suit::Diamonds,
        owners: vec![0, 1, 1, 0],
    };
    let p1 = layout(["5D", "", "", "", "", "", ""], "", "");
    let mut game = rigged(
        vec![p1, layout(["9S", "", "", "", "", "", ""], "", "")],
        vec![mixed],
    );
    play(&mut game, 0, to_foundation("5D", Some(0)));
    let result = game.results().last().unwrap();
    assert_eq!(result.ending, Ending::Stalemate);
    assert_eq!(result.scores, vec![3, 2]);
}

#[test]
fn going_out_scores_fifty_two_plus_ten() {
    assert_eq!(DEMON_SCORE, 52 + 10);
}

#[test]
fn a_player_with_nothing_on_the_foundations_scores_zero_not_less() {
    let mut game = rigged(vec![lively(), lively()], vec![]);
    play(&mut game, 0, pandemonium_demon_klondike::Action::Stuck);
    play(&mut game, 1, pandemonium_demon_klondike::Action::Stuck);
    assert_eq!(game.results()[0].scores, vec![0, 0]);
}
