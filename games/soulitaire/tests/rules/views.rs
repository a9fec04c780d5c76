//! Hidden information (rules: "Hidden information"; proposals 8, 10).

use pandemonium_game_contract::Conformance;
use pandemonium_game_contract::{Game, SeededChance, Viewer};
use pandemonium_soulitaire::{Action, Config, DemonPileVisibility, Soulitaire};

use super::common::*;

fn dealt(config: Config) -> Soulitaire {
    Soulitaire::rigged(config, full_deal())
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap()
}

#[test]
fn the_player_sees_only_the_exposed_spellboard_cards() {
    let view = dealt(Config::default()).view(Viewer::Seat(0));
    for column in &view.spellboard {
        assert_eq!(column.len(), 6, "a face-down card shows that it is there");
        for card in &column[..5] {
            assert!(!card.face_up && card.card.is_none());
        }
        assert!(column[5].face_up && column[5].card.is_some());
    }
}

#[test]
fn the_set_aside_cards_are_never_shown_during_play() {
    let mut game = dealt(Config::default());
    let mut chance = SeededChance::from_u64(3);
    for _ in 0..10 {
        let view = game.view(Viewer::Seat(0));
        assert_eq!(view.set_aside, None);
        assert_eq!(view.set_aside_count, 14);
        assert_eq!(view.unused_demons, None);
        let legal = game.legal_actions(0);
        let Some(action) = legal.iter().find(|a| !matches!(a, Action::Concede)) else {
            break;
        };
        game.apply(0, action, &mut chance).unwrap();
        if game.outcome().is_some() {
            break;
        }
    }
}

#[test]
fn only_the_top_demon_is_visible_by_default() {
    let view = dealt(Config::default()).view(Viewer::Seat(0));
    assert_eq!(view.demon_pile.len(), 6, "the count is shown");
    assert!(view.demon_pile[0].is_some());
    assert!(view.demon_pile[1..].iter().all(Option::is_none));
}

#[test]
fn a_spread_demon_pile_shows_every_demon() {
    let config = Config {
        demon_pile: DemonPileVisibility::Spread,
        ..Config::default()
    };
    let view = dealt(config).view(Viewer::Seat(0));
    assert!(view.demon_pile.iter().all(Option::is_some));
    assert_eq!(view.unused_demons, None, "the unused roster stays hidden");
}

#[test]
fn spectators_see_exactly_what_the_player_sees() {
    let game = dealt(Config::default());
    assert_eq!(
        json(&game.view(Viewer::Spectator)),
        json(&game.view(Viewer::Seat(0)))
    );
}

#[test]
fn the_omniscient_viewer_sees_everything_during_play() {
    let view = dealt(Config::default()).view(Viewer::Omniscient);
    assert!(view.spellboard.iter().flatten().all(|c| c.card.is_some()));
    assert!(view.demon_pile.iter().all(Option::is_some));
    assert_eq!(view.set_aside.map(|s| s.len()), Some(14));
    assert!(view.unused_demons.is_some());
}

#[test]
fn every_view_reveals_everything_once_the_match_is_over() {
    let mut conceded = dealt(Config::default());
    play(&mut conceded, Action::Concede);
    let mut won = rig(
        ["8s1", "", "", "", "", ""],
        ["7s1", "2s2", "2s3", "2s4"],
        &[TWO_IMP, FOUR_IMP],
    );
    play(&mut won, mv(0, 0));
    let mut lost = rig(
        ["Ks1 8s2", "", "", "", "", ""],
        ["7s3", "4s3", "4s4", "4s2"],
        &[TWO_IMP; 3],
    );
    play(&mut lost, mv(0, 0));
    for (finish, game) in [("conceded", conceded), ("won", won), ("lost", lost)] {
        assert!(game.outcome().is_some(), "{finish}");
        for viewer in [Viewer::Seat(0), Viewer::Spectator] {
            let view = game.view(viewer);
            assert_eq!(
                json(&view),
                json(&game.view(Viewer::Omniscient)),
                "{finish}"
            );
            assert!(view.spellboard.iter().flatten().all(|c| c.card.is_some()));
            assert!(view.demon_pile.iter().all(Option::is_some));
            assert!(view.set_aside.is_some());
            assert!(view.unused_demons.is_some());
        }
    }
}

#[test]
fn redealing_hidden_cards_changes_them_but_not_the_players_view() {
    let game = dealt(Config::default());
    let redealt = game.redeal_hidden(Viewer::Seat(0), &mut SeededChance::from_u64(9));
    assert_ne!(redealt, game, "something hidden was dealt again");
    assert_eq!(
        json(&redealt.view(Viewer::Seat(0))),
        json(&game.view(Viewer::Seat(0)))
    );
    assert_ne!(
        json(&redealt.view(Viewer::Omniscient)),
        json(&game.view(Viewer::Omniscient))
    );
}

#[test]
fn the_sacrifice_under_way_is_shown_and_what_it_uncovers_is_not() {
    let mut game = rig(
        ["4s2 3s1", "", "", "", "", "9s4"],
        ["5s2", "M", "M", "M"],
        &[BOSCHE, TWO_IMP],
    );
    assert_eq!(game.view(Viewer::Seat(0)).sacrifice, None);
    play(&mut game, sacrifice(0));
    play(&mut game, offer(0, "s1"));
    let view = game.view(Viewer::Seat(0));
    let under_way = view.sacrifice.clone().expect("under way");
    assert_eq!(under_way.foundation, 0);
    assert_eq!(under_way.demon.name, "Bosche the Plague Doctor");
    assert_eq!(under_way.remaining, vec![sym("s2"), sym("s3"), sym("s4")]);
    assert_eq!(under_way.eligible, vec![5]);
    assert_eq!(under_way.offered, 1);
    assert_eq!(json(&game.view(Viewer::Spectator)), json(&view));
    // The 4 of S2 uncovered by the offer is hidden like any face-down card: re-dealing what
    // the player cannot see may put another card there without changing the view.
    for seed in 0..10 {
        let redealt = game.redeal_hidden(Viewer::Seat(0), &mut SeededChance::from_u64(seed));
        assert_eq!(json(&redealt.view(Viewer::Seat(0))), json(&view));
    }
}
