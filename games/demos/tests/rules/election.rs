//! The Election in every mode: individual trios ranked by harmony, then cumulative points; the
//! team modes' best member; the 2 vs 2 + 1 priorities.

use pandemonium_demos::harmony::{Candidate, Held, best_trio, elect};
use pandemonium_demos::{DemosConfig, ElectionDecidedBy, Harmony, Mode, Power, Suit};
use pandemonium_game_contract::Game;

use super::support::*;

fn held(names: &str) -> Vec<Held> {
    figures(names).into_iter().map(Held::face_down).collect()
}

fn player(seat: u8, side: u8, points: u16, figures: &str) -> Candidate {
    let held = held(figures);
    Candidate {
        seat,
        side,
        points,
        trio: best_trio(&held, None),
        independent: false,
        media_kept: held.iter().filter(|h| h.figure.is_media()).count() as u8,
        holds_judicial: held
            .iter()
            .any(|h| h.figure.power() == Some(Power::Judicial)),
    }
}

fn independent(seat: u8, points: u16, figures: &str) -> Candidate {
    Candidate {
        independent: true,
        ..player(seat, 2, points, figures)
    }
}

// Trios.

#[test]
fn a_trio_is_ranked_tricolour_then_bicolour_then_monocolour() {
    let harmony = |f: &str| best_trio(&held(f), None).map(|t| t.harmony);
    assert_eq!(harmony("ES LH JD"), Some(Harmony::Tricolour));
    assert_eq!(harmony("ES LS JD"), Some(Harmony::Bicolour));
    assert_eq!(harmony("ES LS JS"), Some(Harmony::Monocolour));
    assert_eq!(harmony("ES LS EH M"), None);
    assert_eq!(
        harmony("ES LS JS LH JD"),
        Some(Harmony::Tricolour),
        "the best trio is chosen"
    );
}

#[test]
fn a_media_marked_figure_counts_in_its_new_suit_and_must_be_in_the_trio() {
    let mut figures = held("ES LS JS LH JD");
    figures[0].media = Some(Suit::Clubs);
    let trio = best_trio(&figures, None).unwrap();
    assert_eq!(trio.suits[0], Suit::Clubs);
    assert_eq!(trio.harmony, Harmony::Tricolour);
    figures[1].media = Some(Suit::Clubs);
    let trio = best_trio(&figures, None).unwrap();
    assert_eq!(trio.figures[1], pandemonium_demos::Figure::list("LS")[0]);
    assert_eq!(trio.harmony, Harmony::Bicolour);
}

// Individual games.

#[test]
fn a_bicolour_trio_beats_a_monocolour_trio() {
    let election = elect(
        Mode::Complete,
        &[player(0, 0, 0, "ES LS JS"), player(1, 1, 0, "ES LS JH")],
        false,
    );
    assert_eq!(election.winners, vec![1]);
}

#[test]
fn a_monocolour_trio_beats_no_trio_whatever_the_points() {
    let election = elect(
        Mode::Simplified,
        &[player(0, 0, 0, "ES LS JS"), player(1, 1, 99, "ES LH")],
        false,
    );
    assert_eq!(election.winners, vec![0]);
    assert_eq!(election.decided_by, ElectionDecidedBy::Harmony);
}

#[test]
fn without_any_trio_the_game_has_no_winner() {
    let election = elect(
        Mode::Complete,
        &[player(0, 0, 50, "ES LH"), player(1, 1, 9, "")],
        false,
    );
    assert!(election.winners.is_empty());
    assert_eq!(election.decided_by, ElectionDecidedBy::NoWinner);
}

#[test]
fn a_match_without_trios_ends_with_no_winner() {
    let config = DemosConfig {
        round_cap: Some(1),
        ..config(Mode::Simplified)
    };
    let (mut game, plans) = rigged_with(
        config,
        0,
        &[&[FORFEIT_NO_ACES[0], FORFEIT_NO_ACES[1], FORFEIT_NO_ACES[2]]],
        "EH",
        |_| {},
    );
    play_round(&mut game, &plans[0]);
    let outcome = game.outcome().unwrap();
    assert!(outcome.winners.is_empty());
    assert_eq!(
        outcome.placements,
        vec![1, 1, 1],
        "nobody is ahead of anybody"
    );
    assert!(outcome.summary.starts_with("No winner"));
}

#[test]
fn without_a_winner_players_with_no_trio_are_still_placed_by_cumulative_points_from_first() {
    // Four players end without a trio (the last round forfeited by all): there is no winner,
    // and the ranking below the trios is by points, tied players sharing a place.
    let config = DemosConfig {
        round_cap: Some(2),
        ..config(Mode::Simplified)
    };
    let (mut game, plans) = rigged_with(config, 0, &[&FORFEIT_NO_ACES[..]], "EH", |r| {
        r.rounds_played = 1;
        r.figures = vec![figures("ES LH"), vec![], figures("JD"), vec![]];
        r.points = vec![30, 30, 12, 5];
    });
    play_round(&mut game, &plans[0]);
    let outcome = game.outcome().expect("the round cap ends the match");
    assert!(outcome.winners.is_empty());
    assert_eq!(outcome.placements, vec![1, 1, 3, 4]);
    assert!(
        outcome.placements.iter().all(|&p| (1..=4).contains(&p)),
        "no place beyond the table's four seats"
    );
}

#[test]
fn without_a_winner_in_a_team_game_every_player_shares_the_first_place() {
    let config = DemosConfig {
        round_cap: Some(2),
        ..config(Mode::Team2v2)
    };
    let (mut game, plans) = rigged_with(config, 0, &[&FORFEIT[..4]], "EH", |r| {
        r.rounds_played = 1;
        r.points = vec![30, 20, 12, 5];
    });
    play_round(&mut game, &plans[0]);
    let outcome = game.outcome().expect("the round cap ends the match");
    assert!(outcome.winners.is_empty());
    assert_eq!(outcome.placements, vec![1, 1, 1, 1]);
}

// 2 vs 2 and 2 vs 3.

#[test]
fn a_team_is_as_strong_as_its_best_members_own_trio_not_its_pooled_figures() {
    let election = elect(
        Mode::Team2v2,
        &[
            player(0, 0, 0, "ES LH"),
            player(1, 1, 0, "EC LC JC"),
            player(2, 0, 0, "JD"),
            player(3, 1, 0, ""),
        ],
        false,
    );
    assert_eq!(
        election.winners,
        vec![1, 3],
        "both members of the winning team win"
    );
}

#[test]
fn tied_teams_are_separated_by_their_highest_individual_cumulative_total() {
    let election = elect(
        Mode::Team2v3,
        &[
            player(0, 0, 30, "ES LH JD"),
            player(1, 1, 25, "EC LD JH"),
            player(2, 0, 10, ""),
            player(3, 1, 25, ""),
            player(4, 1, 20, ""),
        ],
        false,
    );
    assert_eq!(
        election.winners,
        vec![0, 2],
        "30 beats 25, though the trio's total is higher"
    );
    assert_eq!(election.decided_by, ElectionDecidedBy::CumulativePoints);
}

#[test]
fn teams_tied_on_trio_and_best_total_share_the_victory() {
    let election = elect(
        Mode::Team2v2,
        &[
            player(0, 0, 30, "ES LH JD"),
            player(1, 1, 10, "EC LD JH"),
            player(2, 0, 10, ""),
            player(3, 1, 30, ""),
        ],
        false,
    );
    assert_eq!(election.winners, vec![0, 1, 2, 3]);
    assert_eq!(election.decided_by, ElectionDecidedBy::Shared);
}

#[test]
fn teams_without_trios_leave_the_game_without_a_winner() {
    let election = elect(
        Mode::Team2v2,
        &[
            player(0, 0, 30, "ES"),
            player(1, 1, 10, "LH"),
            player(2, 0, 10, ""),
            player(3, 1, 30, ""),
        ],
        false,
    );
    assert_eq!(election.decided_by, ElectionDecidedBy::NoWinner);
}

// 2 vs 2 + 1.

fn two_v_two_plus_one(
    independent_figures: &str,
    independent_points: u16,
    teams: [&str; 4],
) -> Vec<Candidate> {
    vec![
        player(0, 0, 20, teams[0]),
        player(1, 1, 20, teams[1]),
        player(2, 0, 10, teams[2]),
        player(3, 1, 10, teams[3]),
        independent(4, independent_points, independent_figures),
    ]
}

#[test]
fn priority_one_any_tricolour_trio_wins_for_its_team() {
    let election = elect(
        Mode::Team2v2Plus1,
        &two_v_two_plus_one("EH LH JD", 99, ["", "", "ES LH JD", ""]),
        false,
    );
    assert_eq!(election.winners, vec![0, 2]);
    assert_eq!(election.priority, Some(1));
}

#[test]
fn priority_one_a_tricolour_independent_wins_alone() {
    let election = elect(
        Mode::Team2v2Plus1,
        &two_v_two_plus_one("EH LS JD", 0, ["", "", "", ""]),
        false,
    );
    assert_eq!(election.winners, vec![4]);
    assert_eq!(election.priority, Some(1));
}

#[test]
fn priority_one_ties_go_to_the_tricolour_player_with_the_most_points() {
    let election = elect(
        Mode::Team2v2Plus1,
        &two_v_two_plus_one("EH LS JD", 15, ["", "", "", "EC LD JH"]),
        false,
    );
    assert_eq!(
        election.winners,
        vec![4],
        "15 beats the tricolour team player's 10"
    );
    assert_eq!(election.decided_by, ElectionDecidedBy::CumulativePoints);
    let election = elect(
        Mode::Team2v2Plus1,
        &two_v_two_plus_one("EH LS JD", 10, ["", "", "", "EC LD JH"]),
        false,
    );
    assert_eq!(election.winners, vec![1, 3, 4], "equal points: shared");
}

#[test]
fn priority_two_the_independent_with_strictly_the_most_points_wins() {
    let election = elect(
        Mode::Team2v2Plus1,
        &two_v_two_plus_one("", 21, ["ES LS JH", "", "", ""]),
        false,
    );
    assert_eq!(election.winners, vec![4]);
    assert_eq!(
        (election.priority, election.decided_by),
        (Some(2), ElectionDecidedBy::PeoplesSpokesperson)
    );
}

#[test]
fn priority_two_a_tie_for_the_most_points_does_not_make_a_spokesperson() {
    let election = elect(
        Mode::Team2v2Plus1,
        &two_v_two_plus_one("", 20, ["ES LS JH", "", "", ""]),
        false,
    );
    assert_eq!(election.winners, vec![0, 2]);
    assert_eq!(election.priority, Some(3));
}

#[test]
fn priority_two_both_media_and_a_judicial_make_the_media_controller() {
    let election = elect(
        Mode::Team2v2Plus1,
        &two_v_two_plus_one("M M JC", 0, ["ES LS JH", "", "", ""]),
        false,
    );
    assert_eq!(election.winners, vec![4]);
    assert_eq!(election.decided_by, ElectionDecidedBy::MediaController);
    let election = elect(
        Mode::Team2v2Plus1,
        &two_v_two_plus_one("M M EC", 0, ["ES LS JH", "", "", ""]),
        false,
    );
    assert_eq!(
        election.winners,
        vec![0, 2],
        "no Judicial, no Media Controller"
    );
}

#[test]
fn priority_two_a_bicolour_trio_makes_the_dissident() {
    let election = elect(
        Mode::Team2v2Plus1,
        &two_v_two_plus_one("EC LC JH", 0, ["ES LS JH", "", "", ""]),
        false,
    );
    assert_eq!(election.winners, vec![4]);
    assert_eq!(election.decided_by, ElectionDecidedBy::Dissident);
}

#[test]
fn priority_three_a_teams_bicolour_trio_beats_a_monocolour_one() {
    let election = elect(
        Mode::Team2v2Plus1,
        &two_v_two_plus_one("EC LC JC", 0, ["ES LS JS", "", "", "EH LH JD"]),
        false,
    );
    assert_eq!(
        election.winners,
        vec![1, 3],
        "the Independent's monocolour trio does not count"
    );
    assert_eq!(election.priority, Some(3));
}

#[test]
fn priority_three_ties_go_to_the_team_with_the_highest_individual_total() {
    let mut candidates = two_v_two_plus_one("", 0, ["", "EH LH JH", "ES LS JS", ""]);
    candidates[1].points = 25;
    let election = elect(Mode::Team2v2Plus1, &candidates, false);
    assert_eq!(election.winners, vec![1, 3]);
    assert_eq!(election.decided_by, ElectionDecidedBy::CumulativePoints);
}

#[test]
fn with_no_trio_and_no_independent_path_there_is_no_winner() {
    let election = elect(
        Mode::Team2v2Plus1,
        &two_v_two_plus_one("EC LC JC", 0, ["", "", "", ""]),
        false,
    );
    assert!(election.winners.is_empty());
    assert_eq!(election.decided_by, ElectionDecidedBy::NoWinner);
}

#[test]
fn the_independent_keeping_both_media_wins_as_media_controller_at_the_end_of_a_match() {
    let config = DemosConfig {
        round_cap: Some(1),
        ..config(Mode::Team2v2Plus1)
    };
    let (mut game, plans) = rigged_with(config, 0, &[&FORFEIT], "EH", |r| {
        r.figures = vec![
            figures("ES LS JH"),
            vec![],
            vec![],
            vec![],
            figures("JC M M"),
        ];
        r.points = vec![40, 0, 0, 0, 10];
    });
    play_round(&mut game, &plans[0]);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winners, vec![4]);
    assert_eq!(
        outcome.summary,
        "The Independent (Seat 5) wins the Election: the Media Controller."
    );
}
