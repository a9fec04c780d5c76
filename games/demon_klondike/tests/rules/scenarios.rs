//! The seven test scenarios of `RULES.md`, exactly as written.

use pandemonium_demon_klondike::{Action, Config, DemonKlondike, Ending, Phase, Suit};
use pandemonium_game_contract::{Game, RuleError, SeededChance};

use super::support::*;

#[test]
fn scenario_1_each_player_deals_seven_piles_and_the_signal_turns_three() {
    let game = DemonKlondike::new(&Config::default(), 3, &mut SeededChance::from_u64(1)).unwrap();
    for seat in 0..3 {
        let layout = game.layout(seat);
        let sizes: Vec<usize> = layout.piles.iter().map(|p| p.len()).collect();
        assert_eq!(sizes, [1, 2, 3, 4, 5, 6, 7]);
        assert!(layout.piles.iter().all(|p| p.up.len() == 1), "7 face up");
        assert_eq!((layout.stock.len(), layout.waste.len()), (21, 3));
        // Only the top waste card is playable: the two beneath it are refused everywhere.
        for buried in &layout.waste[..2] {
            let mut game = game.clone();
            for foundation in [None, Some(0)] {
                let action = Action::ToFoundation {
                    card: *buried,
                    foundation,
                };
                assert_eq!(refused(&mut game, seat, action), "not_playable");
            }
            for pile in 0..7 {
                let action = Action::ToPile {
                    card: *buried,
                    pile,
                };
                assert_eq!(refused(&mut game, seat, action), "not_playable");
            }
        }
    }
}

#[test]
fn scenario_2_red_ten_goes_on_a_black_jack_not_a_red_one_and_nine_not_on_jack() {
    let me = layout(["JS", "JD", "10H", "9C", "", "", ""], "", "");
    let mut game = rigged(vec![me, lively()], vec![]);
    assert_eq!(refused(&mut game, 0, to_pile("10H", 1)), "does_not_build");
    assert_eq!(refused(&mut game, 0, to_pile("9C", 1)), "does_not_build");
    assert_eq!(refused(&mut game, 0, to_pile("9C", 0)), "does_not_build");
    play(&mut game, 0, to_pile("10H", 0));
    assert_eq!(game.layout(0).piles[0].up, cards("JS 10H"));
    assert!(game.layout(0).piles[2].is_empty());
}

#[test]
fn scenario_3_an_empty_pile_takes_a_king_or_king_run_never_a_queen() {
    let me = layout(["QS", "4C | QD JC", "3C | KS QH", "", "", "", ""], "", "");
    let mut game = rigged(vec![me, lively()], vec![]);
    assert_eq!(
        refused(&mut game, 0, to_pile("QS", 3)),
        "empty_pile_needs_a_king"
    );
    assert_eq!(
        refused(&mut game, 0, to_pile("QD", 3)),
        "empty_pile_needs_a_king"
    );
    play(&mut game, 0, to_pile("KS", 3));
    let layout = game.layout(0);
    assert_eq!(layout.piles[3].up, cards("KS QH"));
    assert_eq!(
        layout.piles[2].up,
        cards("3C"),
        "the card beneath turned up"
    );
}

#[test]
fn scenario_4_the_first_five_of_hearts_wins_the_race_and_the_other_stays_home() {
    let hearts = foundation(Suit::Hearts, 4, 0);
    let p1 = layout(["5H", "9C", "", "", "", "", ""], "", "");
    let p2 = layout(["2C | 5H", "9S", "", "", "", "", ""], "", "6H");
    let mut game = rigged(vec![p1, p2], vec![hearts]);
    // Both send the five of hearts for foundation 0; P1's is processed first.
    play(&mut game, 0, to_foundation("5H", Some(0)));
    assert_eq!(
        refused(&mut game, 1, to_foundation("5H", Some(0))),
        "foundation_moved"
    );
    assert_eq!(
        game.layout(1).piles[0].up,
        cards("5H"),
        "P2's 5H stays in their layout"
    );
    // P2 may then play the six of hearts on it.
    play(&mut game, 1, to_foundation("6H", Some(0)));
    assert_eq!(game.foundations()[0].owners, vec![0, 0, 0, 0, 0, 1]);
}

#[test]
fn scenario_5_the_fifty_second_card_ends_the_deal_and_scores_62_30_12() {
    // P1 has 51 cards on the foundations and the King of clubs on a pile; P2 has 30 cards
    // there and P3 12.
    let mut foundations = vec![
        foundation(Suit::Spades, 13, 0),
        foundation(Suit::Hearts, 13, 0),
        foundation(Suit::Diamonds, 13, 0),
        foundation(Suit::Clubs, 12, 0),
    ];
    foundations.extend(foundations_with(1, 30));
    foundations.extend(foundations_with(2, 12));
    let p1 = layout(["KC", "", "", "", "", "", ""], "", "");
    let p2 = layout(["9H", "", "", "", "", "", ""], "", "");
    let mut game = rigged(vec![p1, p2, bare()], foundations);
    play(&mut game, 0, to_foundation("KC", Some(3)));
    let result = game.results().last().unwrap();
    assert_eq!(result.ending, Ending::Demon { seat: 0 });
    assert_eq!(result.scores, vec![62, 30, 12]);
    assert_eq!(game.phase(), Phase::Over);
    assert!(game.outcome().is_some());
    // Play has stopped: a later move is refused.
    let late = game.apply(1, &Action::Stuck, &mut SeededChance::from_u64(0));
    assert_eq!(late.unwrap_err().rule(), "match_over");
}

#[test]
fn scenario_6_turning_the_waste_over_keeps_its_order_as_often_as_you_like() {
    let waste = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2H 3H 4H 5H 6H 7H 8H 9H 10H";
    let me = layout(["", "", "", "", "", "", ""], "", waste);
    // The other player can still play, so the deal goes on.
    let other = layout(["AC", "", "", "", "", "", ""], "", "");
    let mut game = rigged(vec![me, other], vec![]);
    for _cycle in 0..10 {
        assert_eq!(refused(&mut game, 0, Action::Draw), "stock_empty");
        play(&mut game, 0, Action::Recycle);
        assert_eq!(
            (game.layout(0).stock.len(), game.layout(0).waste.len()),
            (21, 0)
        );
        let mut turned = Vec::new();
        for _ in 0..7 {
            play(&mut game, 0, Action::Draw);
            let layout = game.layout(0);
            assert_eq!(layout.visible_waste().len(), 3, "each draw turns 3");
            turned.extend_from_slice(layout.visible_waste());
        }
        assert_eq!(turned, cards(waste), "the original order");
    }
}

#[test]
fn scenario_7_a_stalemate_ends_the_deal_without_the_bonus() {
    let spades = foundation(Suit::Spades, 3, 0);
    let hearts = foundation(Suit::Hearts, 2, 1);
    let p1 = layout(["AC", "5D | 9S", "", "", "", "", ""], "10D", "7H");
    let p2 = layout(["8H", "", "", "", "", "", ""], "", "QC");
    let mut game = rigged(vec![p1, p2], vec![spades, hearts]);
    assert_eq!(game.phase(), Phase::Racing);
    // P1's last progress move: after it no player has any.
    play(&mut game, 0, to_foundation("AC", None));
    let result = game.results().last().unwrap();
    assert_eq!(result.ending, Ending::Stalemate);
    assert_eq!(result.scores, vec![4, 2], "foundation cards only, no +10");
}
