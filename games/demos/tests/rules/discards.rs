//! The three discard turns: simultaneous commits applied in clockwise priority, the sequential
//! option, the visible discards and the pack guard.

use pandemonium_demos::{
    Demos, DemosAction, DemosConfig, DemosError, DiscardOrder, DiscardView, MissedTake, Mode,
    Phase, Take, Turn,
};
use pandemonium_game_contract::{Game, RuleError, SeededChance, SharedRefusal, Viewer};

use super::support::*;

fn three_players(mode: Mode, order: DiscardOrder) -> (Demos, Plan) {
    let forfeit: [&str; 3] = if mode == Mode::Simplified {
        [FORFEIT_NO_ACES[0], FORFEIT_NO_ACES[1], FORFEIT_NO_ACES[2]]
    } else {
        [FORFEIT[0], FORFEIT[1], FORFEIT[2]]
    };
    let config = DemosConfig {
        discard_order: order,
        ..config(mode)
    };
    let (game, mut plans) = rigged_with(config, 0, &[&forfeit], "ES LH JD", |_| {});
    (game, plans.remove(0))
}

fn public_turn(game: &mut Demos, plan: &Plan) {
    for seat in [1, 2, 0] {
        apply(
            game,
            seat,
            DemosAction::PublicDiscard {
                card: plan.junk[seat as usize][0],
            },
        );
    }
}

fn refused(game: &Demos, seat: u8, action: DemosAction) -> DemosError {
    let mut copy = game.clone();
    let error = copy
        .apply(seat, &action, &mut SeededChance::from_u64(0))
        .unwrap_err();
    assert!(copy == *game, "a refused action leaves the state untouched");
    error
}

#[test]
fn every_player_commits_the_public_discard_at_once_and_in_private() {
    let (mut game, plan) = three_players(Mode::Complete, DiscardOrder::Simultaneous);
    assert_eq!(game.to_act().iter().collect::<Vec<_>>(), vec![0, 1, 2]);
    let action = DemosAction::PublicDiscard {
        card: plan.junk[1][0],
    };
    apply(&mut game, 1, action);
    assert_eq!(game.to_act().iter().collect::<Vec<_>>(), vec![0, 2]);
    assert_eq!(seat_view(&game, 1).my_commit, Some(action));
    assert!(game.legal_actions(1).is_empty(), "a commit is final");
    assert_eq!(
        refused(&game, 1, action),
        DemosError::Shared(SharedRefusal::NotYourTurn)
    );
    for viewer in [Viewer::Seat(0), Viewer::Seat(2), Viewer::Spectator] {
        let view = game.view(viewer);
        assert_eq!(view.my_commit, None);
        assert!(
            view.players[1].turns.is_empty(),
            "nothing is applied before the last commit"
        );
        assert_eq!(view.players[1].hand, None);
    }
}

#[test]
fn commits_are_applied_in_clockwise_priority_from_the_dealers_left_whatever_their_order() {
    let (mut game, plan) = three_players(Mode::Complete, DiscardOrder::Simultaneous);
    // Committed 0, 2, 1; the pack still gives its top card to seat 1, then 2, then 0.
    for seat in [0, 2, 1] {
        apply(
            &mut game,
            seat,
            DemosAction::PublicDiscard {
                card: plan.junk[seat as usize][0],
            },
        );
    }
    for seat in 0..3u8 {
        assert!(
            hand(&game, seat).contains(&plan.finals[seat as usize][3]),
            "seat {seat}"
        );
    }
    assert_eq!(phase(&game), Phase::SecretDiscard);
}

#[test]
fn a_visible_discard_taken_by_an_earlier_player_becomes_the_top_of_the_pack_and_the_player_is_told()
{
    let (mut game, plan) = three_players(Mode::Complete, DiscardOrder::Simultaneous);
    public_turn(&mut game, &plan);
    let wanted = plan.junk[0][0];
    let top = omniscient(&game).revealed.unwrap().peoples_pack[0];
    // Seat 2 commits first, but seat 1 sits closer to the dealer's left.
    apply(
        &mut game,
        2,
        DemosAction::SecretDiscard {
            card: plan.junk[2][1],
            take: Take::Discard(wanted),
        },
    );
    apply(
        &mut game,
        1,
        DemosAction::SecretDiscard {
            card: plan.junk[1][1],
            take: Take::Discard(wanted),
        },
    );
    apply(&mut game, 0, DemosAction::KeepHand);
    assert!(hand(&game, 1).contains(&wanted));
    assert!(
        hand(&game, 2).contains(&top),
        "seat 2 receives the top of the pack instead"
    );
    let two = seat_view(&game, 2);
    assert_eq!(two.players[2].turns[1].took, Some(Take::Pack));
    assert_eq!(
        two.players[2].turns[1].wanted,
        Some(wanted),
        "and is told so"
    );
    let one = seat_view(&game, 1);
    assert_eq!(
        one.players[2].turns[1].wanted, None,
        "only the player is told"
    );
    assert_eq!(one.players[1].turns[1].took, Some(Take::Discard(wanted)));
    assert_eq!(one.players[0].turns[0].taken_by, Some(1));
}

#[test]
fn in_the_simplified_game_the_player_who_missed_a_visible_discard_is_told_in_the_round_result() {
    // The simplified game resolves right after the Secret Discard and deals the next round at
    // once, clearing the turns: the round's result is where the player learns what happened.
    let (mut game, plan) = three_players(Mode::Simplified, DiscardOrder::Simultaneous);
    public_turn(&mut game, &plan);
    let wanted = plan.junk[0][0];
    for seat in [2, 1] {
        apply(
            &mut game,
            seat,
            DemosAction::SecretDiscard {
                card: plan.junk[seat as usize][1],
                take: Take::Discard(wanted),
            },
        );
    }
    apply(
        &mut game,
        0,
        DemosAction::SecretDiscard {
            card: plan.junk[0][1],
            take: Take::Pack,
        },
    );
    let two = seat_view(&game, 2);
    assert_eq!(two.round, 2, "the next round is dealt at once");
    assert!(two.players[2].turns.is_empty(), "the turns are cleared");
    let result = two.last_round.expect("the round's result");
    assert_eq!(
        result.missed,
        vec![MissedTake {
            seat: 2,
            turn: Turn::Secret,
            wanted
        }],
        "seat 2 asked for the card seat 1 took first"
    );
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        let view = game.view(viewer);
        assert_eq!(
            view.last_round.expect("the round's result").missed,
            vec![],
            "{viewer:?} is not told what seat 2 asked for"
        );
    }
}

#[test]
fn in_sequential_order_each_player_resolves_in_turn_and_cards_go_first_come_first_served() {
    let (mut game, plan) = three_players(Mode::Complete, DiscardOrder::Sequential);
    for seat in [1, 2, 0] {
        assert_eq!(game.to_act().iter().collect::<Vec<_>>(), vec![seat]);
        apply(
            &mut game,
            seat,
            DemosAction::PublicDiscard {
                card: plan.junk[seat as usize][0],
            },
        );
    }
    let wanted = plan.junk[0][0];
    assert_eq!(game.to_act().iter().collect::<Vec<_>>(), vec![1]);
    apply(
        &mut game,
        1,
        DemosAction::SecretDiscard {
            card: plan.junk[1][1],
            take: Take::Discard(wanted),
        },
    );
    assert!(hand(&game, 1).contains(&wanted), "applied at once");
    let gone = DemosAction::SecretDiscard {
        card: plan.junk[2][1],
        take: Take::Discard(wanted),
    };
    assert!(!game.legal_actions(2).contains(&gone));
    assert_eq!(refused(&game, 2, gone), DemosError::NotAvailable);
    assert_eq!(
        seat_view(&game, 2).players[1].turns[1].took,
        Some(Take::Discard(wanted))
    );
}

#[test]
fn the_secret_discard_is_mandatory_in_the_simplified_game() {
    let (mut game, plan) = three_players(Mode::Simplified, DiscardOrder::Simultaneous);
    public_turn(&mut game, &plan);
    assert!(!game.legal_actions(0).contains(&DemosAction::KeepHand));
    let error = refused(&game, 0, DemosAction::KeepHand);
    assert_eq!(error.rule(), "discard_required");
}

#[test]
fn the_secret_discard_is_optional_in_the_complete_game() {
    let (mut game, plan) = three_players(Mode::Complete, DiscardOrder::Simultaneous);
    public_turn(&mut game, &plan);
    assert_eq!(game.default_action(0), Some(DemosAction::KeepHand));
    for seat in 0..3 {
        apply(&mut game, seat, DemosAction::KeepHand);
    }
    assert_eq!(
        seat_view(&game, 0).players[2].turns[1].discard,
        DiscardView::Kept
    );
    assert_eq!(seat_view(&game, 0).players[2].turns[1].took, None);
}

#[test]
fn a_player_may_take_back_their_own_public_discard() {
    let (mut game, plan) = three_players(Mode::Simplified, DiscardOrder::Simultaneous);
    public_turn(&mut game, &plan);
    let own = plan.junk[0][0];
    let action = DemosAction::SecretDiscard {
        card: plan.junk[0][1],
        take: Take::Discard(own),
    };
    assert!(game.legal_actions(0).contains(&action));
    apply(&mut game, 0, action);
}

#[test]
fn the_simplified_round_resolves_after_the_secret_discard_without_a_veto_poll() {
    let (mut game, plan) = three_players(Mode::Simplified, DiscardOrder::Simultaneous);
    public_turn(&mut game, &plan);
    for seat in 0..3 {
        apply(
            &mut game,
            seat,
            DemosAction::SecretDiscard {
                card: plan.junk[seat as usize][1],
                take: Take::Pack,
            },
        );
    }
    let view = omniscient(&game);
    assert_eq!(view.round, 2);
    assert_eq!(view.last_round.unwrap().round, 1);
}

#[test]
fn the_unanimous_turn_offers_untaken_public_discards_and_revealed_secret_discards() {
    let (mut game, plan) = three_players(Mode::Complete, DiscardOrder::Simultaneous);
    public_turn(&mut game, &plan);
    let taken = plan.junk[1][0];
    apply(
        &mut game,
        0,
        DemosAction::SecretDiscard {
            card: plan.junk[0][1],
            take: Take::Discard(taken),
        },
    );
    apply(
        &mut game,
        1,
        DemosAction::SecretDiscard {
            card: plan.junk[1][1],
            take: Take::Pack,
        },
    );
    apply(&mut game, 2, DemosAction::KeepHand);
    assert!(matches!(phase(&game), Phase::VetoPoll { .. }));
    assert_eq!(
        seat_view(&game, 2).visible_discards,
        vec![plan.junk[0][0], plan.junk[2][0]]
    );
    pass_poll(&mut game);
    let view = seat_view(&game, 2);
    assert_eq!(
        view.visible_discards,
        vec![
            plan.junk[0][0],
            plan.junk[0][1],
            plan.junk[1][1],
            plan.junk[2][0]
        ],
        "the secret discards are turned face up"
    );
    assert_eq!(
        view.players[1].turns[1].discard,
        DiscardView::FaceUp {
            card: plan.junk[1][1]
        }
    );
}

#[test]
fn unanimous_discards_stay_face_down_and_cannot_be_taken() {
    let (mut game, plan) = three_players(Mode::Complete, DiscardOrder::Sequential);
    for seat in [1, 2, 0] {
        apply(
            &mut game,
            seat,
            DemosAction::PublicDiscard {
                card: plan.junk[seat as usize][0],
            },
        );
    }
    for seat in [1, 2, 0] {
        apply(&mut game, seat, DemosAction::KeepHand);
    }
    pass_poll(&mut game);
    let discarded = plan.junk[1][1];
    apply(
        &mut game,
        1,
        DemosAction::UnanimousDiscard {
            card: discarded,
            take: Take::Pack,
        },
    );
    let view = seat_view(&game, 2);
    assert_eq!(
        view.players[1].turns[2].discard,
        DiscardView::FaceDown { card: None }
    );
    assert!(!view.visible_discards.contains(&discarded));
    assert_eq!(
        refused(
            &game,
            2,
            DemosAction::UnanimousDiscard {
                card: plan.junk[2][1],
                take: Take::Discard(discarded)
            }
        ),
        DemosError::NotAvailable
    );
    assert_eq!(
        seat_view(&game, 1).players[1].turns[2].discard,
        DiscardView::FaceDown {
            card: Some(discarded)
        },
        "its owner still sees it"
    );
}

#[test]
fn with_the_pack_empty_a_player_must_take_a_visible_discard() {
    // A short rigged pack: the deal and the Public Discard use all 18 cards.
    let deck = cards("2S 3S 4S 5S 6S 7S 8S 9S 10S 2H 3H 4H 5H 6H 7H 8H 9H 10H");
    let mut game = Demos::rigged(&config(Mode::Simplified), 3, 0, vec![deck], vec![]).unwrap();
    let firsts: Vec<_> = (0..3).map(|s| hand(&game, s)[0]).collect();
    for seat in 0..3 {
        apply(
            &mut game,
            seat,
            DemosAction::PublicDiscard {
                card: firsts[seat as usize],
            },
        );
    }
    assert_eq!(omniscient(&game).peoples_pack, 0);
    let card = hand(&game, 1)[0];
    assert_eq!(
        refused(
            &game,
            1,
            DemosAction::SecretDiscard {
                card,
                take: Take::Pack
            }
        ),
        DemosError::PackEmpty
    );
    assert!(game.legal_actions(1).iter().all(|a| !matches!(
        a,
        DemosAction::SecretDiscard {
            take: Take::Pack,
            ..
        }
    )));
    // Seats 1 and 2 both ask for seat 0's discard: seat 1 gets it; seat 2, with no pack to
    // fall back on, keeps their hand.
    let wanted = firsts[0];
    let two = hand(&game, 2);
    apply(
        &mut game,
        1,
        DemosAction::SecretDiscard {
            card,
            take: Take::Discard(wanted),
        },
    );
    apply(
        &mut game,
        2,
        DemosAction::SecretDiscard {
            card: two[0],
            take: Take::Discard(wanted),
        },
    );
    let zero = hand(&game, 0)[0];
    apply(
        &mut game,
        0,
        DemosAction::SecretDiscard {
            card: zero,
            take: Take::Discard(firsts[1]),
        },
    );
    let view = omniscient(&game);
    let record = view.players[2].turns[1];
    assert_eq!(
        (record.discard, record.took, record.wanted),
        (DiscardView::Kept, None, Some(wanted))
    );
    assert_eq!(view.players[2].hand.clone().unwrap(), two);
}

#[test]
fn with_the_pack_empty_and_nothing_visible_a_player_keeps_their_hand() {
    let deck = cards("2S 3S 4S 5S 6S 7S 8S 9S 10S 2H 3H 4H 5H 6H 7H");
    let mut game = Demos::rigged(&config(Mode::Simplified), 3, 0, vec![deck], vec![]).unwrap();
    assert_eq!(game.legal_actions(1), vec![DemosAction::KeepHand]);
    let card = hand(&game, 1)[0];
    assert_eq!(
        refused(&game, 1, DemosAction::PublicDiscard { card }),
        DemosError::PackEmpty
    );
    for seat in 0..3 {
        apply(&mut game, seat, DemosAction::KeepHand);
    }
    assert_eq!(
        game.legal_actions(1),
        vec![DemosAction::KeepHand],
        "the secret turn too"
    );
}

#[test]
fn the_peoples_pack_holds_exactly_enough_for_five_players_in_the_complete_game() {
    let mut game = Demos::new(&config(Mode::Complete), 5, &mut SeededChance::from_u64(3)).unwrap();
    let mut chance = SeededChance::from_u64(4);
    for turn in 0..3 {
        if turn == 2 {
            pass_poll(&mut game);
        }
        for seat in 0..5 {
            let hand = hand(&game, seat);
            let action = match turn {
                0 => DemosAction::PublicDiscard { card: hand[0] },
                1 => DemosAction::SecretDiscard {
                    card: hand[0],
                    take: Take::Pack,
                },
                _ => DemosAction::UnanimousDiscard {
                    card: hand[0],
                    take: Take::Pack,
                },
            };
            if turn == 2 && seat == 0 {
                assert_eq!(
                    omniscient(&game).peoples_pack,
                    5,
                    "one card left for each player"
                );
            }
            game.apply(seat, &action, &mut chance).unwrap();
        }
    }
    assert_eq!(omniscient(&game).last_round.unwrap().round, 1);
}

#[test]
fn refused_actions_carry_stable_codes_and_change_nothing() {
    let (game, plan) = three_players(Mode::Complete, DiscardOrder::Simultaneous);
    let not_held = plan.junk[1][0];
    assert_eq!(
        refused(&game, 0, DemosAction::PublicDiscard { card: not_held }).rule(),
        "not_in_hand"
    );
    assert_eq!(refused(&game, 0, DemosAction::Veto).rule(), "wrong_step");
    assert_eq!(
        refused(&game, 0, DemosAction::KeepHand).rule(),
        "discard_required"
    );
    assert_eq!(
        refused(&game, 7, DemosAction::Proceed).rule(),
        "not_your_turn"
    );
    let message = refused(&game, 0, DemosAction::PublicDiscard { card: not_held }).to_string();
    assert_eq!(message, "You do not hold that card.");
}
