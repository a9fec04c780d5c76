//! The solver bot: it plays from the view only, never errs, and beats the random bot.

use pandemonium_game_contract::Conformance;
use pandemonium_game_contract::{Bot, Game, RandomBot, SeededChance, Viewer};
use pandemonium_soulitaire::{Action, Config, SolverBot, Soulitaire, hint};

use super::common::*;
use super::measure::play_deal;

#[test]
fn the_solver_only_ever_hints_legal_actions() {
    for config in Config::all() {
        for seed in 0..60 {
            let mut chance = SeededChance::from_u64(seed);
            let mut game = Soulitaire::new(&config, 1, &mut chance).unwrap();
            while game.outcome().is_none() {
                let legal = game.legal_actions(0);
                let view = game.view(Viewer::Seat(0));
                let action = hint(&view).expect("a running match always has a move");
                assert!(
                    legal.contains(&action),
                    "seed {seed}: {action:?} is not legal"
                );
                assert_ne!(action, Action::Concede);
                game.apply(0, &action, &mut chance).unwrap();
            }
        }
    }
}

#[test]
fn the_solver_wins_clearly_more_often_than_the_random_bot() {
    let deals = 300;
    let solver = (0..deals)
        .filter(|&s| play_deal(&SolverBot, Config::default(), s).is_some())
        .count();
    let random = (0..deals)
        .filter(|&s| play_deal(&RandomBot, Config::default(), s).is_some())
        .count();
    assert!(solver >= 150, "the solver won {solver} of {deals}");
    assert!(solver >= random + 100, "solver {solver}, random {random}");
}

#[test]
fn the_solver_decides_from_the_view_alone() {
    // Re-dealing every face-down card cannot change its choice.
    let game = Soulitaire::rigged(Config::default(), full_deal());
    let choice = hint(&game.view(Viewer::Seat(0)));
    for seed in 0..20 {
        let redealt = game.redeal_hidden(Viewer::Seat(0), &mut SeededChance::from_u64(seed));
        assert_eq!(hint(&redealt.view(Viewer::Seat(0))), choice);
    }
}

#[test]
fn the_hint_plays_a_ritual_move_before_spending_a_demon() {
    let game = rig(
        ["8s1", "3s2", "", "", "", ""],
        ["7s1", "5s2", "Ks3", "Ks4"],
        &[BOSCHE],
    );
    assert_eq!(hint(&game.view(Viewer::Seat(0))), Some(mv(0, 0)));
}

#[test]
fn when_stuck_the_hint_sacrifices_a_matching_demon_or_discards_one_that_cannot_help() {
    let stuck = rig(
        ["3s1", "9s3", "", "", "", ""],
        ["5s2", "Ks2", "Ks2", "Ks2"],
        &[BOSCHE],
    );
    let mut stuck = stuck;
    let action = hint(&stuck.view(Viewer::Seat(0))).unwrap();
    assert!(matches!(action, Action::Sacrifice { .. }), "{action:?}");
    play(&mut stuck, action);
    // It then offers both cards, one per suit, and the sacrifice ends by itself.
    for _ in 0..2 {
        let action = hint(&stuck.view(Viewer::Seat(0))).unwrap();
        assert!(matches!(action, Action::Offer { .. }), "{action:?}");
        play(&mut stuck, action);
    }
    assert!(stuck.outcome().is_some(), "the Spellboard is clear");
    let useless = rig(
        ["3s1", "9s3", "", "", "", ""],
        ["5s2", "Ks2", "Ks2", "Ks2"],
        &[TWO_IMP, BOSCHE],
    );
    assert_eq!(hint(&useless.view(Viewer::Seat(0))), Some(Action::Discard));
}

#[test]
fn there_is_no_hint_once_the_match_is_over() {
    let mut game = rig(
        ["8s1", "", "", "", "", ""],
        ["7s1", "Ks2", "Ks3", "Ks4"],
        &[BOSCHE],
    );
    play(&mut game, mv(0, 0));
    assert_eq!(hint(&game.view(Viewer::Seat(0))), None);
    let legal = [Action::Concede];
    let view = game.view(Viewer::Seat(0));
    assert_eq!(
        SolverBot.choose(&view, &legal, &mut SeededChance::from_u64(0)),
        Action::Concede
    );
}
