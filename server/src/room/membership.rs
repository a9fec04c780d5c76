//! Who is in the room and where they sit: joining and leaving, seats, bots, readiness.

use tokio::time::Instant;

use pandemonium_protocol::{BotPace, ErrorCode, JoinRole, Seat};

use super::actor::{Phase, Room, RoomRefusal, Subscriber};
use super::{ConnId, Outbox, Outgoing, Patches};
use crate::identity::Player;

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
            JoinRole::Player => self.seat_of(&player.id),
            JoinRole::Spectator => None,
        };
        // Every watcher costs a frame per change and a share of the spectators' chat, so the
        // audience is bounded. Whoever holds a seat always gets in; a player who has none yet
        // counts as audience until they sit down.
        if seat.is_none() && self.audience() >= self.services.max_spectators {
            // Debug, not info: a crowd knocking at a full room must not flood the log.
            self.in_span(|| {
                tracing::debug!(
                    conn,
                    audience = self.audience(),
                    "join refused: the room has as many spectators as it takes"
                );
            });
            let refusal = super::wire::error(
                ErrorCode::RoomFull,
                "This room has as many spectators as it can take; try again later.",
            );
            let _ = outbox.try_send(Outgoing::Frame(refusal));
            let _ = outbox.try_send(Outgoing::Refused);
            return;
        }
        if let Some(seat) = seat {
            let state = &mut self.seats[seat as usize];
            state.connect();
            // The person may have renamed themselves since they sat down.
            state.player = Some(player.clone());
        }
        if self.settings.host.is_none() && role == JoinRole::Player {
            self.settings.host = Some(player.id.clone());
            self.host_name = Some(player.name.clone());
        }
        self.subscribers.insert(
            conn,
            Subscriber {
                player,
                seat,
                spectator: role == JoinRole::Spectator,
                outbox,
                patches,
                told: None,
            },
        );
        self.empty_since = None;
        // A player's presence changes what everyone sees; a spectator coming in only changes
        // a count. Small rooms see it at once; a large audience learns it with the next room
        // change (broadcasting every arrival to every watcher costs the square of the audience).
        if seat.is_some() || self.subscribers.len() <= LIVE_AUDIENCE {
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
        let Some(sub) = self.subscribers.remove(&conn) else {
            return;
        };
        if let Some(seat) = sub.seat {
            self.seats[seat as usize].disconnect(Instant::now());
        }
        if self.subscribers.is_empty() {
            self.empty_since = Some(Instant::now());
            // Nobody is left to resync from the recent frames: whoever comes back gets the
            // current state whole, and an empty room holds no more than its game.
            self.forget_told();
        }
        if sub.seat.is_some() || self.subscribers.len() < LIVE_AUDIENCE {
            self.broadcast_room();
        }
    }

    pub(super) fn seat_of(&self, player_id: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.holds(player_id))
            .map(|s| s as Seat)
    }

    pub(super) fn take_seat(&mut self, player: &Player, seat: Seat) -> Result<(), RoomRefusal> {
        self.require_waiting()?;
        let index = seat as usize;
        if index >= self.seats.len() {
            return Err(RoomRefusal::new(
                ErrorCode::NoSuchSeat,
                "This table has no such seat.",
            ));
        }
        if self.seats[index].is_filled() {
            return Err(RoomRefusal::new(
                ErrorCode::SeatTaken,
                "That seat is taken.",
            ));
        }
        if let Some(old) = self.seat_of(&player.id) {
            self.seats[old as usize].clear();
        }
        let online = self
            .subscribers
            .values()
            .filter(|s| s.player.id == player.id && !s.spectator)
            .count() as u32;
        let state = &mut self.seats[index];
        state.player = Some(player.clone());
        state.online = online.max(1);
        for sub in self.subscribers.values_mut() {
            if sub.player.id == player.id && !sub.spectator {
                sub.seat = Some(seat);
            }
        }
        self.broadcast_room();
        Ok(())
    }

    /// Before the match only: once it runs, a seat is given up by leaving the room (a bot
    /// then plays it), never while the player is still here acting.
    pub(super) fn leave_seat(&mut self, player: &Player) -> Result<(), RoomRefusal> {
        if !matches!(self.phase, Phase::Waiting) {
            return Err(RoomRefusal::new(
                ErrorCode::MatchStarted,
                "The match is under way: leave the room to hand your seat to a bot.",
            ));
        }
        let Some(seat) = self.seat_of(&player.id) else {
            return Err(RoomRefusal::new(
                ErrorCode::NotSeated,
                "You do not hold a seat here.",
            ));
        };
        self.give_up_seat(seat);
        self.broadcast_room();
        Ok(())
    }

    /// Before the match the seat is freed; during it, a bot plays it from now on (the player
    /// keeps their claim and takes it back by joining again).
    fn give_up_seat(&mut self, seat: Seat) {
        match self.phase {
            Phase::Waiting => {
                self.seats[seat as usize].clear();
                for sub in self.subscribers.values_mut() {
                    if sub.seat == Some(seat) {
                        sub.seat = None;
                    }
                }
            }
            _ => {
                self.seats[seat as usize].covered = true;
                self.reclock(None);
            }
        }
    }

    pub(super) fn leave_for_good(&mut self, conn: ConnId, player: &Player) {
        self.leave(conn);
        let still_here = self.subscribers.values().any(|s| s.player.id == player.id);
        if let (Some(seat), false) = (self.seat_of(&player.id), still_here) {
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
        let Some(host) = self.settings.host.as_deref() else {
            return;
        };
        let here = self.subscribers.values().any(|s| s.player.id == host);
        if !matches!(self.phase, Phase::Waiting) || here || self.seat_of(host).is_some() {
            return;
        }
        let seated = self
            .seats
            .iter()
            .filter(|s| s.online > 0)
            .find_map(|s| s.player.as_ref());
        let earliest = self
            .subscribers
            .iter()
            .filter(|(_, s)| !s.spectator)
            .min_by_key(|(conn, _)| **conn)
            .map(|(_, s)| &s.player);
        let next = seated.or(earliest).map(|p| (p.id.clone(), p.name.clone()));
        self.host_name = next.as_ref().map(|(_, name)| name.clone());
        self.settings.host = next.map(|(id, _)| id);
        self.broadcast_room();
    }

    pub(super) fn set_bot(
        &mut self,
        player: &Player,
        seat: Seat,
        bot: bool,
        pace: Option<BotPace>,
    ) -> Result<(), RoomRefusal> {
        self.require_host(player)?;
        self.require_waiting()?;
        let Some(state) = self.seats.get_mut(seat as usize) else {
            return Err(RoomRefusal::new(
                ErrorCode::NoSuchSeat,
                "This table has no such seat.",
            ));
        };
        if bot && state.player.is_some() {
            return Err(RoomRefusal::new(
                ErrorCode::SeatTaken,
                "A player holds that seat.",
            ));
        }
        state.bot = bot;
        if let Some(pace) = pace {
            state.pace = pace;
        }
        self.broadcast_room();
        Ok(())
    }

    pub(super) fn ready(&mut self, player: &Player, ready: bool) -> Result<(), RoomRefusal> {
        self.require_waiting()?;
        let Some(seat) = self.seat_of(&player.id) else {
            return Err(RoomRefusal::new(ErrorCode::NotSeated, "Take a seat first."));
        };
        self.seats[seat as usize].ready = ready;
        self.broadcast_room();
        Ok(())
    }

    /// Seats whose player has been away longer than the grace period: freed before the
    /// match, played by a bot during it. Returns whether any seat changed.
    pub(super) fn expire_graces(&mut self, now: Instant) -> bool {
        let grace = self.grace();
        let mut changed = false;
        for seat in 0..self.seats.len() {
            let state = &self.seats[seat];
            if state.bot || state.covered || state.online > 0 {
                continue;
            }
            if state.away_since.is_some_and(|t| t + grace <= now) {
                changed = true;
                if matches!(self.phase, Phase::Waiting) {
                    // Gone before the match: the seat is free for someone else.
                    self.seats[seat].clear();
                    self.hand_on_host();
                } else {
                    self.seats[seat].covered = true;
                    self.seats[seat].away_since = None;
                }
            }
        }
        if changed {
            self.reclock(None);
            self.broadcast_room();
        }
        changed
    }

    pub(super) fn grace(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.settings.grace_seconds as u64)
    }

    pub(super) fn require_waiting(&self) -> Result<(), RoomRefusal> {
        if matches!(self.phase, Phase::Waiting) {
            Ok(())
        } else {
            Err(RoomRefusal::new(
                ErrorCode::MatchStarted,
                "That can only be done before the match starts.",
            ))
        }
    }

    pub(super) fn require_host(&self, player: &Player) -> Result<(), RoomRefusal> {
        if self.settings.host.as_deref() == Some(player.id.as_str()) {
            Ok(())
        } else {
            Err(RoomRefusal::new(
                ErrorCode::NotHost,
                "Only the host can do that.",
            ))
        }
    }
}
