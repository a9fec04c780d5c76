//! Initiative and steps 1-2: activation, grabs released, minuses (targeted first), the roll.

use pandemonium_daemon_dice::{
    Breed::{Blood, Death, Fire},
    DaemonDice, DaemonDiceConfig, DaemonError, Face, Part, Rigging, Step, Zone,
};
use pandemonium_game_contract::{Game, ScriptedChance};

use super::support::*;

/// Builds purebred daemons of these parts (seats 0, 1, 2 of Blood, Death, Fire); the last
/// seat to get ready rolls initiative with these raw `below` values.
fn initiative(seats: u8, size: u8, lungs: u8, parts: &[Part], script: &[u32]) -> DaemonDice {
    let config = DaemonDiceConfig {
        size,
        lungs_initiative: lungs,
        ..DaemonDiceConfig::default()
    };
    let mut game = DaemonDice::new(&config, seats, &mut nothing()).unwrap();
    for seat in 0..seats {
        let breed = [Blood, Death, Fire][seat as usize];
        for &part in parts.iter().take(size as usize) {
            game.apply(seat, &A::Pick { breed, part }, &mut nothing())
                .unwrap();
        }
        let mut chance = if seat == seats - 1 {
            ScriptedChance::new(script.iter().copied())
        } else {
            nothing()
        };
        game.apply(seat, &A::Ready { breed: None }, &mut chance)
            .unwrap();
    }
    game
}

/// `below(6)` values for faces.
fn f(face: Face) -> u32 {
    d6(face) as u32 - 1
}

#[test]
fn tied_initiative_is_rolled_again_and_a_third_tie_is_settled_by_a_coin() {
    let (dodge, stun) = (f(Face::Dodge), f(Face::Stun));
    let game = initiative(
        2,
        2,
        0,
        &[Part::Leg, Part::Leg],
        &[
            dodge, stun, dodge, stun, stun, stun, stun, stun, dodge, dodge, dodge, dodge, 1, 2, 2,
        ],
    );
    let init = view(&game).initiative.unwrap();
    assert_eq!(init.rolls.len(), 3);
    assert!(init.coin);
    assert_eq!(init.winner, 1, "the coin picked the second of the tied");
    assert_eq!(view(&game).active, Some(1));
}

#[test]
fn in_multiplayer_only_the_tied_leaders_roll_initiative_again() {
    let (dodge, stun, plus) = (f(Face::Dodge), f(Face::Stun), f(Face::Plus));
    let game = initiative(3, 1, 0, &[Part::Leg], &[dodge, dodge, stun, plus, stun]);
    let init = view(&game).initiative.unwrap();
    assert_eq!(init.rolls.len(), 2);
    assert_eq!(init.rolls[1].faces[2], None, "seat 2 was not tied");
    assert_eq!(init.winner, 0);
}

/// Three daemons of three Legs: seat 0 and seat 1 lead the first roll with 3 points each,
/// seat 2 has 2 (from two Minuses); seat 1's 3 points are Minuses too.
fn leaders_tied_at_three_then(rerolls: &[u32]) -> DaemonDice {
    let (dodge, stun, minus) = (f(Face::Dodge), f(Face::Stun), f(Face::Minus));
    let mut script = vec![dodge, dodge, dodge, minus, minus, minus, minus, minus, stun];
    script.extend(rerolls);
    initiative(3, 3, 0, &[Part::Leg; 3], &script)
}

#[test]
fn only_the_tied_leaders_reroll_and_nobody_below_them_can_overtake_them() {
    let (dodge, stun) = (f(Face::Dodge), f(Face::Stun));
    // The leaders reroll 1 and 0: seat 2's first 2 is not in the running any more.
    let game = leaders_tied_at_three_then(&[dodge, stun, stun, stun, stun, stun]);
    let init = view(&game).initiative.unwrap();
    assert_eq!(init.rolls.len(), 2);
    assert_eq!(init.rolls[1].totals, vec![Some(1), Some(0), None]);
    assert!(!init.coin);
    assert_eq!(
        init.winner, 0,
        "the better of the leaders' new rolls starts"
    );
    assert_eq!(view(&game).active, Some(0));
}

#[test]
fn the_minuses_against_the_first_turn_are_read_from_each_daemons_last_roll() {
    let (dodge, stun) = (f(Face::Dodge), f(Face::Stun));
    let game = leaders_tied_at_three_then(&[dodge, stun, stun, stun, stun, stun]);
    let init = view(&game).initiative.unwrap();
    // Seat 1's three Minuses were rerolled away; seat 2 never rerolled, so its two stand.
    assert_eq!(init.minuses_from, Some(2));
    assert_eq!(step(&game), Step::SetAside { left: 2 });
}

#[test]
fn a_third_tie_is_settled_by_a_coin_among_the_daemons_tied_in_the_last_roll() {
    let (dodge, stun) = (f(Face::Dodge), f(Face::Stun));
    // The leaders tie again at 2 (seat 2's first total) and then at 1; the coin takes the
    // second of the two leaders.
    let game = leaders_tied_at_three_then(&[
        dodge, dodge, stun, dodge, dodge, stun, dodge, stun, stun, dodge, stun, stun, 1,
    ]);
    let init = view(&game).initiative.unwrap();
    assert_eq!(init.rolls.len(), 3);
    assert_eq!(init.rolls[1].faces[2], None, "seat 2 never rerolls");
    assert_eq!(init.rolls[2].faces[2], None, "seat 2 never rerolls");
    assert_eq!(init.rolls[2].totals, vec![Some(1), Some(1), None]);
    assert!(init.coin);
    assert_eq!(
        init.winner, 1,
        "the coin picked the second of the two leaders"
    );
    // Seat 2's two Minuses still count against the winner's first turn.
    assert_eq!(init.minuses_from, Some(2));
}

#[test]
fn the_lobby_can_make_lungs_count_for_initiative() {
    let (lungs, dodge) = (f(Face::Lungs), f(Face::Dodge));
    let game = initiative(2, 1, 2, &[Part::Lungs], &[lungs, dodge]);
    let init = view(&game).initiative.unwrap();
    assert_eq!(init.rolls[0].totals, vec![Some(2), Some(1)]);
    assert_eq!(init.winner, 0);
}

#[test]
fn in_multiplayer_the_non_starter_with_the_most_minuses_applies_them() {
    let (dodge, minus, lungs) = (f(Face::Dodge), f(Face::Minus), f(Face::Lungs));
    // Seat 0: Dodge + Dodge = 2; seat 1: Minus = 1 (and 1 minus); seat 2: Lungs (2 minuses).
    let stun = f(Face::Stun);
    let game = initiative(
        3,
        3,
        0,
        &[Part::Lungs, Part::Leg, Part::Leg],
        &[dodge, dodge, stun, minus, stun, stun, lungs, stun, stun],
    );
    let init = view(&game).initiative.unwrap();
    assert_eq!(init.winner, 0);
    assert_eq!(init.minuses_from, Some(2));
    assert_eq!(
        step(&game),
        Step::SetAside { left: 2 },
        "the Lungs' two minuses"
    );
}

#[test]
fn a_wings_minus_is_placed_by_the_foe_before_the_untargeted_minuses() {
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Wings, Part::Leg]),
            legs(Death, 4),
        ]),
        &[Face::Wings, Face::Minus],
    );
    act(&mut game, 0, A::Done);
    assert_eq!(step(&game), Step::TargetMinus { left: 1 });
    assert_eq!(
        game.to_act().iter().collect::<Vec<_>>(),
        vec![0],
        "the foe decides"
    );
    assert_eq!(
        game.default_action(0),
        Some(A::TargetMinus { die: 0 }),
        "default: the lowest-indexed eligible die"
    );
    act(&mut game, 0, A::TargetMinus { die: 2 });
    assert_eq!(step(&game), Step::SetAside { left: 1 });
    assert_eq!(
        refused(&game, 1, A::SetAside { die: 2 }),
        DaemonError::NotEligible
    );
    act_rolling(
        &mut game,
        1,
        A::SetAside { die: 0 },
        &[Face::Block, Face::Block],
    );
    assert_eq!(zone(&game, 1, 0), Zone::Minused);
    assert_eq!(zone(&game, 1, 2), Zone::Minused);
}

#[test]
fn a_targeted_minus_on_a_grabbing_tentacle_releases_its_grab() {
    // Seat 1's Tentacle holds seat 0's Leg; seat 0 rolls only its Wings.
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Wings, Part::Leg]),
            daemon(Death, &[Part::Tentacle, Part::Leg]),
        ])
        .grab((1, 0), (0, 1)),
        &[Face::Wings],
    );
    assert_eq!(
        zone(&game, 0, 1),
        Zone::Idle,
        "the grabbed die is not rolled"
    );
    act(&mut game, 0, A::Done);
    assert_eq!(step(&game), Step::Release, "seat 1 may release its grab");
    act(&mut game, 1, A::Done);
    act_rolling(&mut game, 0, A::TargetMinus { die: 0 }, &[Face::Stun]);
    assert_eq!(die(&game, 1, 0).holding, None);
    assert_eq!(die(&game, 0, 1).grabbed_by, None);
    assert_eq!(zone(&game, 1, 0), Zone::Minused);
}

#[test]
fn activating_a_grabbing_tentacle_releases_its_target() {
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Tentacle, Part::Leg]),
            legs(Death, 2),
        ])
        .grab((0, 0), (1, 1)),
        &[],
    );
    assert_eq!(step(&game), Step::Release);
    act_rolling(
        &mut game,
        0,
        A::Release { die: 0 },
        &[Face::Stun, Face::Stun],
    );
    assert_eq!(die(&game, 1, 1).grabbed_by, None);
    assert_eq!(
        zone(&game, 0, 0),
        Zone::Arrayed,
        "the Tentacle rolled and attacks"
    );
}

#[test]
fn a_kept_grab_leaves_the_tentacle_out_of_the_roll() {
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Tentacle, Part::Leg]),
            legs(Death, 2),
        ])
        .grab((0, 0), (1, 1)),
        &[],
    );
    act_rolling(&mut game, 0, A::Done, &[Face::Stun]);
    assert_eq!(zone(&game, 0, 0), Zone::Idle);
    assert!(die(&game, 0, 0).holding.is_some());
}

#[test]
fn spent_and_arrayed_dice_return_at_the_start_of_their_owners_next_turn() {
    let mut game = start(
        Rigging::new(vec![legs(Blood, 2), legs(Death, 2)]),
        &[Face::Stun, Face::Plus],
    );
    act(&mut game, 0, A::Boost { attack: 0 });
    act_rolling(&mut game, 0, A::Done, &[Face::Block, Face::Plus]);
    act(&mut game, 1, A::Defend { attack: 0, die: 0 });
    act(&mut game, 1, A::Defend { attack: 0, die: 1 });
    act(&mut game, 1, A::Done);
    // Seat 0 rolls both its dice again.
    act_rolling(&mut game, 1, A::Done, &[Face::Block, Face::Block]);
    assert_eq!(view(&game).active, Some(0));
    assert_eq!(zone(&game, 0, 0), Zone::Rolled);
    assert_eq!(zone(&game, 0, 1), Zone::Rolled);
}

#[test]
fn minuses_and_wings_are_set_aside_against_the_foe_and_lungs_count_two() {
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Lungs, Part::Wings, Part::Leg]),
            legs(Death, 5),
        ]),
        &[Face::Lungs, Face::Wings, Face::Minus],
    );
    let array = view(&game).array.unwrap();
    assert_eq!(array.minuses.len(), 2);
    assert_eq!(array.wings, vec![1]);
    act(&mut game, 0, A::Done);
    act(&mut game, 0, A::TargetMinus { die: 4 });
    assert_eq!(step(&game), Step::SetAside { left: 3 });
}
