//! Telling people: the new position to everyone (through [`crate::room::fanout`]), the states
//! a rejoining connection missed (from [`crate::room::history`]), room snapshots, the lobby's
//! listing, and the ordered delivery of frames behind the commit pipeline.

use std::collections::HashMap;
use tokio::time::Instant;

use pandemonium_game_contract::{Seat, Viewer};
use pandemonium_protocol::{RoomSnapshot, ServerMsg};

use super::{Room, seed_hash};
use crate::room::audience::Delivery;
use crate::room::deltas::Told;
use crate::room::fanout::{self, Deadlines};
use crate::room::listing::Facts;
use crate::room::{ConnId, Frame, wire};

impl Room {
    /// How long the clock of `viewer`'s seat has left, as its state says.
    fn deadline_ms(&self, viewer: Viewer) -> Option<u64> {
        let now = Instant::now();
        self.clocks
            .deadline(viewer.seat())
            .map(|t| t.saturating_duration_since(now).as_millis() as u64)
    }

    /// The new position to everyone, noted for resync; frames go out once the version is
    /// durable.
    ///
    /// Frames are made for the viewer classes someone is connected as. The history notes
    /// every seat's version (its player resyncs from it when they come back) and the
    /// spectators' only while someone watches (a spectator arriving later gets the current
    /// state whole).
    pub(super) fn broadcast_state(&mut self) {
        let Some(current) = self.phase.current() else {
            return;
        };
        let version = current.version();
        let watched = self.audience.without_seat() > 0;
        let classes: Deadlines = (0..self.seating.len() as Seat)
            .map(Viewer::Seat)
            .chain(watched.then_some(Viewer::Spectator))
            .map(|viewer| (viewer, self.deadline_ms(viewer)))
            .collect();
        let recipients = self.audience.recipients(version);
        let frames = fanout::fan_out(
            current.game.as_ref(),
            version,
            &classes,
            &recipients,
            &mut self.bases,
        );
        self.audience.all_told(version);
        for (conn, frame) in frames {
            self.send_after(version, conn, frame, None);
        }
        self.history.push(version, classes);
    }

    /// Drops the frames kept for resync and the bases of patches.
    pub(super) fn forget_told(&mut self) {
        self.history.clear();
        self.bases.clear();
    }

    /// A connection (re)joining: the states it missed since `version` if the history still
    /// holds them all, otherwise the current state.
    pub(super) fn resync(&mut self, conn: ConnId, version: Option<u64>) {
        let Some(current) = self.phase.current() else {
            return;
        };
        let now = current.version();
        let viewer = self.audience.viewer_of(conn);
        let Some(patches) = self.audience.get(conn).map(|s| s.patches()) else {
            return;
        };
        let missed = match version.filter(|&v| v <= now) {
            Some(version) => self
                .history
                .missed(
                    self.entry,
                    &self.options,
                    self.seating.len() as Seat,
                    current,
                    viewer,
                    version,
                )
                .unwrap_or_else(|error| {
                    self.span.in_scope(|| {
                        tracing::error!(%error, "a rejoin's missed states could not be made again")
                    });
                    None
                }),
            None => None,
        };
        let frames = missed.unwrap_or_else(|| {
            let state = fanout::state_frame_of(
                current.game.as_ref(),
                now,
                viewer,
                self.deadline_ms(viewer),
            );
            vec![(now, state)]
        });
        self.audience.told(
            conn,
            Some(Told {
                viewer,
                version: now,
            }),
        );
        if patches.on()
            && let Some((_, last)) = frames.last()
        {
            // The next version goes as a patch against exactly what this connection holds.
            self.bases.insert(now, viewer, last.clone());
        }
        for (version, frame) in frames {
            self.send_after(version, conn, frame, None);
        }
    }

    /// The room snapshot of whoever sits in `seat` (`None`: the watchers). The seat is all
    /// that sets one subscriber's snapshot apart from another's: `you`, `last_seq` and
    /// `team_chat_open` follow from it.
    fn snapshot_of(&self, seat: Option<Seat>) -> RoomSnapshot {
        let current = self.phase.current();
        let teams = match current {
            Some(m) => m.game.teams(),
            None => self.seating.waiting_teams().map(<[u8]>::to_vec),
        };
        RoomSnapshot {
            code: self.code.clone(),
            game: self.game_id.clone(),
            options: self.options.clone(),
            seats: self
                .seating
                .infos(teams.as_deref(), Instant::now(), self.grace()),
            host: self.seating.host().map(str::to_owned),
            status: self.phase.status(),
            spectators: self.audience.without_seat() as u32,
            public: self.settings.public,
            you: seat,
            last_seq: seat.and_then(|seat| self.answers.highest(seat)),
            match_id: current.map(|m| m.id.clone()),
            seed_hash: current.map(|m| seed_hash(&m.seed)),
            team_chat_open: self
                .team_of(seat)
                .is_some_and(|t| current.is_some_and(|m| m.game.team_chat_open(t))),
            turn_seconds: self.settings.turn_seconds,
            grace_seconds: self.settings.grace_seconds,
            rematch: self.rematch_seats(),
            previous_match: self.previous_match.clone(),
        }
    }

    /// The room snapshot changed: every subscriber is sent it before the next frame anyone
    /// gets, or once the room has handled everything queued for it. Changes made together
    /// (four players joining, sitting down and saying ready at once) go out as one snapshot
    /// instead of one per change to every subscriber.
    pub(super) fn broadcast_room(&mut self) {
        self.room_changed = true;
    }

    /// Sends the room snapshot now if it changed since it last went out. The lobby's listing
    /// is brought up to date first, so whoever has seen a snapshot finds the room list
    /// agreeing with it. This is the only place it is, after the room opens: everything the
    /// listing shows is in the snapshot too, so no change to it goes without one.
    pub(super) fn tell_room_change(&mut self) {
        if std::mem::take(&mut self.room_changed) {
            self.update_summary();
            self.tell_room();
        }
    }

    /// Sends every subscriber the room snapshot. Subscribers who see the same snapshot (all
    /// spectators, say) share one frame, made once: a crowd of watchers costs one snapshot,
    /// not one each.
    fn tell_room(&mut self) {
        let mut frames: HashMap<Option<Seat>, Frame> = HashMap::new();
        for conn in self.audience.conns() {
            // An earlier send may have dropped this subscriber as too slow.
            let Some(sub) = self.audience.get(conn) else {
                continue;
            };
            let seat = sub.seat();
            let frame = frames
                .entry(seat)
                .or_insert_with(|| wire::frame(&ServerMsg::Room(self.snapshot_of(seat))))
                .clone();
            self.send(conn, frame);
        }
    }

    /// Sends one subscriber the room snapshot.
    pub(super) fn send_room(&mut self, conn: ConnId) {
        if self.room_changed {
            // The snapshot everyone is due includes this subscriber.
            self.tell_room_change();
            return;
        }
        let seat = self.audience.seat_of(conn);
        let frame = wire::frame(&ServerMsg::Room(self.snapshot_of(seat)));
        self.send(conn, frame);
    }

    /// Queues a frame for one connection, behind anything still waiting for a commit.
    pub(super) fn send(&mut self, conn: ConnId, frame: Frame) {
        self.send_after(0, conn, frame, None);
    }

    /// Queues a frame that may go out only once version `after` is durable (and after
    /// everything queued before it). `ack_of` marks the ack of that act.
    pub(super) fn send_after(
        &mut self,
        after: u64,
        conn: ConnId,
        frame: Frame,
        ack_of: Option<u64>,
    ) {
        // Whatever follows a room change is sent after the snapshot that shows it.
        self.tell_room_change();
        if self.pipeline.clear_for(after) {
            self.deliver(conn, frame);
        } else {
            self.pipeline.hold(after, conn, frame, ack_of);
        }
    }

    /// Puts a frame in a connection's outbox; a full outbox drops the subscriber (it
    /// reconnects and resyncs).
    pub(super) fn deliver(&mut self, conn: ConnId, frame: Frame) {
        if self.audience.deliver(conn, frame) == Delivery::TooSlow {
            self.services
                .metrics
                .dropped_slow_clients
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.in_span(|| tracing::info!(conn, "dropping a slow or gone client"));
            // Dropping our sender ends the connection's outbox: it closes and the client
            // resyncs on reconnect. Presence is updated as for any departure.
            self.leave(conn);
        }
    }

    pub(super) fn close_all(&mut self, code: u16, reason: &'static str) {
        self.audience.close_all(code, reason);
    }

    /// Brings the lobby's listing of this room up to date.
    pub(super) fn update_summary(&self) {
        // The host's current name: as they sit or are here, else as the room last knew it.
        let host_name = self.seating.host().and_then(|host| {
            self.seating
                .seats()
                .iter()
                .filter_map(|s| s.player.as_ref())
                .find(|p| p.id == host)
                .or_else(|| self.audience.player(host))
                .map(|p| p.name.as_str())
                .or(self.seating.host_name())
        });
        self.listed.update(
            &self.seating,
            Facts {
                status: self.phase.status(),
                spectators: self.audience.without_seat() as u32,
                public: self.settings.public,
                host_name,
            },
        );
    }
}
