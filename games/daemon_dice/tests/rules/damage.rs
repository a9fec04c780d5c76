//! Step 3b and the body parts' effects on damage: Brains, Mouths, poison, grabs released by
//! damage, defeat when every die is stunned, wounded or grabbed; ray, gas and poison
//! immunity; the Fire, Frost and Rot powers and their scaling.

use pandemonium_daemon_dice::{
    Breed::{Blood, Death, Fire, Frost, Rot},
    DaemonDice, DaemonDiceConfig, DaemonError, Damage, Face, Health, Part, Rigging, Step, Zone,
};
use pandemonium_game_contract::Game;

use super::support::*;

#[test]
fn the_attacker_places_brain_targeted_damage_before_the_victim_places_the_rest() {
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Leg, Part::Brain, Part::Pincer]),
            legs(Death, 4),
        ]),
        &[Face::Leg, Face::Brain, Face::Pincer],
    );
    act(&mut game, 0, A::Brain { attack: 0 });
    act_rolling(&mut game, 0, A::Done, &[Face::Dodge; 4]);
    act(&mut game, 1, A::Done);
    let Step::Suffer { points } = step(&game) else {
        panic!("damage to place")
    };
    assert_eq!(
        points
            .iter()
            .map(|p| (p.damage, p.targeted))
            .collect::<Vec<_>>(),
        vec![
            (Damage::Stun, true),
            (Damage::Stun, true),
            (Damage::Wound, false)
        ]
    );
    assert_eq!(game.to_act().iter().collect::<Vec<_>>(), vec![0]);
    assert_eq!(game.default_action(0), Some(A::Suffer { die: 0 }));
    act(&mut game, 0, A::Suffer { die: 3 });
    act(&mut game, 0, A::Suffer { die: 2 });
    assert_eq!(game.to_act().iter().collect::<Vec<_>>(), vec![1]);
    act(&mut game, 1, A::Suffer { die: 0 });
    assert_eq!(health(&game, 1, 3), Health::Stunned);
    assert_eq!(health(&game, 1, 2), Health::Stunned);
    assert_eq!(health(&game, 1, 0), Health::Wounded);
}

#[test]
fn an_undefended_mouth_lets_the_attacker_recover_a_stunned_die_before_poison_stuns_its_stinger() {
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Mouth, Part::Stinger, Part::Leg]),
            legs(Death, 4),
        ])
        .stunned(0, 2),
        &[Face::Mouth, Face::Stinger],
    );
    act(&mut game, 0, A::Poison { attack: 1 });
    act_rolling(&mut game, 0, A::Done, &[Face::Dodge; 4]);
    act(&mut game, 1, A::Done);
    assert_eq!(step(&game), Step::MouthRecover { left: 1 });
    assert_eq!(game.to_act().iter().collect::<Vec<_>>(), vec![0]);
    assert_eq!(listed(&game, 0, |die| A::MouthRecover { die }), vec![2]);
    act(&mut game, 0, A::MouthRecover { die: 2 });
    assert_eq!(health(&game, 0, 2), Health::Healthy);
    assert_eq!(
        health(&game, 0, 1),
        Health::Stunned,
        "poison stunned the Stinger after"
    );
}

#[test]
fn damage_on_a_grabbing_tentacle_releases_its_grab() {
    let mut game = start(
        Rigging::new(vec![
            legs(Blood, 2),
            daemon(Death, &[Part::Tentacle, Part::Leg]),
        ])
        .grab((1, 0), (0, 1)),
        &[Face::Stun],
    );
    act(&mut game, 0, A::Done);
    act_rolling(&mut game, 1, A::Done, &[Face::Dodge]);
    act(&mut game, 1, A::Done);
    act(&mut game, 1, A::Suffer { die: 0 });
    assert_eq!(die(&game, 1, 0).holding, None);
    assert_eq!(die(&game, 0, 1).grabbed_by, None);
}

#[test]
fn a_daemon_whose_every_die_is_stunned_wounded_or_grabbed_loses_and_releases_its_grabs() {
    // Seat 1: a Tentacle holding seat 0's die 2, and a Leg that seat 0's Tentacle holds.
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Leg, Part::Tentacle, Part::Leg]),
            daemon(Death, &[Part::Tentacle, Part::Leg]),
        ])
        .grab((1, 0), (0, 2))
        .grab((0, 1), (1, 1)),
        &[],
    );
    act_rolling(&mut game, 0, A::Done, &[Face::Stun]);
    act(&mut game, 0, A::Done);
    assert_eq!(step(&game), Step::Release);
    // Seat 1 keeps its grab: its Leg is grabbed, so nothing is left to roll.
    act(&mut game, 1, A::Done);
    assert!(game.outcome().is_some(), "nothing to roll: seat 1 lost");
    assert_eq!(
        die(&game, 0, 2).grabbed_by,
        None,
        "the loser released its grab"
    );
}

#[test]
fn suffering_the_last_healthy_ungrabbed_die_loses_the_battle() {
    let mut game = start(
        Rigging::new(vec![legs(Blood, 1), legs(Death, 2)]).wounded(1, 0),
        &[Face::Leg],
    );
    act_rolling(&mut game, 0, A::Done, &[Face::Dodge]);
    act(&mut game, 1, A::Done);
    let outcome = game.outcome().expect("the last die was stunned");
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(
        health(&game, 1, 1),
        Health::Stunned,
        "placed automatically: one choice"
    );
}

#[test]
fn a_ray_against_a_daemon_immune_to_its_breed_does_nothing() {
    let mut game = start(
        Rigging::new(vec![daemon(Death, &[Part::Eye]), legs(Death, 2)]),
        &[Face::Eye],
    );
    act_rolling(&mut game, 0, A::Done, &[Face::Dodge, Face::Dodge]);
    assert!(view(&game).pending_status[0].immune);
    assert_eq!(step(&game), Step::Attack, "no defence needed, no damage");
    assert!((0..2).all(|d| health(&game, 1, d) == Health::Healthy));
}

#[test]
fn gas_from_a_breed_the_victim_is_immune_to_is_ignored() {
    let mut game = start(
        Rigging::new(vec![
            daemon(Death, &[Part::Lungs, Part::Leg]),
            legs(Death, 3),
        ]),
        &[Face::Lungs, Face::Minus],
    );
    act(&mut game, 0, A::Done);
    assert_eq!(
        step(&game),
        Step::SetAside { left: 1 },
        "only the plain minus counts"
    );
}

#[test]
fn poison_against_an_immune_daemon_is_ignored_but_the_stinger_still_stuns_itself() {
    let mut game = start(
        Rigging::new(vec![daemon(Death, &[Part::Stinger]), legs(Death, 3)]),
        &[Face::Stinger],
    );
    act(&mut game, 0, A::Poison { attack: 0 });
    act_rolling(&mut game, 0, A::Done, &[Face::Dodge; 3]);
    act(&mut game, 1, A::Done);
    let Step::Suffer { points } = step(&game) else {
        panic!("the stun remains")
    };
    assert_eq!(points.len(), 1);
    assert_eq!(points[0].damage, Damage::Stun);
    assert_eq!(health(&game, 0, 0), Health::Stunned);
}

#[test]
fn only_a_stinger_can_inject_poison_and_only_once() {
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Stinger, Part::Leg]),
            legs(Death, 2),
        ]),
        &[Face::Stinger, Face::Leg],
    );
    assert_eq!(
        refused(&game, 0, A::Poison { attack: 1 }),
        DaemonError::NotAStinger
    );
    act(&mut game, 0, A::Poison { attack: 0 });
    assert_eq!(
        refused(&game, 0, A::Poison { attack: 0 }),
        DaemonError::NotAStinger
    );
}

#[test]
fn a_spike_cannot_go_with_an_eye() {
    let game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Eye, Part::Spike]),
            legs(Death, 2),
        ]),
        &[Face::Eye, Face::Spike],
    );
    assert_eq!(
        refused(&game, 0, A::Spike { attack: 0 }),
        DaemonError::SpikeNotAllowed
    );
}

#[test]
fn several_spikes_stack_on_one_attack_without_making_it_harder_to_defend() {
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Leg, Part::Spike, Part::Spike]),
            legs(Death, 5),
        ]),
        &[Face::Leg, Face::Spike, Face::Spike],
    );
    act(&mut game, 0, A::Spike { attack: 0 });
    act(&mut game, 0, A::Spike { attack: 0 });
    act_rolling(&mut game, 0, A::Done, &[Face::Dodge; 5]);
    assert_eq!(view(&game).pending_status[0].boosts, 0);
    act(&mut game, 1, A::Done);
    let Step::Suffer { points } = step(&game) else {
        panic!()
    };
    let wounds = points.iter().filter(|p| p.damage == Damage::Wound).count();
    assert_eq!((points.len(), wounds), (4, 2));
}

#[test]
fn a_fire_purebreds_first_undefended_stun_each_turn_becomes_a_wound() {
    let mut game = start(
        Rigging::new(vec![legs(Fire, 2), legs(Death, 4)]),
        &[Face::Leg, Face::Stun],
    );
    act_rolling(&mut game, 0, A::Done, &[Face::Dodge; 4]);
    act(&mut game, 1, A::Done);
    let Step::Suffer { points } = step(&game) else {
        panic!()
    };
    assert_eq!(
        points.iter().map(|p| p.damage).collect::<Vec<_>>(),
        vec![Damage::Wound, Damage::Stun, Damage::Stun]
    );
}

#[test]
fn a_frost_purebred_of_26_dice_turns_two_wounds_a_turn_into_stuns() {
    let mut attacker = daemon(Blood, &[Part::Pincer, Part::Pincer, Part::Pincer]);
    attacker.extend(legs(Blood, 23));
    let mut rolled = vec![Face::Pincer; 3];
    rolled.extend([Face::Block; 23]);
    let config = DaemonDiceConfig {
        size: 26,
        ..DaemonDiceConfig::default()
    };
    let mut game = start(
        Rigging::new(vec![attacker, legs(Frost, 26)]).config(config),
        &rolled,
    );
    act_rolling(&mut game, 0, A::Done, &[Face::Stun; 26]);
    act(&mut game, 1, A::Done);
    for die in 0..3 {
        act(&mut game, 1, A::Suffer { die });
    }
    assert_eq!(health(&game, 1, 0), Health::Stunned);
    assert_eq!(health(&game, 1, 1), Health::Stunned);
    assert_eq!(health(&game, 1, 2), Health::Wounded);
}

#[test]
fn a_rot_purebred_rots_a_stunned_die_of_its_target_at_the_end_of_its_turn() {
    let mut game = start(
        Rigging::new(vec![legs(Rot, 2), legs(Death, 3)]).stunned(1, 1),
        &[Face::Stun, Face::Block],
    );
    act(&mut game, 0, A::Done);
    assert_eq!(step(&game), Step::Rot { left: 1 });
    assert_eq!(listed(&game, 0, |die| A::Rot { die }), vec![1]);
    act_rolling(&mut game, 0, A::Rot { die: 1 }, &[Face::Block, Face::Block]);
    assert_eq!(health(&game, 1, 1), Health::Wounded);
    assert_eq!(view(&game).active, Some(1));
}

#[test]
fn a_tentacle_cannot_grab_a_stunned_wounded_or_already_grabbed_die() {
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Tentacle, Part::Tentacle]),
            legs(Death, 4),
        ])
        .stunned(1, 0)
        .wounded(1, 1),
        &[Face::Tentacle, Face::Tentacle],
    );
    assert_eq!(
        listed(&game, 0, |die| A::Grab { tentacle: 0, die }),
        vec![2, 3]
    );
    act(
        &mut game,
        0,
        A::Grab {
            tentacle: 0,
            die: 2,
        },
    );
    assert_eq!(
        refused(
            &game,
            0,
            A::Grab {
                tentacle: 1,
                die: 2
            }
        ),
        DaemonError::NotEligible
    );
    assert_eq!(zone(&game, 0, 0), Zone::Arrayed);
}

#[test]
fn grabbing_a_grabbing_tentacle_releases_what_it_held() {
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Tentacle, Part::Leg]),
            daemon(Death, &[Part::Tentacle, Part::Leg]),
        ])
        .grab((1, 0), (0, 1)),
        &[Face::Tentacle],
    );
    act(
        &mut game,
        0,
        A::Grab {
            tentacle: 0,
            die: 0,
        },
    );
    assert_eq!(die(&game, 0, 1).grabbed_by, None);
    assert!(die(&game, 1, 0).grabbed_by.is_some());
}

#[test]
fn a_battle_stopped_by_the_turn_limit_ranks_survivors_by_healthy_dice() {
    let config = DaemonDiceConfig {
        size: 3,
        turn_limit: 1,
        ..DaemonDiceConfig::default()
    };
    let mut game = start(
        Rigging::new(vec![legs(Blood, 3), legs(Death, 3)])
            .config(config)
            .stunned(1, 0),
        &[Face::Block; 3],
    );
    act(&mut game, 0, A::Done);
    let outcome = game.outcome().expect("the limit ends the battle");
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.scores, vec![3, 2]);
    assert_eq!(outcome.placements, vec![1, 2]);
}

#[test]
fn every_pending_decision_of_the_foe_defaults_to_a_legal_lowest_indexed_die() {
    let game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Mouth, Part::Leg]),
            legs(Death, 2),
        ])
        .stunned(0, 1),
        &[Face::Mouth],
    );
    let mut game: DaemonDice = game;
    act_rolling(&mut game, 0, A::Done, &[Face::Dodge, Face::Dodge]);
    act(&mut game, 1, A::Done);
    assert_eq!(game.default_action(0), Some(A::MouthRecover { die: 1 }));
}
