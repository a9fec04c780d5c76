//! The Harmony of Powers: the best E-L-J trio a player presents, and the Election that ranks
//! trios in every mode.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::cards::{Figure, Power, Suit};
use crate::config::Mode;
use pandemonium_game_contract::Seat;

/// How harmonious a trio is. Ordered: no trio < monocolour < bicolour < tricolour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "demos/")]
pub enum Harmony {
    NoTrio,
    Monocolour,
    Bicolour,
    Tricolour,
}

/// A figure in front of a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Held {
    pub figure: Figure,
    pub face_up: bool,
    /// The suit a Media named for this figure; such a figure must be part of the final trio.
    pub media: Option<Suit>,
}

impl Held {
    pub fn face_down(figure: Figure) -> Held {
        Held {
            figure,
            face_up: false,
            media: None,
        }
    }

    /// The suit the figure counts as in the Election.
    pub fn suit(&self) -> Option<Suit> {
        self.media.or(self.figure.suit())
    }
}

/// The trio a player presents: the figures (as printed), the suits they count as, and how
/// harmonious that is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "demos/")]
pub struct Trio {
    /// Executive, Legislative, Judicial.
    pub figures: [Figure; 3],
    pub suits: [Suit; 3],
    pub harmony: Harmony,
    /// The trio matches the suits declared under the Creator's Suggestion.
    pub as_declared: bool,
}

fn harmony_of(suits: [Suit; 3]) -> Harmony {
    let [a, b, c] = suits;
    if a == b && b == c {
        Harmony::Monocolour
    } else if a != b && b != c && a != c {
        Harmony::Tricolour
    } else {
        Harmony::Bicolour
    }
}

/// The best trio among `figures`: the most harmonious, then one that matches the declaration.
/// Every Media-marked figure must be in it, so two marked figures of the same power leave no
/// legal trio at all (proposal 10).
pub fn best_trio(figures: &[Held], declared: Option<[Suit; 3]>) -> Option<Trio> {
    let mut candidates: [Vec<&Held>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for power in Power::ALL {
        let of_power = figures.iter().filter(|h| h.figure.power() == Some(power));
        let marked: Vec<&Held> = of_power.clone().filter(|h| h.media.is_some()).collect();
        candidates[power as usize] = match marked.len() {
            0 => of_power.collect(),
            1 => marked,
            _ => return None,
        };
    }
    let mut best: Option<Trio> = None;
    for e in &candidates[0] {
        for l in &candidates[1] {
            for j in &candidates[2] {
                let suits = [e, l, j].map(|h| h.suit().expect("E/L/J have suits"));
                let trio = Trio {
                    figures: [e.figure, l.figure, j.figure],
                    suits,
                    harmony: harmony_of(suits),
                    as_declared: declared == Some(suits),
                };
                let key = |t: &Trio| (t.harmony, t.as_declared);
                if best.as_ref().is_none_or(|b| key(&trio) > key(b)) {
                    best = Some(trio);
                }
            }
        }
    }
    best
}

/// What decided the Election.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "demos/")]
pub enum ElectionDecidedBy {
    /// One side presented the most harmonious trio.
    Harmony,
    /// Creator's Suggestion: among equal trios, the one presented as declared takes primacy.
    Declaration,
    /// Equal trios: the highest cumulative points.
    CumulativePoints,
    /// Equal trios and points: the victory is shared.
    Shared,
    /// 2 vs 2 + 1, Priority 2, Option 1: the Independent has strictly the most points.
    PeoplesSpokesperson,
    /// 2 vs 2 + 1, Priority 2, Option 2: the Independent keeps both Media and holds a J.
    MediaController,
    /// 2 vs 2 + 1, Priority 2, Option 3: the Independent holds a bicolour trio.
    Dissident,
    /// Nobody presents a trio that counts: the game has no winner.
    NoWinner,
}

/// One player as the Election sees them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub seat: Seat,
    /// Team number in team modes, the seat itself in individual games.
    pub side: u8,
    pub points: u16,
    pub trio: Option<Trio>,
    /// 2 vs 2 + 1 only.
    pub independent: bool,
    /// Media the player keeps face up (the Independent holding both).
    pub media_kept: u8,
    pub holds_judicial: bool,
}

/// The Election's result: the winning seats (every member of a winning team) and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "demos/")]
pub struct Election {
    pub winners: Vec<Seat>,
    pub decided_by: ElectionDecidedBy,
    /// 2 vs 2 + 1: the priority (1-3) that produced the winner.
    pub priority: Option<u8>,
}

/// A contender in one ranking step: a side's best harmony, whether it presents its declared
/// trio, and the points that break ties.
#[derive(Debug, Clone, Copy)]
struct Entry {
    side: u8,
    harmony: Harmony,
    declared: bool,
    points: u16,
}

/// Ranks entries by harmony, then declaration (when `primacy` is played), then points; `None`
/// when nobody has a trio.
fn rank(entries: &[Entry], primacy: bool) -> Option<(Vec<u8>, ElectionDecidedBy)> {
    let top = entries.iter().map(|e| e.harmony).max()?;
    if top == Harmony::NoTrio {
        return None;
    }
    let mut field: Vec<Entry> = entries
        .iter()
        .copied()
        .filter(|e| e.harmony == top)
        .collect();
    let mut decided_by = ElectionDecidedBy::Harmony;
    if field.len() > 1 && primacy && field.iter().any(|e| e.declared) {
        field.retain(|e| e.declared);
        decided_by = ElectionDecidedBy::Declaration;
    }
    if field.len() > 1 {
        let most = field.iter().map(|e| e.points).max().unwrap_or(0);
        field.retain(|e| e.points == most);
        decided_by = if field.len() == 1 {
            ElectionDecidedBy::CumulativePoints
        } else {
            ElectionDecidedBy::Shared
        };
    }
    let mut sides: Vec<u8> = field.iter().map(|e| e.side).collect();
    sides.dedup();
    Some((sides, decided_by))
}

/// One entry per side: its best member's harmony, whether a member presents that harmony as
/// declared, and its highest individual cumulative total (proposal 13).
fn side_entries<'a>(candidates: impl Iterator<Item = &'a Candidate> + Clone) -> Vec<Entry> {
    let mut sides: Vec<u8> = candidates.clone().map(|c| c.side).collect();
    sides.sort_unstable();
    sides.dedup();
    sides
        .into_iter()
        .map(|side| {
            let members = candidates.clone().filter(|c| c.side == side);
            let harmony_of = |c: &Candidate| c.trio.as_ref().map_or(Harmony::NoTrio, |t| t.harmony);
            let harmony = members
                .clone()
                .map(harmony_of)
                .max()
                .unwrap_or(Harmony::NoTrio);
            Entry {
                side,
                harmony,
                declared: members.clone().any(|c| {
                    harmony_of(c) == harmony && c.trio.as_ref().is_some_and(|t| t.as_declared)
                }),
                points: members.map(|c| c.points).max().unwrap_or(0),
            }
        })
        .collect()
}

fn seats_of(candidates: &[Candidate], sides: &[u8]) -> Vec<Seat> {
    candidates
        .iter()
        .filter(|c| sides.contains(&c.side))
        .map(|c| c.seat)
        .collect()
}

/// The Final Phase: who wins the game.
pub fn elect(mode: Mode, candidates: &[Candidate], primacy: bool) -> Election {
    let no_winner = Election {
        winners: Vec::new(),
        decided_by: ElectionDecidedBy::NoWinner,
        priority: None,
    };
    if mode != Mode::Team2v2Plus1 {
        // Individual games rank players; 2 vs 2 and 2 vs 3 rank teams by their best member.
        return match rank(&side_entries(candidates.iter()), primacy) {
            Some((sides, decided_by)) => Election {
                winners: seats_of(candidates, &sides),
                decided_by,
                priority: None,
            },
            None => no_winner,
        };
    }
    let harmony = |c: &Candidate| c.trio.as_ref().map_or(Harmony::NoTrio, |t| t.harmony);
    // Priority 1: any tricolour trio; ties between such players go to their own points.
    let tricolour: Vec<Entry> = candidates
        .iter()
        .filter(|c| harmony(c) == Harmony::Tricolour)
        .map(|c| Entry {
            side: c.side,
            harmony: Harmony::Tricolour,
            declared: c.trio.as_ref().is_some_and(|t| t.as_declared),
            points: c.points,
        })
        .collect();
    if let Some((mut sides, decided_by)) = rank(&tricolour, primacy) {
        sides.sort_unstable();
        sides.dedup();
        return Election {
            winners: seats_of(candidates, &sides),
            decided_by,
            priority: Some(1),
        };
    }
    // Priority 2: the Independent's own paths.
    if let Some(independent) = candidates.iter().find(|c| c.independent) {
        let most_points = candidates
            .iter()
            .filter(|c| c.seat != independent.seat)
            .all(|c| c.points < independent.points);
        let path = if most_points {
            Some(ElectionDecidedBy::PeoplesSpokesperson)
        } else if independent.media_kept == 2 && independent.holds_judicial {
            Some(ElectionDecidedBy::MediaController)
        } else if harmony(independent) == Harmony::Bicolour {
            Some(ElectionDecidedBy::Dissident)
        } else {
            None
        };
        if let Some(decided_by) = path {
            return Election {
                winners: vec![independent.seat],
                decided_by,
                priority: Some(2),
            };
        }
    }
    // Priority 3: the teams' residual trios, bicolour over monocolour (Quick Reference).
    let teams = candidates.iter().filter(|c| !c.independent);
    match rank(&side_entries(teams), primacy) {
        Some((sides, decided_by)) => Election {
            winners: seats_of(candidates, &sides),
            decided_by,
            priority: Some(3),
        },
        None => no_winner,
    }
}
