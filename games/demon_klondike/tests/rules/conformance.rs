//! The conformance harness on every configuration the rules page names.

use pandemonium_demon_klondike::DemonKlondike;
use pandemonium_game_contract::Conformance;
use pandemonium_game_contract::conformance;

#[test]
fn every_seat_count_and_run_option_passes_the_conformance_harness() {
    conformance::check::<DemonKlondike>(conformance::matches_from_env(28));
}

/// Random play stops early (a random player soon says it is stuck), so the harness rarely sees
/// a deep deal. Bots play whole deals — many passes through the stock, races, a "Demon!"
/// now and then — and every view is checked along the way the same way the harness does.
#[test]
fn views_stay_invariant_and_decks_whole_through_whole_bot_played_deals() {
    use pandemonium_demon_klondike::{Config, KlondikeBot, RunMoves};
    use pandemonium_game_contract::{Bot, Game, SeededChance, Viewer};

    for (seats, runs) in [
        (2, RunMoves::AnyRun),
        (5, RunMoves::WholeRun),
        (8, RunMoves::AnyRun),
    ] {
        let config = Config {
            runs,
            deals: 2,
            ..Config::default()
        };
        let mut chance = SeededChance::from_u64(seats as u64);
        let mut harness = SeededChance::from_u64(99);
        let mut game = DemonKlondike::new(&config, seats, &mut chance).unwrap();
        let mut step = 0;
        while game.outcome().is_none() {
            if step % 7 == 0 {
                let viewers = (0..seats).map(Viewer::Seat).chain([Viewer::Spectator]);
                for viewer in viewers {
                    let before = serde_json::to_string(&game.view(viewer)).unwrap();
                    let redealt = game.redeal_hidden(viewer, &mut harness);
                    let after = serde_json::to_string(&redealt.view(viewer)).unwrap();
                    assert_eq!(before, after, "{viewer:?}'s view leaks at step {step}");
                }
            }
            let to_act: Vec<_> = game.to_act().iter().collect();
            let seat = to_act[step % to_act.len()];
            let legal = game.legal_actions(seat);
            let action = KlondikeBot.choose(&game.view(Viewer::Seat(seat)), &legal, &mut chance);
            game.apply(seat, &action, &mut chance).unwrap();
            step += 1;
            // Every deck is whole: its cards in the layout plus its cards on the foundations.
            if let pandemonium_demon_klondike::Phase::Racing = game.phase() {
                for s in 0..seats {
                    let on_foundations = game
                        .foundations()
                        .iter()
                        .flat_map(|f| &f.owners)
                        .filter(|&&o| o == s)
                        .count();
                    assert_eq!(game.layout(s).cards_left() + on_foundations, 52);
                }
            }
        }
        assert!(step > 200, "{seats} bots played only {step} actions");
    }
}
