//! Views: the public table. Face-down cards and the stock order are hidden from everyone,
//! their owner included; face-up cards, the waste fan, foundations with owners and sizes are
//! public; everything is revealed after each deal.

use pandemonium_demon_klondike::{Action, Config, DemonKlondike, PhaseView, Suit, View};
use pandemonium_game_contract::Conformance;
use pandemonium_game_contract::{Game, SeededChance, Viewer};

use super::support::*;

fn json(view: &View) -> serde_json::Value {
    let mut value = serde_json::to_value(view).unwrap();
    value["you"] = serde_json::Value::Null;
    value
}

#[test]
fn a_player_sees_the_same_table_as_everyone_else_not_their_own_hidden_cards() {
    let game = DemonKlondike::new(&Config::default(), 3, &mut SeededChance::from_u64(2)).unwrap();
    let spectator = game.view(Viewer::Spectator);
    for seat in 0..3 {
        let mine = game.view(Viewer::Seat(seat));
        assert_eq!(mine.you, Some(seat));
        assert_eq!(
            json(&mine),
            json(&spectator),
            "seat {seat} sees only the public table"
        );
    }
    let me = &spectator.players[0];
    assert_eq!(me.stock, 21);
    assert_eq!(me.waste, 3);
    assert!(me.revealed.is_none());
    let downs: Vec<u8> = me.piles.iter().map(|p| p.down).collect();
    assert_eq!(downs, [0, 1, 2, 3, 4, 5, 6]);
    // Nothing in the serialised view names a face-down or stock card.
    let text = serde_json::to_string(&spectator).unwrap();
    let layout = game.layout(0);
    for hidden in layout
        .stock
        .iter()
        .chain(layout.piles.iter().flat_map(|p| &p.down))
    {
        let visible_elsewhere = (1..3).any(|s| {
            let other = game.layout(s);
            other.visible_waste().contains(hidden)
                || other.piles.iter().any(|p| p.up.contains(hidden))
        });
        if !visible_elsewhere {
            assert!(!text.contains(&format!("\"{hidden}\"")), "{hidden} leaks");
        }
    }
}

#[test]
fn the_latest_draw_shows_fanned_under_the_waste_top() {
    let me = layout(["", "", "", "", "", "", ""], "2S 3S 4S 5S", "9D");
    let mut game = rigged(vec![me, lively()], vec![]);
    play(&mut game, 0, Action::Draw);
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.players[0].fan, cards("2S 3S 4S"));
    play(&mut game, 0, Action::Draw);
    assert_eq!(game.view(Viewer::Spectator).players[0].fan, cards("5S"));
}

#[test]
fn foundations_show_whose_card_each_one_is() {
    let p1 = layout(["2S", "", "", "", "", "", ""], "", "");
    let mut game = rigged(vec![p1, lively()], vec![foundation(Suit::Spades, 1, 1)]);
    play(&mut game, 0, to_foundation("2S", Some(0)));
    let view = game.view(Viewer::Seat(1));
    assert_eq!(view.foundations[0].suit, Suit::Spades);
    assert_eq!(view.foundations[0].owners, vec![1, 0]);
    assert_eq!(view.players[0].scored, 1);
}

#[test]
fn everything_is_revealed_once_the_deal_is_over() {
    let mut game = rigged(
        vec![
            layout(["3C | 9S", "", "", "", "", "", ""], "4D", "QH"),
            lively(),
        ],
        vec![],
    );
    play(&mut game, 0, Action::Stuck);
    play(&mut game, 1, Action::Stuck);
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.phase, PhaseView::Over);
    let revealed = view.players[0].revealed.as_ref().unwrap();
    assert_eq!(revealed.down[0], cards("3C"));
    assert_eq!(revealed.stock, cards("4D"));
    assert_eq!(revealed.waste, cards("QH"));
}

#[test]
fn an_omniscient_replay_sees_the_hidden_cards_during_the_deal() {
    let game = rigged(
        vec![
            layout(["3C | 9S", "", "", "", "", "", ""], "4D", "QH"),
            lively(),
        ],
        vec![],
    );
    assert!(game.view(Viewer::Spectator).players[0].revealed.is_none());
    let replay = game.view(Viewer::Omniscient);
    assert_eq!(
        replay.players[0].revealed.as_ref().unwrap().down[0],
        cards("3C")
    );
}

#[test]
fn redealing_what_nobody_sees_keeps_every_view_and_each_deck_whole() {
    let game = DemonKlondike::new(&Config::default(), 4, &mut SeededChance::from_u64(8)).unwrap();
    let mut chance = SeededChance::from_u64(1);
    let redealt = game.redeal_hidden(Viewer::Seat(2), &mut chance);
    assert_ne!(redealt, game, "the hidden cards moved");
    for viewer in [Viewer::Seat(0), Viewer::Seat(2), Viewer::Spectator] {
        assert_eq!(game.view(viewer), redealt.view(viewer));
    }
    for seat in 0..4 {
        let layout = redealt.layout(seat);
        let mut all: Vec<_> = layout.stock.iter().chain(&layout.waste).copied().collect();
        for pile in &layout.piles {
            all.extend(pile.down.iter().chain(&pile.up));
        }
        all.sort();
        assert_eq!(all, pandemonium_demon_klondike::Card::deck());
    }
}
