//! Game actions: each applied exactly once, appended to the log, and told to people only once
//! the append is durable.
//!
//! - **Exactly once.** Per seat the room remembers the highest `seq` it has answered and the
//!   recent answers themselves. A resent `seq` (on the same connection, after a reconnect, or
//!   after a restart — the seq is stored with each logged action) gets its original answer
//!   and applies nothing.
//! - **Pipelined commits.** The room applies the next action while earlier appends are in
//!   flight; what an action changes for people (the ack, the new states) waits in
//!   [`Pipeline`] until its append is durable, and goes out in order. A failed append rolls
//!   the match back to its last durable action: the acts it held are rejected, their states
//!   never sent.

use std::collections::VecDeque;
use std::time::Instant as StdInstant;

use pandemonium_game_contract::Seat;
use pandemonium_protocol::{ActionSource, ErrorCode, LoggedAction, ServerMsg};

use super::actor::{Applied, Phase, Room, RoomRefusal};
use super::wire;
use super::{ConnId, Frame};
use crate::store::{Append, Committing, StoreError};

/// Answers remembered per seat for resent acts. A client resends only what it has not heard
/// back about, which is at most its in-flight acts: far fewer than this.
const RECENT_ANSWERS: usize = 128;

/// The answer an act got.
#[derive(Debug, Clone)]
pub(super) enum Answer {
    Ack { version: u64 },
    Reject(RoomRefusal),
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
    fn earlier(&self, seat: Seat, seq: u64) -> Option<Option<Answer>> {
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

    fn record(&mut self, seat: Seat, seq: u64, answer: Answer) {
        let answers = &mut self.0[seat as usize];
        answers.highest = Some(answers.highest.map_or(seq, |h| h.max(seq)));
        if answers.recent.len() == RECENT_ANSWERS {
            answers.recent.pop_front();
        }
        answers.recent.push_back((seq, answer));
    }

    /// After a rollback: the acks of versions that were undone become the refusal their
    /// senders were told.
    fn undo_after(&mut self, durable: u64, refusal: &RoomRefusal) {
        for answers in &mut self.0 {
            for (_, answer) in answers.recent.iter_mut() {
                if matches!(answer, Answer::Ack { version } if *version > durable) {
                    *answer = Answer::Reject(refusal.clone());
                }
            }
        }
    }
}

/// Something to tell one connection once the match's version `after` is durable.
struct Held {
    after: u64,
    conn: ConnId,
    frame: Frame,
    /// The ack of this act, turned into a refusal if its version is rolled back.
    ack_of: Option<u64>,
}

/// Appends in flight and what waits on them.
#[derive(Default)]
pub(super) struct Pipeline {
    /// The version each append makes durable, in order, and when its action arrived.
    in_flight: VecDeque<(u64, Committing, StdInstant)>,
    /// Versions known durable in the store.
    durable: u64,
    held: VecDeque<Held>,
}

impl Pipeline {
    /// The next append's result (appends of one match commit in order); never resolves while
    /// nothing is in flight.
    pub async fn next_commit(&mut self) -> Result<(), StoreError> {
        match self.in_flight.front_mut() {
            Some((_, committing, _)) => committing.await,
            None => std::future::pending().await,
        }
    }

    /// A new match (or one resumed): everything in its log is durable.
    pub fn restart_at(&mut self, durable: u64) {
        self.in_flight.clear();
        self.held.clear();
        self.durable = durable;
    }

    /// Whether `conn` may be told something that needs `after` durable right now (nothing
    /// queued ahead of it, and durable already).
    pub fn clear_for(&self, after: u64) -> bool {
        self.held.is_empty() && after <= self.durable
    }

    pub fn hold(&mut self, after: u64, conn: ConnId, frame: Frame, ack_of: Option<u64>) {
        self.held.push_back(Held {
            after,
            conn,
            frame,
            ack_of,
        });
    }
}

impl Room {
    pub(super) async fn act(&mut self, conn: ConnId, seq: u64, action: &str) {
        let seat = self.subscribers.get(&conn).and_then(|s| s.seat);
        let (Some(current), Some(seat)) = (self.phase.current(), seat) else {
            let refusal = match self.phase {
                Phase::Waiting => RoomRefusal::new(ErrorCode::NoMatch, "No match is being played."),
                _ => RoomRefusal::new(ErrorCode::NotSeated, "Spectators cannot act."),
            };
            return self.reject(conn, seq, &refusal);
        };
        if let Some(earlier) = self.answers.earlier(seat, seq) {
            return self.answer_again(conn, seq, earlier);
        }
        let answer = if current.game.outcome().is_some() {
            Err(RoomRefusal::new(ErrorCode::MatchOver, "The match is over."))
        } else if !current.game.to_act().contains(seat) {
            Err(RoomRefusal::new(
                ErrorCode::NotYourTurn,
                "It is not your turn to act.",
            ))
        } else {
            self.apply(seat, action, ActionSource::Player, Some((conn, seq)))
                .await
        };
        match answer {
            Ok(version) => self.answers.record(seat, seq, Answer::Ack { version }),
            Err(refusal) => {
                self.answers
                    .record(seat, seq, Answer::Reject(refusal.clone()));
                self.reject(conn, seq, &refusal);
            }
        }
    }

    /// A resent act: its original answer again, after anything still held ahead of it.
    fn answer_again(&mut self, conn: ConnId, seq: u64, earlier: Option<Answer>) {
        match earlier {
            Some(Answer::Ack { version }) => {
                let frame = wire::frame(&ServerMsg::Ack { seq, version });
                self.send_after(version, conn, frame, Some(seq));
            }
            Some(Answer::Reject(refusal)) => self.reject(conn, seq, &refusal),
            None => self.reject(
                conn,
                seq,
                &RoomRefusal::new(
                    ErrorCode::StaleSeq,
                    "That action number was used long ago; send new actions with higher numbers.",
                ),
            ),
        }
    }

    fn reject(&mut self, conn: ConnId, seq: u64, refusal: &RoomRefusal) {
        self.services
            .metrics
            .rejects
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.send(conn, reject_frame(seq, refusal));
    }

    /// Applies one action for `seat` and queues its append; the ack (to the connection that
    /// sent it, if any) and the new states go out once the append is durable. Returns the
    /// new version.
    pub(super) async fn apply(
        &mut self,
        seat: Seat,
        action: &str,
        source: ActionSource,
        ack: Option<(ConnId, u64)>,
    ) -> Result<u64, RoomRefusal> {
        let started = StdInstant::now();
        let Some(current) = self.phase.current_mut() else {
            return Err(RoomRefusal::new(
                ErrorCode::NoMatch,
                "No match is being played.",
            ));
        };
        if current.game.outcome().is_some() {
            return Err(RoomRefusal::new(ErrorCode::MatchOver, "The match is over."));
        }
        // An engine leaves its state alone when it refuses; keep the RNG alone too.
        let saved_chance = current.chance.clone();
        // The action's canonical text: what the log keeps.
        let text = match current.game.apply_json(seat, action, &mut current.chance) {
            Ok(text) => text,
            Err(rejection) => {
                current.chance = saved_chance;
                return Err(RoomRefusal {
                    code: rejection.code,
                    rule: rejection.rule,
                    message: rejection.message,
                });
            }
        };
        let outcome = current.game.outcome();
        let index = current.version();
        let queued = self
            .services
            .store
            .queue_append(Append {
                match_id: &current.id,
                index,
                seat,
                action: &text,
                source,
                seq: ack.map(|(_, seq)| seq),
                finish: outcome.as_ref(),
            })
            .await;
        let committing = match queued {
            Ok(committing) => committing,
            Err(error) => {
                // Nobody has been told of the action: undo it by rebuilding from the log.
                self.in_span(
                    || tracing::error!(%error, "could not queue an action for the store; undone"),
                );
                self.rebuild();
                return Err(storage_unavailable());
            }
        };
        let current = self.phase.current_mut().expect("still a match");
        current.log.push(Applied {
            seat,
            action: text.into_boxed_str(),
        });
        let version = current.version();
        self.pipeline
            .in_flight
            .push_back((version, committing, started));
        // The ack first: by the time the new state arrives, the sender knows its action is in.
        if let Some((conn, seq)) = ack {
            let frame = wire::frame(&ServerMsg::Ack { seq, version });
            self.send_after(version, conn, frame, Some(seq));
        }
        if let Some(outcome) = &outcome {
            self.in_span(|| tracing::info!(summary = %outcome.summary, "match finished"));
        }
        self.after_change(Some(seat));
        Ok(version)
    }

    /// Everything that follows a change of position: phase, clocks, states, chat windows.
    pub(super) fn after_change(&mut self, acted: Option<Seat>) {
        let status = self.phase.status();
        self.phase.settle();
        self.reclock(acted);
        if self.phase.status() != status {
            self.broadcast_room();
        }
        self.broadcast_state();
        // Team chat windows open and close with the game's steps: the room snapshot says
        // which are open, so it goes out again when that changes.
        let chat_windows = self.team_chat_windows();
        if chat_windows != self.chat_windows {
            self.chat_windows = chat_windows;
            self.broadcast_room();
        }
    }

    /// The oldest append in flight has an answer from the store.
    pub(super) async fn committed(&mut self, result: Result<(), StoreError>) {
        let Some((version, _, started)) = self.pipeline.in_flight.pop_front() else {
            return;
        };
        match result {
            Ok(()) => {
                // Counted once durable (an action rolled back never counts), and before anyone
                // hears of it, so whoever reads the metrics after an ack sees it counted.
                self.services.metrics.observe_action(started.elapsed());
                self.pipeline.durable = version;
                self.release();
            }
            Err(error) => {
                self.in_span(|| tracing::error!(%error, version, "an action could not be saved; rolling back"));
                self.roll_back();
                if let Some(current) = self.phase.current()
                    && let Err(error) = self.services.store.reopen_log(&current.id).await
                {
                    self.in_span(|| tracing::error!(%error, "could not reopen the match's log"));
                }
            }
        }
    }

    /// Waits for every append in flight and tells what they held (before the room closes).
    pub(super) async fn drain_commits(&mut self) {
        while !self.pipeline.in_flight.is_empty() {
            let result = self.pipeline.next_commit().await;
            self.committed(result).await;
        }
    }

    /// Sends what waited on durable versions, in order.
    fn release(&mut self) {
        while let Some(front) = self.pipeline.held.front() {
            if front.after > self.pipeline.durable {
                break;
            }
            let held = self.pipeline.held.pop_front().expect("a front");
            self.deliver(held.conn, held.frame);
        }
    }

    /// Undoes every action after the last durable one: their acts are refused (their senders
    /// hear `storage_unavailable`), their states never go out, and the match is rebuilt from
    /// the durable log. Later appends of this match already queued are refused by the store
    /// unwritten, so the log has no gap.
    fn roll_back(&mut self) {
        let durable = self.pipeline.durable;
        let refusal = storage_unavailable();
        self.pipeline.in_flight.clear();
        let held = std::mem::take(&mut self.pipeline.held);
        for item in held {
            if item.after <= durable {
                self.deliver(item.conn, item.frame);
            } else if let Some(seq) = item.ack_of {
                self.deliver(item.conn, reject_frame(seq, &refusal));
            }
        }
        self.answers.undo_after(durable, &refusal);
        self.history.forget_after(durable);
        // What connections were last told may never have gone out: whole states from here.
        self.bases.clear();
        for sub in self.subscribers.values_mut() {
            sub.told = None;
        }
        if let Some(current) = self.phase.current_mut() {
            current.log.truncate(durable as usize);
        }
        self.rebuild();
        self.after_change(None);
    }

    /// Rebuilds the game from `(config, seed, log)`.
    fn rebuild(&mut self) {
        let seats = self.seats.len() as u8;
        let Some(current) = self.phase.current_mut() else {
            return;
        };
        let actions = current.log.iter().map(|a| (a.seat, a.action()));
        match super::replay::replay_actions(
            self.entry,
            &self.options,
            seats,
            current.seed,
            actions,
            |_, _| {},
        ) {
            Ok((game, chance)) => {
                current.game = game;
                current.chance = chance;
            }
            Err(error) => panic!("room {}: the match cannot be rebuilt: {error}", self.code),
        }
    }
}

fn reject_frame(seq: u64, refusal: &RoomRefusal) -> Frame {
    wire::frame(&ServerMsg::Reject {
        seq,
        code: refusal.code,
        rule: refusal.rule.map(str::to_string),
        message: refusal.message.clone(),
    })
}

fn storage_unavailable() -> RoomRefusal {
    RoomRefusal::new(
        ErrorCode::StorageUnavailable,
        "The action could not be saved, so it was not played. Try again.",
    )
}
