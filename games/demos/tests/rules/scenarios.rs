//! The test scenarios of `RULES.md`, exactly as written.

use pandemonium_demos::harmony::{Candidate, best_trio, elect};
use pandemonium_demos::scoring::best_combination;
use pandemonium_demos::{
    CombinationKind, DecidedBy, DemosAction, DemosError, DiscardView, ElectionDecidedBy, Harmony,
    Mode, Phase, ScandalEvent, Suit, Take, VetoUsed,
};
use pandemonium_game_contract::{Game, SharedRefusal, Viewer};

use super::support::*;

fn points(hand: &str) -> Option<u8> {
    best_combination(&cards(hand), true, None).map(|s| s.combination.points)
}

// Scenario 1: scoring.

#[test]
fn a_one_suit_sequence_scores_twelve_plus_its_lowest_card() {
    assert_eq!(points("7S 8S 9S"), Some(19));
}

#[test]
fn a_two_suit_sequence_scores_eight_plus_its_lowest_card() {
    assert_eq!(points("4H 5S 6H"), Some(12));
}

#[test]
fn a_three_suit_sequence_scores_four_plus_its_lowest_card() {
    assert_eq!(points("1C 2D 3H"), Some(5));
}

#[test]
fn a_harmonious_square_scores_thirty() {
    let scored = best_combination(&cards("7S 7H 7D 7C"), true, None).unwrap();
    assert_eq!(scored.combination.kind, CombinationKind::HarmoniousSquare);
    assert_eq!(scored.combination.points, 30);
}

#[test]
fn eight_nine_ten_of_one_suit_is_the_best_possible_sequence_at_twenty() {
    assert_eq!(points("8D 9D 10D"), Some(20));
    let best = cards("8D 9D 10D");
    for a in pandemonium_demos::Card::all() {
        for b in pandemonium_demos::Card::all() {
            for c in pandemonium_demos::Card::all() {
                if let Some(s) = best_combination(&[a, b, c], false, None) {
                    assert!(s.combination.points <= 20, "{a} {b} {c}");
                    if s.combination.points == 20 {
                        assert_eq!(s.combination.kind, CombinationKind::OneSuitSequence);
                        assert!(best[0].rank() == s.combination.cards[0].rank());
                    }
                }
            }
        }
    }
}

#[test]
fn a_hand_with_no_sequence_and_no_square_forfeits() {
    assert_eq!(points("1S 3H 5D 7C 9S"), None);
}

// Scenario 2: tie-break 1.

#[test]
fn the_most_cards_of_one_suit_in_the_whole_hand_breaks_a_tie_and_the_winner_draws_one_figure() {
    let (mut game, plans) = rigged(
        Mode::Complete,
        2,
        &[&["7S 8S 9S 2S 3H", "7D 8D 9D 5C 6C", "1H 1D 5H 10C 10H"]],
        "ES LH JD",
    );
    play_round(&mut game, &plans[0]);
    let view = omniscient(&game);
    let round = view.last_round.unwrap();
    assert_eq!(round.combinations[0].as_ref().unwrap().points, 19);
    assert_eq!(round.combinations[1].as_ref().unwrap().points, 19);
    assert_eq!(round.winners, vec![0], "A wins");
    assert_eq!(round.decided_by, Some(DecidedBy::SuitCount));
    assert_eq!(view.players[0].figures.len(), 1, "A draws one figure");
    assert_eq!(view.players[1].figures.len(), 0);
    assert_eq!(view.power_pile, 2);
}

// Scenario 3: tie-break 2.

#[test]
fn the_highest_unplayed_total_breaks_a_tie_in_points_and_suits() {
    let (mut game, plans) = rigged(
        Mode::Complete,
        2,
        &[&["7S 8S 9S 2H 3D", "7D 8D 9D 4C 5H", "1H 1C 6H 10C 10H"]],
        "ES LH JD",
    );
    play_round(&mut game, &plans[0]);
    let round = omniscient(&game).last_round.unwrap();
    assert_eq!(round.winners, vec![1], "B wins");
    assert_eq!(round.decided_by, Some(DecidedBy::UnplayedTotal));
    // Only the winner and the deciding level are announced: the unplayed cards stay secret.
    let spectator = serde_json::to_string(&game.view(Viewer::Spectator)).unwrap();
    for unplayed in ["2H", "3D", "4C", "5H"] {
        assert!(
            !spectator.contains(&format!("\"{unplayed}\"")),
            "{unplayed} leaked"
        );
    }
}

// Scenario 4: the Harmonious Square.

#[test]
fn a_square_winner_draws_two_figures_and_every_other_holder_reveals_their_first_e_l_or_j() {
    let (mut game, plans) = rigged_with(
        config(Mode::Complete),
        3,
        &[&[
            "7S 7H 7D 7C 2H",
            "1S 3H 5D 9C 9S",
            "1H 3D 5C 9H 10D",
            "1D 3C 5S 10S 10H",
        ]],
        "EH LD JC LS EC",
        |r| r.figures = vec![vec![], figures("M ES LH"), vec![], figures("JD")],
    );
    play_round(&mut game, &plans[0]);
    let view = game.view(Viewer::Spectator);
    let round = view.last_round.clone().unwrap();
    assert_eq!(round.winners, vec![0]);
    assert_eq!(round.combinations[0].as_ref().unwrap().points, 30);
    assert_eq!(view.players[0].figures.len(), 2, "A draws 2 figures");
    assert_eq!(view.power_pile, 3);
    // The Media is skipped: B's earliest E/L/J is the E of spades.
    let b = &view.players[1].figures;
    assert!(!b[0].face_up && b[1].face_up && !b[2].face_up);
    assert_eq!(b[1].figure, Some(figures("ES")[0]));
    assert!(view.players[3].figures[0].face_up);
    assert!(
        view.players[2].figures.is_empty(),
        "players without figures are unaffected"
    );
    assert_eq!(round.square_reveals, vec![1, 3]);
}

// Scenario 5: the Election.

fn candidate(seat: u8, points: u16, held: &str) -> Candidate {
    let held: Vec<_> = figures(held)
        .into_iter()
        .map(pandemonium_demos::harmony::Held::face_down)
        .collect();
    Candidate {
        seat,
        side: seat,
        points,
        trio: best_trio(&held, None),
        independent: false,
        media_kept: 0,
        holds_judicial: held.iter().any(|h| h.figure.to_string().starts_with('J')),
    }
}

#[test]
fn a_tricolour_trio_beats_a_bicolour_trio_with_more_points() {
    let x = candidate(0, 10, "ES LH JD");
    let y = candidate(1, 50, "EC LC JH");
    assert_eq!(y.trio.as_ref().unwrap().harmony, Harmony::Bicolour);
    let election = elect(Mode::Complete, &[x, y], false);
    assert_eq!(election.winners, vec![0], "X wins");
    assert_eq!(election.decided_by, ElectionDecidedBy::Harmony);
}

#[test]
fn the_tricolour_winner_is_elected_at_the_end_of_a_match() {
    // The last round is forfeited by everyone: nothing is drawn and the round cap ends it.
    let (mut game, plans) = rigged_with(
        config(Mode::Complete),
        0,
        &[&[FORFEIT[0], FORFEIT[1], FORFEIT[2]]],
        "EH",
        |r| {
            r.rounds_played = 13;
            r.figures = vec![figures("ES LH JD"), figures("EC LC JH"), vec![]];
            r.points = vec![10, 50, 0];
        },
    );
    play_round(&mut game, &plans[0]);
    let outcome = game.outcome().expect("the round cap ends the match");
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(
        outcome.placements,
        vec![1, 2, 3],
        "then bicolour, then no trio"
    );
    let election = omniscient(&game).election.unwrap();
    assert_eq!(election.result.decided_by, ElectionDecidedBy::Harmony);
    assert_eq!(
        election.trios[0].as_ref().unwrap().harmony,
        Harmony::Tricolour
    );
}

#[test]
fn between_two_tricolour_trios_the_higher_cumulative_total_wins() {
    let election = elect(
        Mode::Complete,
        &[candidate(0, 40, "ES LH JD"), candidate(1, 41, "EC LD JH")],
        false,
    );
    assert_eq!(election.winners, vec![1]);
    assert_eq!(election.decided_by, ElectionDecidedBy::CumulativePoints);
}

#[test]
fn two_tricolour_trios_with_equal_totals_share_the_victory() {
    let election = elect(
        Mode::Complete,
        &[candidate(0, 40, "ES LH JD"), candidate(1, 40, "EC LD JH")],
        false,
    );
    assert_eq!(election.winners, vec![0, 1]);
    assert_eq!(election.decided_by, ElectionDecidedBy::Shared);
}

// Scenario 6: the veto.

#[test]
fn a_veto_in_round_three_cancels_the_unanimous_turn_and_none_is_left_for_round_five() {
    let rounds: &[&[&str]] = &[
        &[FORFEIT[0], FORFEIT[1], FORFEIT[2], FORFEIT[3]],
        &[FORFEIT[1], FORFEIT[2], FORFEIT[3], FORFEIT[0]],
        &[FORFEIT[2], FORFEIT[3], FORFEIT[0], FORFEIT[1]],
    ];
    let (mut game, plans) = rigged_with(config(Mode::Complete), 3, rounds, "ES LH JD", |r| {
        r.rounds_played = 2
    });
    // Round 3: seat 0 makes a secret discard; the poll starts at the dealer's left (seat 0).
    assert_eq!(omniscient(&game).round, 3);
    let plan = &plans[0];
    for seat in 0..4 {
        apply(
            &mut game,
            seat,
            DemosAction::PublicDiscard {
                card: plan.junk[seat as usize][0],
            },
        );
    }
    let secret = plan.junk[0][1];
    apply(
        &mut game,
        0,
        DemosAction::SecretDiscard {
            card: secret,
            take: Take::Pack,
        },
    );
    for seat in 1..4 {
        apply(&mut game, seat, DemosAction::KeepHand);
    }
    apply(&mut game, 0, DemosAction::Pass);
    apply(&mut game, 1, DemosAction::Pass);
    assert_eq!(
        seat_view(&game, 1).players[0].turns[1].discard,
        DiscardView::FaceDown { card: None }
    );
    apply(&mut game, 2, DemosAction::Veto);

    // No Unanimous turn: the round resolved and round 4 is dealt; the secret discard was
    // never shown.
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.round, 4);
    assert_eq!(view.phase, Phase::PublicDiscard);
    assert_eq!(
        view.last_round.unwrap().veto,
        Some(VetoUsed {
            side: 2,
            by: Some(2)
        })
    );
    assert_eq!(view.vetoes, vec![1, 1, 0, 1], "player 2 has no veto left");
    assert!(
        !serde_json::to_string(&game.view(Viewer::Seat(1)))
            .unwrap()
            .contains(&format!("\"{secret}\""))
    );

    play_round(&mut game, &plans[1]);

    // Round 5: player 2 is skipped; the others pass; the secret discards are revealed and
    // everyone discards face down, then draws or takes a visible discard.
    let plan = &plans[2];
    for seat in 0..4 {
        apply(
            &mut game,
            seat,
            DemosAction::PublicDiscard {
                card: plan.junk[seat as usize][0],
            },
        );
    }
    let secret = plan.junk[3][1];
    apply(
        &mut game,
        3,
        DemosAction::SecretDiscard {
            card: secret,
            take: Take::Pack,
        },
    );
    for seat in 0..3 {
        apply(&mut game, seat, DemosAction::KeepHand);
    }
    let mut polled = Vec::new();
    while let Phase::VetoPoll { seat, .. } = phase(&game) {
        assert!(game.legal_actions(2).is_empty());
        let mut copy = game.clone();
        let refused = copy.apply(
            2,
            &DemosAction::Veto,
            &mut pandemonium_game_contract::SeededChance::from_u64(0),
        );
        assert_eq!(refused, Err(DemosError::Shared(SharedRefusal::NotYourTurn)));
        polled.push(seat);
        apply(&mut game, seat, DemosAction::Pass);
    }
    // Round 5 is dealt by seat 1: the poll runs 2, 3, 0, 1 and skips player 2.
    assert_eq!(
        polled,
        vec![3, 0, 1],
        "clockwise from the dealer's left, skipping player 2"
    );
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.phase, Phase::UnanimousDiscard);
    assert_eq!(
        view.players[3].turns[1].discard,
        DiscardView::FaceUp { card: secret }
    );
    assert!(view.visible_discards.contains(&secret));
    assert_eq!(view.waiting_for, vec![0, 1, 2, 3], "everyone must discard");
    assert!(!game.legal_actions(1).contains(&DemosAction::KeepHand));
    apply(
        &mut game,
        1,
        DemosAction::UnanimousDiscard {
            card: plan.junk[1][1],
            take: Take::Discard(secret),
        },
    );
    for seat in [0, 2] {
        apply(
            &mut game,
            seat,
            DemosAction::UnanimousDiscard {
                card: plan.junk[seat as usize][1],
                take: Take::Pack,
            },
        );
    }
    let card = hand(&game, 3)[0];
    apply(
        &mut game,
        3,
        DemosAction::UnanimousDiscard {
            card,
            take: Take::Pack,
        },
    );
    let round = omniscient(&game).last_round.unwrap();
    assert_eq!(round.round, 5);
    assert_eq!(round.veto, None);
}

// Scenario 7: the Media.

#[test]
fn a_media_turns_up_the_chosen_face_down_figure_with_a_new_suit_that_must_be_in_the_trio() {
    let (mut game, plans) = rigged_with(
        config(Mode::Complete),
        0,
        &[&[FORFEIT[0], FORFEIT[1], FORFEIT[2], FORFEIT[3]]],
        "EH",
        |r| {
            r.rounds_played = 13;
            r.figures = vec![vec![], figures("M EC"), vec![], figures("EH LS JD LC")];
        },
    );
    play_round(&mut game, &plans[0]);
    assert_eq!(phase(&game), Phase::Scandal { holder: 1 });
    // P1 targets P3's second face-down figure (blind: position 1) and names diamonds.
    assert_eq!(
        seat_view(&game, 1).players[3].figures[1].figure,
        None,
        "targeting is blind"
    );
    apply(
        &mut game,
        1,
        DemosAction::Media {
            target: 3,
            position: 1,
            suit: Suit::Diamonds,
        },
    );
    let view = omniscient(&game);
    let targeted = view.players[3].figures[1];
    assert!(targeted.face_up);
    assert_eq!(targeted.figure, Some(figures("LS")[0]));
    assert_eq!(
        targeted.media,
        Some(Suit::Diamonds),
        "L of spades counts as L of diamonds"
    );
    let trio = view.election.unwrap().trios[3].clone().unwrap();
    assert_eq!(
        trio.figures,
        [figures("EH")[0], figures("LS")[0], figures("JD")[0]]
    );
    assert_eq!(trio.suits, [Suit::Hearts, Suit::Diamonds, Suit::Diamonds]);
    assert_eq!(
        trio.harmony,
        Harmony::Bicolour,
        "the tricolour E-LC-J is no longer allowed"
    );
    assert_eq!(
        view.players[1].figures.len(),
        1,
        "the Media now lies on P3's figure"
    );
}

#[test]
fn an_individual_holding_both_media_discards_them_and_no_action_follows() {
    let (mut game, plans) = rigged_with(
        config(Mode::Complete),
        0,
        &[&[FORFEIT[0], FORFEIT[1], FORFEIT[2], FORFEIT[3], FORFEIT[4]]],
        "EH",
        |r| {
            r.rounds_played = 13;
            r.figures = vec![figures("EC"), vec![], vec![], vec![], figures("M M ES")];
        },
    );
    play_round(&mut game, &plans[0]);
    assert!(game.outcome().is_some(), "no Media action is asked for");
    let view = omniscient(&game);
    assert_eq!(view.scandal, vec![ScandalEvent::Cancelled { holder: 4 }]);
    assert_eq!(view.players[4].figures.len(), 1);
    assert_eq!(view.players[0].figures[0].media, None);
}

// Scenario 8: vetoes in 2 vs 3.

#[test]
fn in_two_versus_three_the_pair_has_two_vetoes_and_the_trio_one() {
    let (game, _) = rigged(
        Mode::Team2v3,
        4,
        &[&[FORFEIT[0], FORFEIT[1], FORFEIT[2], FORFEIT[3], FORFEIT[4]]],
        "ES",
    );
    assert_eq!(game.teams(), Some(vec![0, 1, 0, 1, 1]));
    assert_eq!(game.view(Viewer::Spectator).vetoes, vec![2, 1]);
}

fn team_poll(confirm_both: bool) -> pandemonium_demos::DemosView {
    let (mut game, plans) = rigged(
        Mode::Team2v3,
        4,
        &[&[FORFEIT[0], FORFEIT[1], FORFEIT[2], FORFEIT[3], FORFEIT[4]]],
        "ES LH",
    );
    consult(&mut game);
    let plan = &plans[0];
    for seat in 0..5 {
        apply(
            &mut game,
            seat,
            DemosAction::PublicDiscard {
                card: plan.junk[seat as usize][0],
            },
        );
    }
    for seat in 0..5 {
        apply(&mut game, seat, DemosAction::KeepHand);
    }
    // The pair (team 0) is polled first, at seat 0; both pass.
    assert_eq!(game.to_act().iter().collect::<Vec<_>>(), vec![0, 2]);
    apply(&mut game, 0, DemosAction::Pass);
    apply(&mut game, 2, DemosAction::Pass);
    // The trio (team 1): seat 3 proposes, seats 1 and 4 must confirm.
    assert_eq!(game.to_act().iter().collect::<Vec<_>>(), vec![1, 3, 4]);
    apply(&mut game, 3, DemosAction::Veto);
    assert_eq!(game.to_act().iter().collect::<Vec<_>>(), vec![1, 4]);
    apply(&mut game, 1, DemosAction::ConfirmVeto);
    let answer = if confirm_both {
        DemosAction::ConfirmVeto
    } else {
        DemosAction::DeclineVeto
    };
    apply(&mut game, 4, answer);
    game.view(Viewer::Spectator)
}

#[test]
fn a_team_veto_confirmed_by_every_teammate_is_spent() {
    let view = team_poll(true);
    assert_eq!(view.vetoes, vec![2, 0]);
    assert_ne!(
        view.phase,
        Phase::UnanimousDiscard,
        "the round went to its resolution"
    );
    assert_eq!(
        view.last_round.unwrap().veto,
        Some(VetoUsed { side: 1, by: None }),
        "outside the team, the team is named and not the proposer"
    );
}

#[test]
fn a_team_veto_without_every_teammate_confirming_does_not_happen() {
    let view = team_poll(false);
    assert_eq!(view.vetoes, vec![2, 1]);
    assert_eq!(view.phase, Phase::UnanimousDiscard);
}
