//! Exactly once: per seat, the highest `seq` the room has answered and the recent answers
//! themselves. A resent `seq` (on the same connection, after a reconnect, or after a restart —
//! the seq is stored with each logged action) gets its original answer and applies nothing.

use std::collections::VecDeque;

use pandemonium_game_contract::Seat;
use pandemonium_protocol::LoggedAction;

use super::refusal::Refusal;

/// Answers remembered per seat for resent acts. A client resends only what it has not heard
/// back about, which is at most its in-flight acts: far fewer than this.
const RECENT_ANSWERS: usize = 128;

/// The answer an act got.
#[derive(Debug, Clone)]
pub(super) enum Answer {
    Ack { version: u64 },
    Reject(Refusal),
}

#[derive(Debug, Default)]
struct SeatAnswers {
    /// The highest seq answered for this seat.
    highest: Option<u64>,
    recent: VecDeque<(u64, Answer)>,
}

/// Every seat's answered acts.
#[derive(Debug, Default)]
pub(super) struct Answers(Vec<SeatAnswers>);

impl Answers {
    /// For a new match, or one resumed from its log (whose stored seqs say which acts were
    /// applied before the restart).
    pub fn new(seats: usize, log: Option<&[LoggedAction]>) -> Self {
        let mut answers = Answers::default();
        answers.reset(seats);
        for (index, entry) in log.unwrap_or_default().iter().enumerate() {
            if let Some(seq) = entry.seq {
                let version = index as u64 + 1;
                answers.record(entry.seat, seq, Answer::Ack { version });
            }
        }
        answers
    }

    pub fn reset(&mut self, seats: usize) {
        self.0 = (0..seats).map(|_| SeatAnswers::default()).collect();
    }

    /// The seat's highest answered seq (what a client resuming in that seat continues from).
    pub fn highest(&self, seat: Seat) -> Option<u64> {
        self.0.get(seat as usize).and_then(|a| a.highest)
    }

    /// `Some` when `seq` was answered already: the original answer, or `None` inside when it
    /// is too old to remember.
    pub fn earlier(&self, seat: Seat, seq: u64) -> Option<Option<Answer>> {
        let answers = &self.0[seat as usize];
        if answers.highest.is_none_or(|h| seq > h) {
            return None;
        }
        Some(
            answers
                .recent
                .iter()
                .find(|(s, _)| *s == seq)
                .map(|(_, a)| a.clone()),
        )
    }

    pub fn record(&mut self, seat: Seat, seq: u64, answer: Answer) {
        let answers = &mut self.0[seat as usize];
        answers.highest = Some(answers.highest.map_or(seq, |h| h.max(seq)));
        if answers.recent.len() == RECENT_ANSWERS {
            answers.recent.pop_front();
        }
        answers.recent.push_back((seq, answer));
    }

    /// After a rollback: the acks of versions that were undone become the refusal their
    /// senders were told.
    pub fn undo_after(&mut self, durable: u64, refusal: &Refusal) {
        for answers in &mut self.0 {
            for (_, answer) in answers.recent.iter_mut() {
                if matches!(answer, Answer::Ack { version } if *version > durable) {
                    *answer = Answer::Reject(refusal.clone());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resent_seq_gets_its_first_answer_and_one_too_old_is_known_as_answered() {
        let mut answers = Answers::new(2, None);
        assert!(answers.earlier(0, 1).is_none(), "never answered");
        answers.record(0, 1, Answer::Ack { version: 1 });
        answers.record(0, 2, Answer::Reject(Refusal::NotYourTurn));
        assert!(matches!(
            answers.earlier(0, 1),
            Some(Some(Answer::Ack { version: 1 }))
        ));
        assert!(matches!(
            answers.earlier(0, 2),
            Some(Some(Answer::Reject(Refusal::NotYourTurn)))
        ));
        assert!(answers.earlier(1, 1).is_none(), "seats answer apart");
        for seq in 3..3 + RECENT_ANSWERS as u64 {
            answers.record(0, seq, Answer::Ack { version: seq });
        }
        assert!(
            matches!(answers.earlier(0, 1), Some(None)),
            "answered, long ago"
        );
        assert_eq!(answers.highest(0), Some(2 + RECENT_ANSWERS as u64));
    }

    #[test]
    fn acks_of_rolled_back_versions_become_refusals() {
        let mut answers = Answers::new(1, None);
        answers.record(0, 1, Answer::Ack { version: 1 });
        answers.record(0, 2, Answer::Ack { version: 2 });
        answers.undo_after(1, &Refusal::ActionNotSaved);
        assert!(matches!(
            answers.earlier(0, 1),
            Some(Some(Answer::Ack { .. }))
        ));
        assert!(matches!(
            answers.earlier(0, 2),
            Some(Some(Answer::Reject(Refusal::ActionNotSaved)))
        ));
    }

    #[test]
    fn a_resumed_match_knows_the_seqs_its_log_stored() {
        use pandemonium_protocol::ActionSource;
        let logged = |seat, seq: Option<u64>| LoggedAction {
            seat,
            action: serde_json::json!({"type": "stand"}),
            by: if seq.is_some() {
                ActionSource::Player
            } else {
                ActionSource::Bot
            },
            seq,
        };
        let answers = Answers::new(
            2,
            Some(&[logged(0, Some(4)), logged(1, None), logged(0, Some(5))]),
        );
        assert_eq!(answers.highest(0), Some(5));
        assert!(matches!(
            answers.earlier(0, 5),
            Some(Some(Answer::Ack { version: 3 }))
        ));
        assert_eq!(answers.highest(1), None, "a bot's action has no seq");
    }
}
