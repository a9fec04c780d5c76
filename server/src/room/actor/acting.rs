//! Game actions: each applied exactly once (see [`crate::room::answers`]), appended to the log,
//! and told to people only once the append is durable (see [`crate::room::pipeline`]). In
//! cluster mode every append carries the room's lease, and a room whose lease has moved to
//! another node stops ([`Room::moved_away`]).

use std::time::Instant as StdInstant;

use pandemonium_game_contract::Seat;
use pandemonium_protocol::{ActionSource, ServerMsg};

use super::Room;
use crate::room::answers::Answer;
use crate::room::phase::Applied;
use crate::room::refusal::Refusal;
use crate::room::{ConnId, Frame, wire};
use crate::store::{Append, StoreError};

/// The close reason of a room whose lease another node took: the client reconnects, and
/// finds the room on its new node.
const ROOM_MOVED: &str = "the room moved to another server; reconnect";

impl Room {
    pub(super) async fn act(&mut self, conn: ConnId, seq: u64, action: &str) {
        let seat = self.audience.seat_of(conn);
        let (Some(current), Some(seat)) = (self.phase.current(), seat) else {
            let refusal = if self.phase.is_waiting() {
                Refusal::NoMatch
            } else {
                Refusal::SpectatorsCannotAct
            };
            return self.reject(conn, seq, &refusal);
        };
        if let Some(earlier) = self.answers.earlier(seat, seq) {
            return self.answer_again(conn, seq, earlier);
        }
        let answer = if current.game.outcome().is_some() {
            Err(Refusal::MatchOver)
        } else if !current.game.to_act().contains(seat) {
            Err(Refusal::NotYourTurn)
        } else {
            self.apply(seat, action, ActionSource::Player, Some((conn, seq)))
                .await
        };
        match answer {
            Ok(version) => self.answers.record(seat, seq, Answer::Ack { version }),
            Err(refusal) => {
                self.reject(conn, seq, &refusal);
                self.answers.record(seat, seq, Answer::Reject(refusal));
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
            None => self.reject(conn, seq, &Refusal::StaleSeq),
        }
    }

    fn reject(&mut self, conn: ConnId, seq: u64, refusal: &Refusal) {
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
    ) -> Result<u64, Refusal> {
        let started = StdInstant::now();
        let Some(current) = self.phase.current_mut() else {
            return Err(Refusal::NoMatch);
        };
        if current.game.outcome().is_some() {
            return Err(Refusal::MatchOver);
        }
        // An engine leaves its state alone when it refuses; keep the RNG alone too.
        let saved_chance = current.chance.clone();
        // The action's canonical text: what the log keeps.
        let text = match current.game.apply_json(seat, action, &mut current.chance) {
            Ok(text) => text,
            Err(rejection) => {
                current.chance = saved_chance;
                return Err(Refusal::Rule(rejection));
            }
        };
        let outcome = current.game.outcome();
        let index = current.version();
        let queued = self
            .services
            .log
            .queue_append(
                Append {
                    match_id: &current.id,
                    index,
                    seat,
                    action: &text,
                    source,
                    seq: ack.map(|(_, seq)| seq),
                    finish: outcome.as_ref(),
                },
                self.lease.as_ref(),
            )
            .await;
        let committing = match queued {
            Ok(committing) => committing,
            Err(error) => {
                // Nobody has been told of the action: undo it by rebuilding from the log.
                self.in_span(
                    || tracing::error!(%error, "could not queue an action for the store; undone"),
                );
                self.rebuild();
                return Err(Refusal::ActionNotSaved);
            }
        };
        let current = self.phase.current_mut().expect("still a match");
        current.log.push(Applied {
            seat,
            action: text.into_boxed_str(),
        });
        let version = current.version();
        self.pipeline.queued(version, committing, started);
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
    fn after_change(&mut self, acted: Option<Seat>) {
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
        let Some((version, started)) = self.pipeline.answered() else {
            return;
        };
        match result {
            Ok(()) => {
                // Counted once durable (an action rolled back never counts), and before anyone
                // hears of it, so whoever reads the metrics after an ack sees it counted.
                self.services.metrics.observe_action(started.elapsed());
                for held in self.pipeline.made_durable(version) {
                    self.deliver(held.conn, held.frame);
                }
            }
            Err(StoreError::LeaseLost) => self.moved_away(),
            Err(error) => {
                self.in_span(|| tracing::error!(%error, version, "an action could not be saved; rolling back"));
                self.roll_back();
                if let Some(current) = self.phase.current()
                    && let Err(error) = self.services.log.reopen_log(&current.id).await
                {
                    self.in_span(|| tracing::error!(%error, "could not reopen the match's log"));
                }
            }
        }
    }

    /// Waits for every append in flight and tells what they held (before the room closes).
    pub(super) async fn drain_commits(&mut self) {
        while !self.pipeline.idle() && !self.moved {
            let result = self.pipeline.next_commit().await;
            self.committed(result).await;
        }
    }

    /// Takes the room's lease as it opens (cluster mode), unless it came with one. False: the
    /// room cannot open on this node.
    pub(super) async fn hold_lease(&mut self) -> bool {
        if self.lease.is_some() {
            return true;
        }
        match self.services.log.take_lease(&self.code.0).await {
            Ok(lease) => {
                self.lease = lease;
                true
            }
            Err(error) => {
                self.in_span(|| tracing::error!(%error, "could not take the room's lease; closed"));
                false
            }
        }
    }

    /// The room's lease has moved to another node (an append was refused by its epoch, or
    /// the heartbeat found the lease gone): that node has the match now. Nothing more is acked
    /// here, nothing written (not even the match's abandonment), and everyone is sent off to
    /// reconnect, which finds the room on its new node; the room then leaves this one.
    pub(super) fn moved_away(&mut self) {
        if self.moved {
            return;
        }
        self.moved = true;
        self.in_span(|| tracing::warn!("the room's lease moved to another node; closed here"));
        self.close_all(1012, ROOM_MOVED);
    }

    /// Undoes every action after the last durable one: their acts are refused (their senders
    /// hear `storage_unavailable`), their states never go out, and the match is rebuilt from
    /// the durable log. Later appends of this match already queued are refused by the store
    /// unwritten, so the log has no gap.
    fn roll_back(&mut self) {
        let durable = self.pipeline.durable();
        let refusal = Refusal::ActionNotSaved;
        for held in self.pipeline.roll_back() {
            if held.after <= durable {
                self.deliver(held.conn, held.frame);
            } else if let Some(seq) = held.ack_of {
                self.deliver(held.conn, reject_frame(seq, &refusal));
            }
        }
        self.answers.undo_after(durable, &refusal);
        self.history.forget_after(durable);
        // What connections were last told may never have gone out: whole states from here.
        self.bases.clear();
        self.audience.forget_told();
        if let Some(current) = self.phase.current_mut() {
            current.log.truncate(durable as usize);
        }
        self.rebuild();
        self.after_change(None);
    }

    /// Rebuilds the game from `(config, seed, log)`.
    fn rebuild(&mut self) {
        let seats = self.seating.len() as u8;
        let Some(current) = self.phase.current_mut() else {
            return;
        };
        let actions = current.log.iter().map(|a| (a.seat, a.action()));
        match crate::room::replay::replay_actions(
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

fn reject_frame(seq: u64, refusal: &Refusal) -> Frame {
    wire::frame(&ServerMsg::Reject {
        seq,
        code: refusal.code(),
        rule: refusal.rule().map(str::to_string),
        message: refusal.to_string(),
    })
}
