//! Daemon construction (proposal 15), breeds (proposal 13) and what views show.

use pandemonium_daemon_dice::{
    Breed::{self, Blood, Death, Fire, Frost, Rot},
    DaemonDice, DaemonDiceConfig, DaemonError, Die, Lineage, Part, Step,
    breeds::{classify, declaration_needed, power_level},
};
use pandemonium_game_contract::{Game, SeededChance, SharedRefusal, Viewer};

use super::support::*;

fn pick(game: &mut DaemonDice, seat: u8, breed: Breed, part: Part) {
    act(game, seat, A::Pick { breed, part });
}

#[test]
fn each_player_picks_exactly_the_agreed_number_of_dice_in_secret() {
    let mut game = DaemonDice::new(&sized(2), 2, &mut nothing()).unwrap();
    assert_eq!(game.to_act().iter().collect::<Vec<_>>(), vec![0, 1]);
    pick(&mut game, 0, Fire, Part::Eye);
    pick(&mut game, 0, Fire, Part::Tail);
    assert_eq!(
        refused(
            &game,
            0,
            A::Pick {
                breed: Fire,
                part: Part::Leg
            }
        ),
        DaemonError::DaemonComplete
    );
    assert_eq!(game.legal_actions(0), vec![A::Ready { breed: None }]);
    act(&mut game, 0, A::Ready { breed: None });
    assert_eq!(
        refused(&game, 0, A::Ready { breed: None }),
        DaemonError::Shared(SharedRefusal::NotYourTurn),
        "a ready daemon waits for the others"
    );
    let mine = game.view(Viewer::Seat(0));
    let theirs = game.view(Viewer::Seat(1));
    let spectator = game.view(Viewer::Spectator);
    assert_eq!(mine.daemons[0].picks.as_ref().unwrap().len(), 2);
    assert_eq!(theirs.daemons[0].picks, None, "the foe sees no picks");
    assert_eq!(spectator.daemons[0].picks, None);
    assert_eq!(theirs.daemons[0].picked, 2);
    assert!(theirs.daemons[0].ready);
    assert!(theirs.daemons[0].dice.is_empty());
}

#[test]
fn the_daemons_are_revealed_together_when_everyone_is_ready() {
    let mut game = DaemonDice::new(&sized(1), 2, &mut nothing()).unwrap();
    pick(&mut game, 1, Rot, Part::Pincer);
    act(&mut game, 1, A::Ready { breed: None });
    pick(&mut game, 0, Frost, Part::Leg);
    assert_eq!(game.view(Viewer::Seat(0)).daemons[1].dice.len(), 0);
    act_rolling(
        &mut game,
        0,
        A::Ready { breed: None },
        &[
            pandemonium_daemon_dice::Face::Dodge,
            pandemonium_daemon_dice::Face::Stun,
        ],
    );
    let view = game.view(Viewer::Seat(0));
    assert_eq!(view.daemons[1].dice[0].part, Part::Pincer);
    assert_eq!(view.daemons[0].lineage, Some(Lineage::Purebred(Frost)));
    assert_ne!(view.step, Step::Construction);
}

#[test]
fn the_lobby_can_limit_copies_of_one_die() {
    let config = DaemonDiceConfig {
        size: 3,
        max_copies: 1,
        ..DaemonDiceConfig::default()
    };
    let mut game = DaemonDice::new(&config, 2, &mut nothing()).unwrap();
    pick(&mut game, 0, Blood, Part::Arm);
    assert_eq!(
        refused(
            &game,
            0,
            A::Pick {
                breed: Blood,
                part: Part::Arm
            }
        ),
        DaemonError::TooManyCopies
    );
    pick(&mut game, 0, Death, Part::Arm);
}

#[test]
fn there_is_no_copy_limit_by_default() {
    let mut game = DaemonDice::new(&sized(3), 2, &mut nothing()).unwrap();
    for _ in 0..3 {
        pick(&mut game, 0, Blood, Part::Arm);
    }
}

#[test]
fn sizes_are_5_13_26_or_any_agreed_number_and_bad_options_are_refused() {
    for size in [1, 5, 13, 26, 39] {
        assert!(DaemonDice::new(&sized(size), 2, &mut nothing()).is_ok());
    }
    assert!(DaemonDice::new(&sized(0), 2, &mut nothing()).is_err());
    assert!(DaemonDice::new(&sized(40), 2, &mut nothing()).is_err());
    assert!(DaemonDice::new(&sized(5), 7, &mut nothing()).is_err());
    let lungs = DaemonDiceConfig {
        lungs_initiative: 3,
        ..DaemonDiceConfig::default()
    };
    assert!(DaemonDice::new(&lungs, 2, &mut nothing()).is_err());
}

#[test]
fn an_exact_half_and_half_daemon_declares_its_breed_as_it_gets_ready() {
    let mut game = DaemonDice::new(&sized(2), 2, &mut nothing()).unwrap();
    pick(&mut game, 0, Fire, Part::Arm);
    pick(&mut game, 0, Frost, Part::Arm);
    assert_eq!(
        refused(&game, 0, A::Ready { breed: None }),
        DaemonError::BreedUndeclared
    );
    assert_eq!(
        refused(&game, 0, A::Ready { breed: Some(Rot) }),
        DaemonError::NotYourBreed
    );
    assert_eq!(
        game.legal_actions(0),
        vec![
            A::Ready { breed: Some(Fire) },
            A::Ready { breed: Some(Frost) }
        ]
    );
    act(&mut game, 0, A::Ready { breed: Some(Frost) });
    assert_eq!(
        game.view(Viewer::Seat(1)).daemons[0].declared,
        None,
        "the declaration is as secret as the picks"
    );
    pick(&mut game, 1, Rot, Part::Arm);
    pick(&mut game, 1, Rot, Part::Leg);
    assert_eq!(
        refused(&game, 1, A::Ready { breed: Some(Rot) }),
        DaemonError::NotYourBreed,
        "only a half-and-half daemon declares"
    );
    act_rolling(
        &mut game,
        1,
        A::Ready { breed: None },
        &[
            pandemonium_daemon_dice::Face::Dodge,
            pandemonium_daemon_dice::Face::Dodge,
            pandemonium_daemon_dice::Face::Stun,
            pandemonium_daemon_dice::Face::Stun,
        ],
    );
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.daemons[0].lineage, Some(Lineage::HalfBreed(Frost)));
    assert_eq!(view.daemons[1].lineage, Some(Lineage::Purebred(Rot)));
}

#[test]
fn a_complete_daemon_shows_the_others_nothing_of_its_build_until_the_reveal() {
    let mut game = DaemonDice::new(&sized(2), 3, &mut nothing()).unwrap();
    // Seat 0 is exactly half Fire, half Frost (it owes a declaration); seat 1 a Rot purebred.
    pick(&mut game, 0, Fire, Part::Arm);
    pick(&mut game, 0, Frost, Part::Arm);
    pick(&mut game, 1, Rot, Part::Arm);
    pick(&mut game, 1, Rot, Part::Leg);
    for viewer in [Viewer::Seat(2), Viewer::Spectator] {
        let view = game.view(viewer);
        assert_eq!(
            view.daemons[0], view.daemons[1],
            "{viewer:?} tells the builds apart"
        );
        assert!(!view.daemons[0].ready, "nobody is ready before saying so");
    }
    let waiting: Vec<_> = game.to_act().iter().collect();
    assert_eq!(waiting, vec![0, 1, 2]);

    act(&mut game, 0, A::Ready { breed: Some(Frost) });
    act(&mut game, 1, A::Ready { breed: None });
    for viewer in [Viewer::Seat(2), Viewer::Spectator] {
        let view = game.view(viewer);
        assert_eq!(view.daemons[0], view.daemons[1]);
        assert!(view.daemons[0].ready);
    }
}

#[test]
fn a_daemon_can_be_ready_only_once_all_its_dice_are_picked() {
    let mut game = DaemonDice::new(&sized(2), 2, &mut nothing()).unwrap();
    pick(&mut game, 0, Fire, Part::Arm);
    assert_eq!(
        refused(&game, 0, A::Ready { breed: None }),
        DaemonError::DaemonIncomplete
    );
}

fn dice(list: &[(Breed, Part)]) -> Vec<Die> {
    list.iter().map(|&(b, p)| Die::new(b, p)).collect()
}

#[test]
fn a_purebred_has_every_die_of_one_breed() {
    assert_eq!(classify(&legs(Fire, 13), None), Lineage::Purebred(Fire));
}

#[test]
fn a_half_breed_has_at_least_half_but_not_all_of_one_breed() {
    let mut seven = legs(Rot, 7);
    seven.extend(dice(&[
        (Blood, Part::Arm),
        (Death, Part::Arm),
        (Fire, Part::Arm),
        (Frost, Part::Arm),
        (Blood, Part::Eye),
        (Death, Part::Eye),
    ]));
    assert_eq!(classify(&seven, None), Lineage::HalfBreed(Rot));
    // Six of thirteen is less than half (ceil(13 / 2) = 7); six of twelve is half.
    let mut six = seven.clone();
    six[0] = Die::new(Frost, Part::Eye);
    assert_eq!(
        classify(&six, None),
        Lineage::Crossbred,
        "six alike Rot Legs"
    );
    assert_eq!(classify(&six[1..], None), Lineage::HalfBreed(Rot));
}

#[test]
fn a_mongrel_has_no_two_dice_alike_and_repeats_make_a_crossbred_daemon() {
    let mongrel = dice(&[
        (Blood, Part::Arm),
        (Blood, Part::Eye),
        (Death, Part::Arm),
        (Fire, Part::Arm),
        (Frost, Part::Arm),
    ]);
    assert_eq!(classify(&mongrel, None), Lineage::Mongrel);
    let mut twice = mongrel.clone();
    twice[1] = Die::new(Death, Part::Arm);
    assert_eq!(classify(&twice, None), Lineage::Crossbred);
}

#[test]
fn only_an_exact_split_between_two_breeds_needs_a_declaration() {
    let split = dice(&[
        (Fire, Part::Arm),
        (Fire, Part::Eye),
        (Rot, Part::Arm),
        (Rot, Part::Eye),
    ]);
    assert_eq!(declaration_needed(&split), Some([Fire, Rot]));
    assert_eq!(classify(&split, Some(Rot)), Lineage::HalfBreed(Rot));
    assert_eq!(declaration_needed(&split[..3]), None);
}

#[test]
fn purebred_powers_act_once_more_for_each_started_block_of_13_dice() {
    assert_eq!(power_level(5), 1);
    assert_eq!(power_level(13), 1);
    assert_eq!(power_level(14), 2);
    assert_eq!(power_level(26), 2);
    assert_eq!(power_level(27), 3);
}

#[test]
fn a_half_breed_is_immune_to_dice_sharing_its_primary_plastic_or_ink() {
    // Blood is red plastic, black ink: Fire (red plastic) and Death (black ink) share a colour.
    let blood = Lineage::HalfBreed(Blood);
    assert!(blood.immune_to(Blood));
    assert!(blood.immune_to(Fire));
    assert!(blood.immune_to(Death));
    assert!(!blood.immune_to(Frost));
    assert!(
        !blood.immune_to(Rot),
        "Rot's red is its ink, not its plastic"
    );
}

#[test]
fn a_purebred_is_immune_only_to_its_own_breed_and_mongrels_to_nothing() {
    assert!(Lineage::Purebred(Fire).immune_to(Fire));
    assert!(!Lineage::Purebred(Fire).immune_to(Blood));
    assert!(!Lineage::Mongrel.immune_to(Fire));
    assert!(!Lineage::Crossbred.immune_to(Fire));
}

#[test]
fn a_player_who_times_out_in_construction_gets_the_default_daemon() {
    let mut game = DaemonDice::new(&sized(3), 2, &mut nothing()).unwrap();
    let mut chance = SeededChance::from_u64(1);
    while game.view(Viewer::Spectator).step == Step::Construction {
        let seat = game.to_act().iter().next().unwrap();
        let default = game.default_action(seat).unwrap();
        game.apply(seat, &default, &mut chance).unwrap();
    }
    let view = game.view(Viewer::Spectator);
    let parts: Vec<Part> = view.daemons[0].dice.iter().map(|d| d.part).collect();
    assert_eq!(parts, vec![Part::Arm, Part::Brain, Part::Eye]);
}
