//! Who is in the room and where they sit: joining and leaving, seats, bots, readiness, the
//! host, and the grace period of someone who went away.

use tokio::time::Instant;

use pandemonium_protocol::{BotPace, JoinRole, Seat};

use super::Room;
use crate::identity::Player;
use crate::room::audience::Subscriber;
use crate::room::deltas::Patches;
use crate::room::refusal::Refusal;
use crate::room::{ConnId, Outbox, Outgoing, wire};

/// Up to this many subscribers, spectators arriving and leaving are announced at once.
const LIVE_AUDIENCE: usize = 64;

impl Room {
    pub(super) fn join(
        &mut self,
        conn: ConnId,
        player: Player,
        role: JoinRole,
        version: Option<u64>,
        patches: Patches,
        outbox: Outbox,
    ) {
        let seat = match role {
            JoinRole::Player => self.seating.seat_of(&player.id),
            JoinRole::Spectator => None,
        };
        // Every watcher costs a frame per change and a share of the spectators' chat, so the
        // audience is bounded. Whoever holds a seat always gets in; a player who has none yet
        // counts as audience until they sit down.
        let audience = self.audience.without_seat();
        if seat.is_none() && audience >= self.services.max_spectators {
            // Debug, not info: a crowd knocking at a full room must not flood the log.
            self.in_span(|| {
                tracing::debug!(
                    conn,
                    audience,
                    "join refused: the room has as many spectators as it takes"
                );
            });
            let refusal = Refusal::AudienceFull;
            let _ = outbox.try_send(Outgoing::Frame(wire::error(
                refusal.code(),
                refusal.to_string(),
            )));
            let _ = outbox.try_send(Outgoing::Refused);
            return;
        }
        if let Some(seat) = seat {
            self.seating.connect(seat, player.clone());
        }
        if role == JoinRole::Player {
            self.seating.claim_host(&player);
        }
        let spectator = role == JoinRole::Spectator;
        self.audience.add(
            conn,
            Subscriber::new(player, seat, spectator, outbox, patches),
        );
        self.empty_since = None;
        // A player's presence changes what everyone sees; a spectator coming in only changes
        // a count. Small rooms see it at once; a large audience learns it with the next room
        // change (broadcasting every arrival to every watcher costs the square of the audience).
        if seat.is_some() || self.audience.len() <= LIVE_AUDIENCE {
            self.broadcast_room();
        } else {
            self.send_room(conn);
        }
        if seat.is_some() {
            // A returning player takes the seat back from its bot: their clock runs again.
            self.reclock(None);
        }
        self.resync(conn, version);
        self.send_chat_history(conn);
    }

    pub(super) fn leave(&mut self, conn: ConnId) {
        let Some(sub) = self.audience.remove(conn) else {
            return;
        };
        if let Some(seat) = sub.seat() {
            self.seating.disconnect(seat, Instant::now());
        }
        if self.audience.is_empty() {
            self.empty_since = Some(Instant::now());
            // Nobody is left to resync from the recent frames: whoever comes back gets the
            // current state whole, and an empty room holds no more than its game.
            self.forget_told();
        }
        if sub.seat().is_some() || self.audience.len() < LIVE_AUDIENCE {
            self.broadcast_room();
        }
    }

    pub(super) fn take_seat(&mut self, player: &Player, seat: Seat) -> Result<(), Refusal> {
        self.require_waiting()?;
        let online = self.audience.playing_connections(&player.id);
        self.seating.take(player, seat, online)?;
        self.audience.sit(&player.id, seat);
        self.broadcast_room();
        Ok(())
    }

    /// Before the match only: once it runs, a seat is given up by leaving the room (a bot
    /// then plays it), never while the player is still here acting.
    pub(super) fn leave_seat(&mut self, player: &Player) -> Result<(), Refusal> {
        if !self.phase.is_waiting() {
            return Err(Refusal::SeatKeptDuringMatch);
        }
        let seat = self
            .seating
            .seat_of(&player.id)
            .ok_or(Refusal::NoSeatHeld)?;
        self.give_up_seat(seat);
        self.broadcast_room();
        Ok(())
    }

    /// Before the match the seat is freed; during it, a bot plays it from now on (the player
    /// keeps their claim and takes it back by joining again).
    fn give_up_seat(&mut self, seat: Seat) {
        if self.phase.is_waiting() {
            self.seating.free(seat);
            self.audience.unseat(seat);
        } else {
            self.seating.cover(seat);
            self.reclock(None);
        }
    }

    pub(super) fn leave_for_good(&mut self, conn: ConnId, player: &Player) {
        self.leave(conn);
        let still_here = self.audience.player(&player.id).is_some();
        if let (Some(seat), false) = (self.seating.seat_of(&player.id), still_here) {
            self.give_up_seat(seat);
            self.broadcast_room();
        }
        self.hand_on_host();
    }

    /// Before the match, a host who has gone (left the room, or stayed away past the grace
    /// period so that their seat was freed) hands the table on: to the seated player here in
    /// the first seat, else to anyone here to play, else to the next player who joins.
    /// Otherwise nobody could start it.
    fn hand_on_host(&mut self) {
        let Some(host) = self.seating.host() else {
            return;
        };
        let here = self.audience.player(host).is_some();
        if !self.phase.is_waiting() || here || self.seating.seat_of(host).is_some() {
            return;
        }
        let next = self
            .seating
            .first_present_player()
            .or(self.audience.earliest_player())
            .cloned();
        self.seating.hand_host_to(next.as_ref());
        self.broadcast_room();
    }

    pub(super) fn set_bot(
        &mut self,
        player: &Player,
        seat: Seat,
        bot: bool,
        pace: Option<BotPace>,
    ) -> Result<(), Refusal> {
        self.seating.require_host(player)?;
        self.require_waiting()?;
        self.seating.set_bot(seat, bot, pace)?;
        self.broadcast_room();
        Ok(())
    }

    pub(super) fn ready(&mut self, player: &Player, ready: bool) -> Result<(), Refusal> {
        self.require_waiting()?;
        self.seating.set_ready(&player.id, ready)?;
        self.broadcast_room();
        Ok(())
    }

    /// Seats whose player has been away longer than the grace period: freed before the
    /// match, played by a bot during it. Returns whether any seat changed.
    pub(super) fn expire_graces(&mut self, now: Instant) -> bool {
        let gone = self.seating.away_too_long(now, self.grace());
        for &seat in &gone {
            if self.phase.is_waiting() {
                // Gone before the match: the seat is free for someone else.
                self.seating.free(seat);
                self.hand_on_host();
            } else {
                self.seating.cover(seat);
            }
        }
        if !gone.is_empty() {
            self.reclock(None);
            self.broadcast_room();
        }
        !gone.is_empty()
    }

    pub(super) fn grace(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.settings.grace_seconds as u64)
    }

    pub(super) fn require_waiting(&self) -> Result<(), Refusal> {
        if self.phase.is_waiting() {
            Ok(())
        } else {
            Err(Refusal::OnlyBeforeTheMatch)
        }
    }
}
