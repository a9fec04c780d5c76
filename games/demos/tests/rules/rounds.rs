//! The round's resolution: points, winners, ex-aequo draws, the Power Pile and the round cap.

use pandemonium_demos::scoring::best_combination;
use pandemonium_demos::{DecidedBy, DemosConfig, Mode, Phase};
use pandemonium_game_contract::{Game, Viewer};

use super::support::*;

#[test]
fn the_engine_reveals_the_combination_worth_the_most_points() {
    let scored = best_combination(&cards("3S 4S 5S 6S 7H"), true, None).unwrap();
    assert_eq!(scored.combination.cards, cards("4S 5S 6S"));
    assert_eq!(scored.combination.points, 16);
    assert_eq!(scored.unplayed, 10);
}

#[test]
fn ranks_do_not_wrap_around() {
    assert!(best_combination(&cards("9S 10S 1S"), true, None).is_none());
    assert!(best_combination(&cards("10H 1H 2H"), true, None).is_none());
}

#[test]
fn four_of_a_kind_is_no_square_in_the_simplified_game() {
    assert!(best_combination(&cards("7S 7H 7D 7C 2S"), false, None).is_none());
    let (mut game, plans) = rigged(
        Mode::Simplified,
        2,
        &[&["7S 7H 7D 7C 2S", FORFEIT_NO_ACES[1], FORFEIT_NO_ACES[3]]],
        "ES",
    );
    play_round(&mut game, &plans[0]);
    assert_eq!(omniscient(&game).last_round.unwrap().combinations[0], None);
}

#[test]
fn round_points_are_recorded_for_every_player_and_added_up() {
    let (mut game, plans) = rigged(
        Mode::Complete,
        2,
        &[
            &["7S 8S 9S 2H 4D", "4H 5S 6H 1C 10C", "1D 3C 5D 10H 10S"],
            &["4H 5S 6H 1C 10C", "7S 8S 9S 2H 4D", "1D 3C 5D 10H 10S"],
        ],
        "ES LH JD",
    );
    play_round(&mut game, &plans[0]);
    play_round(&mut game, &plans[1]);
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.players[0].round_points, vec![19, 12]);
    assert_eq!(view.players[1].round_points, vec![12, 19]);
    assert_eq!(
        view.players[2].round_points,
        vec![0, 0],
        "a forfeit scores nothing"
    );
    assert_eq!(view.players[0].points, 31);
}

#[test]
fn an_absolute_tie_makes_both_players_win_and_each_draws_a_figure() {
    let (mut game, plans) = rigged(
        Mode::Complete,
        0,
        &[&["7S 8S 9S 2H 4D", "7H 8H 9H 2D 4S", "1D 3C 5D 10H 10S"]],
        "ES LH JD",
    );
    play_round(&mut game, &plans[0]);
    let view = game.view(Viewer::Spectator);
    let round = view.last_round.unwrap();
    assert_eq!(round.winners, vec![1, 0], "in dealing order");
    assert_eq!(round.decided_by, Some(DecidedBy::Shared));
    assert_eq!(
        (view.players[0].figures.len(), view.players[1].figures.len()),
        (1, 1)
    );
}

#[test]
fn with_too_few_figures_tied_winners_draw_in_dealing_order() {
    let (mut game, plans) = rigged(
        Mode::Simplified,
        0,
        &[&["7S 8S 9S 2H 4D", "7H 8H 9H 2D 4S", "2C 4C 6C 8C 10C"]],
        "ES",
    );
    play_round(&mut game, &plans[0]);
    let view = omniscient(&game);
    // Dealer 0: seat 1 is first in dealing order and draws the last figure.
    assert_eq!(view.players[1].figures.len(), 1);
    assert_eq!(view.players[0].figures.len(), 0);
    assert!(
        game.outcome().is_some(),
        "the empty Power Pile ends the game"
    );
}

#[test]
fn a_square_winner_with_one_figure_left_draws_one() {
    let (mut game, plans) = rigged(
        Mode::Complete,
        2,
        &[&["7S 7H 7D 7C 2H", "1S 3H 5D 9C 9S", "1H 3D 5C 9H 10D"]],
        "EH",
    );
    play_round(&mut game, &plans[0]);
    let view = omniscient(&game);
    assert_eq!(view.players[0].figures.len(), 1);
    assert_eq!(view.last_round.unwrap().draws[0].count, 1);
}

#[test]
fn a_round_everyone_forfeits_draws_nothing_and_counts_toward_the_cap() {
    let config = DemosConfig {
        round_cap: Some(2),
        ..config(Mode::Complete)
    };
    let (mut game, plans) = rigged_with(
        config,
        0,
        &[
            &[FORFEIT[0], FORFEIT[1], FORFEIT[2]],
            &[FORFEIT[1], FORFEIT[2], FORFEIT[0]],
        ],
        "ES LH JD",
        |_| {},
    );
    play_round(&mut game, &plans[0]);
    let round = omniscient(&game).last_round.unwrap();
    assert_eq!(
        (round.winners.len(), round.decided_by, round.draws.len()),
        (0, None, 0)
    );
    assert_eq!(omniscient(&game).power_pile, 3);
    play_round(&mut game, &plans[1]);
    assert!(game.outcome().is_some(), "the round cap of 2 is reached");
    assert_eq!(omniscient(&game).power_pile, 3);
}

#[test]
fn the_main_phase_ends_when_the_power_pile_is_empty() {
    let (mut game, plans) = rigged(
        Mode::Simplified,
        0,
        &[&["7S 8S 9S 3H 5D", FORFEIT_NO_ACES[0], FORFEIT_NO_ACES[3]]],
        "ES",
    );
    play_round(&mut game, &plans[0]);
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.phase, Phase::Over);
    assert_eq!(view.round, 1);
}

#[test]
fn the_default_round_cap_of_the_simplified_game_is_twelve() {
    let rounds: Vec<[&str; 3]> = (0..3)
        .map(|r| {
            [
                FORFEIT_NO_ACES[r % 3],
                FORFEIT_NO_ACES[(r + 1) % 3],
                FORFEIT_NO_ACES[(r + 2) % 3],
            ]
        })
        .collect();
    let rounds: Vec<&[&str]> = rounds.iter().map(|r| &r[..]).collect();
    let (mut game, plans) = rigged_with(config(Mode::Simplified), 0, &rounds, "ES LH", |r| {
        r.rounds_played = 9
    });
    for plan in &plans {
        assert!(game.outcome().is_none());
        play_round(&mut game, plan);
    }
    assert!(game.outcome().is_some());
    assert_eq!(game.view(Viewer::Spectator).round, 12);
}
