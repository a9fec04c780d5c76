//! The end of the match: the Scandal Phase (Media revealed, cancelled, aimed) and the
//! Election of the winner.

use pandemonium_game_contract::{Outcome, Seat};

use crate::actions::DemosError;
use crate::cards::{Power, Suit};
use crate::harmony::{Candidate, ElectionDecidedBy, Harmony, best_trio, elect};
use crate::state::{Demos, ElectionView, ScandalEvent, Step};

impl Demos {
    /// No more rounds: the Scandal Phase in the complete rules, then the Election.
    pub(crate) fn finish_main_phase(&mut self) {
        if !self.mode().is_complete() {
            self.hold_election();
            return;
        }
        // Every Media is announced and turned face up; two in one hand cancel each other.
        for seat in 0..self.seats {
            let independent = self.is_independent(seat);
            let figures = &mut self.players[seat as usize].figures;
            for held in figures.iter_mut().filter(|h| h.figure.is_media()) {
                held.face_up = true;
            }
            if figures.iter().filter(|h| h.figure.is_media()).count() == 2 {
                if independent {
                    self.scandal.push(ScandalEvent::KeptFaceUp { holder: seat });
                } else {
                    figures.retain(|h| !h.figure.is_media());
                    self.scandal.push(ScandalEvent::Cancelled { holder: seat });
                }
            }
        }
        self.advance_scandal(0);
    }

    fn media_holder(&self, seat: Seat) -> bool {
        let figures = &self.players[seat as usize].figures;
        figures.iter().filter(|h| h.figure.is_media()).count() == 1
    }

    fn has_target(&self, holder: Seat) -> bool {
        (0..self.seats).any(|target| {
            target != holder
                && self.players[target as usize]
                    .figures
                    .iter()
                    .any(|h| !h.face_up)
        })
    }

    /// The next Media holder clockwise from the left of the last round's dealer; a holder with
    /// no face-down figure to aim at loses the action.
    fn advance_scandal(&mut self, from: u8) {
        for position in from..self.seats {
            let holder = self.seat_at(position);
            if !self.media_holder(holder) {
                continue;
            }
            if self.has_target(holder) {
                self.step = Step::Scandal { position };
                return;
            }
            self.scandal.push(ScandalEvent::Lost { holder });
        }
        self.hold_election();
    }

    pub(crate) fn check_media(
        &self,
        holder: Seat,
        target: Seat,
        position: u8,
    ) -> Result<(), DemosError> {
        let valid = target != holder
            && target < self.seats
            && self.players[target as usize]
                .figures
                .get(position as usize)
                .is_some_and(|h| !h.face_up && !h.figure.is_media());
        if valid {
            Ok(())
        } else {
            Err(DemosError::BadMediaTarget)
        }
    }

    /// Every Media action open to the holder: any face-down figure of another player, by its
    /// position, with any of the four suits.
    pub(crate) fn media_actions(&self, holder: Seat) -> Vec<crate::DemosAction> {
        let mut actions = Vec::new();
        for target in (0..self.seats).filter(|&t| t != holder) {
            for (position, held) in self.players[target as usize].figures.iter().enumerate() {
                if !held.face_up && !held.figure.is_media() {
                    for suit in Suit::ALL {
                        actions.push(crate::DemosAction::Media {
                            target,
                            position: position as u8,
                            suit,
                        });
                    }
                }
            }
        }
        actions
    }

    /// The targeted figure turns face up under the Media with its new suit; it must be part of
    /// its owner's final trio.
    pub(crate) fn perform_media(&mut self, holder: Seat, target: Seat, position: u8, suit: Suit) {
        let Step::Scandal { position: turn } = self.step else {
            unreachable!("checked: the Scandal Phase is under way");
        };
        let figures = &mut self.players[holder as usize].figures;
        let media = figures
            .iter()
            .position(|h| h.figure.is_media())
            .expect("a holder");
        figures.remove(media);
        let held = &mut self.players[target as usize].figures[position as usize];
        held.face_up = true;
        held.media = Some(suit);
        self.scandal.push(ScandalEvent::Targeted {
            holder,
            target,
            position,
            suit,
        });
        self.advance_scandal(turn + 1);
    }

    fn hold_election(&mut self) {
        let primacy = self.rules.suggestion;
        let candidates: Vec<Candidate> = (0..self.seats)
            .map(|seat| {
                let player = &self.players[seat as usize];
                let declared = player.declaration.filter(|_| primacy).map(|d| d.trio);
                Candidate {
                    seat,
                    side: self.side(seat),
                    points: player.points,
                    trio: best_trio(&player.figures, declared),
                    independent: self.is_independent(seat),
                    media_kept: player
                        .figures
                        .iter()
                        .filter(|h| h.figure.is_media())
                        .count() as u8,
                    holds_judicial: player
                        .figures
                        .iter()
                        .any(|h| h.figure.power() == Some(Power::Judicial)),
                }
            })
            .collect();
        let result = elect(self.mode(), &candidates, primacy);
        let winners = result.winners.clone();
        let placements = self.placements(&candidates, &winners);
        let summary = self.summary(&winners, result.decided_by);
        self.outcome = Some(Outcome {
            winners,
            placements,
            scores: self.players.iter().map(|p| p.points as i64).collect(),
            summary,
        });
        self.election = Some(ElectionView {
            result,
            trios: candidates.into_iter().map(|c| c.trio).collect(),
        });
        self.step = Step::Over;
    }

    /// Winners are first. In individual games the others follow by trio, then points (a
    /// declared trio first when the Creator's Suggestion is played), tied players sharing a
    /// place; in team games everyone else is second. The ranking is the rules' even when
    /// nobody wins the Election (no trio counts): the best-placed are then first without
    /// winning, a team game's players all share the first place, and no place ever passes the
    /// table's seat count.
    fn placements(&self, candidates: &[Candidate], winners: &[Seat]) -> Vec<u8> {
        if self.mode().is_team() {
            return candidates
                .iter()
                .map(|c| u8::from(!winners.is_empty() && !winners.contains(&c.seat)) + 1)
                .collect();
        }
        let key = |c: &Candidate| {
            let trio = c.trio.as_ref();
            (
                trio.map_or(Harmony::NoTrio, |t| t.harmony),
                self.rules.suggestion && trio.is_some_and(|t| t.as_declared),
                c.points,
            )
        };
        candidates
            .iter()
            .map(|c| 1 + candidates.iter().filter(|o| key(o) > key(c)).count() as u8)
            .collect()
    }

    fn summary(&self, winners: &[Seat], decided_by: ElectionDecidedBy) -> String {
        let why = match decided_by {
            ElectionDecidedBy::NoWinner => {
                return "No winner: nobody presents an E-L-J trio that counts.".into();
            }
            ElectionDecidedBy::Harmony => "the most harmonious trio",
            ElectionDecidedBy::Declaration => "the declared trio takes primacy",
            ElectionDecidedBy::CumulativePoints => "equal trios, more cumulative points",
            ElectionDecidedBy::Shared => "equal trios and points: a shared victory",
            ElectionDecidedBy::PeoplesSpokesperson => "the People's Spokesperson",
            ElectionDecidedBy::MediaController => "the Media Controller",
            ElectionDecidedBy::Dissident => "the Dissident",
        };
        let names: Vec<String> = winners.iter().map(|s| format!("Seat {}", s + 1)).collect();
        let mut sides: Vec<u8> = winners.iter().map(|&s| self.side(s)).collect();
        sides.sort_unstable();
        sides.dedup();
        let who = if self.mode().is_team() {
            let teams: Vec<String> = sides
                .iter()
                .map(|&t| {
                    if self.mode() == crate::Mode::Team2v2Plus1 && t == crate::config::INDEPENDENT {
                        "The Independent".to_string()
                    } else {
                        format!("Team {}", t + 1)
                    }
                })
                .collect();
            format!("{} ({})", teams.join(" and "), names.join(", "))
        } else {
            names.join(" and ")
        };
        let verb = if sides.len() > 1 { "share" } else { "wins" };
        format!("{who} {verb} the Election: {why}.")
    }
}
