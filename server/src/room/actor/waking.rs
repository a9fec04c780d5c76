//! What the room does when a clock runs out: a seat's decision clock and a rule window's
//! (the rules' default action), a bot's schedule (its move), a grace period (a bot takes the
//! seat, or it is freed), and the empty-room timeout (the room closes).

use std::time::Duration;
use tokio::time::Instant;

use pandemonium_game_contract::{Chance, Seat};
use pandemonium_protocol::ActionSource;

use super::Room;
use crate::room::clocks::{Clocks, Position};

/// How long an empty room whose match is over stays open, at most.
const FINISHED_EMPTY_ROOM: Duration = Duration::from_secs(30);

impl Room {
    /// Sets the clocks for the current position. `acted` is the seat whose action led here,
    /// if any: its decision starts again if it must act again.
    pub(super) fn reclock(&mut self, acted: Option<Seat>) {
        let Some(current) = self.phase.playing() else {
            self.clocks = Clocks::new(self.seating.len());
            return;
        };
        let game = current.game.as_ref();
        let position = Position {
            to_act: game.to_act(),
            acted,
            bots: self.seating.bot_paces(),
            turn_limit: self
                .settings
                .turn_seconds
                .filter(|_| !self.info.real_time)
                .map(|s| Duration::from_secs(s as u64)),
            bot_delay: self.services.bot_delay,
            rule: game.rule_deadline(),
        };
        self.clocks.update(Instant::now(), &position);
    }

    /// How long the room stays open with nobody in it. A finished match has nothing left to
    /// wait for (it is in the history, and a rematch needs its players in the room): its room
    /// closes sooner, so tables that play match after match do not pile up empty rooms.
    fn empty_room_wait(&self) -> Duration {
        match self.phase.finished() {
            Some(_) => self.services.empty_room.min(FINISHED_EMPTY_ROOM),
            None => self.services.empty_room,
        }
    }

    pub(super) fn next_wake(&self) -> Option<Instant> {
        let empty = self.empty_since.map(|t| t + self.empty_room_wait());
        self.clocks
            .next()
            .into_iter()
            .chain(empty)
            .chain(self.seating.grace_ends(self.grace()))
            .min()
    }

    /// Handles whatever timers are due. Returns true when the room should close.
    pub(super) async fn on_timer(&mut self) -> bool {
        let now = Instant::now();
        if self
            .empty_since
            .is_some_and(|t| t + self.empty_room_wait() <= now)
        {
            self.drain_commits().await;
            if let Some(current) = self.phase.playing()
                && let Err(error) = self
                    .services
                    .log
                    .abandon(&current.id, self.lease.as_ref())
                    .await
            {
                self.in_span(|| tracing::error!(%error, "could not mark a match abandoned"));
            }
            self.in_span(|| tracing::info!("room closed: nobody in it"));
            return true;
        }
        if self.expire_graces(now)
            && let Err(refusal) = self.start_rematch_if_agreed().await
        {
            // A bot now plays for someone who left: the rematch they had agreed to without
            // them could not be saved. It is asked for again by the next acceptance.
            self.in_span(|| {
                tracing::error!(code = refusal.code().as_str(), "a rematch could not start")
            });
        }
        if self.clocks.rule_runs_out(now) {
            let seats = self.seats_to_act();
            self.apply_defaults(seats).await;
        }
        let late = self.clocks.run_out(now);
        self.apply_defaults(late).await;
        for seat in self.clocks.bots_due(now) {
            self.bot_move(seat).await;
        }
        // A clock that ran out without a move to make starts again rather than firing at once.
        self.reclock(None);
        false
    }

    fn seats_to_act(&self) -> Vec<Seat> {
        self.phase
            .current()
            .map(|m| m.game.to_act().iter().collect())
            .unwrap_or_default()
    }

    /// The clock ran out: each of `seats` still to act (and played by a person) gets the
    /// rules' default action.
    async fn apply_defaults(&mut self, seats: Vec<Seat>) {
        for seat in seats {
            let Some(current) = self.phase.current() else {
                return;
            };
            if !current.game.to_act().contains(seat) || self.seating.bot_plays(seat) {
                continue;
            }
            let Some(action) = current.game.default_action(seat) else {
                continue;
            };
            if let Err(refusal) = self.apply(seat, &action, ActionSource::Timeout, None).await {
                self.in_span(|| tracing::warn!(seat, code = %refusal.code(), rule = ?refusal.rule(), "default action refused"));
            }
        }
    }

    async fn bot_move(&mut self, seat: Seat) {
        let Some(current) = self.phase.current() else {
            return;
        };
        if !current.game.to_act().contains(seat) || !self.seating.bot_plays(seat) {
            return;
        }
        let Some(action) = current
            .game
            .bot_action(seat, &mut self.bot_chance as &mut dyn Chance)
        else {
            return;
        };
        if let Err(refusal) = self.apply(seat, &action, ActionSource::Bot, None).await {
            self.in_span(|| tracing::error!(seat, code = %refusal.code(), rule = ?refusal.rule(), message = %refusal, "a bot chose an illegal action"));
        }
    }
}
