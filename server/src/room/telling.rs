//! Telling people: state frames (one per viewer class and version, serialised once and shared),
//! the recent history a reconnecting client resyncs from, room snapshots, and the ordered
//! delivery of frames to connections.

use std::collections::{HashMap, VecDeque};
use tokio::time::Instant;

use pandemonium_game::Viewer;
use pandemonium_protocol::{Presence, RoomSnapshot, Seat, SeatInfo, SeatPlayer, ServerMsg};

use super::actor::{Room, seed_hash};
use super::deltas::{Patches, Told};
use super::wire::{self, OutlinedFrame};
use super::{ConnId, Frame, Listing, Outgoing};
use crate::store::StoredSeat;

/// Versions of state frames kept for resync, and the bytes they may take: a client that
/// missed more than this gets a snapshot instead. The bytes are what a room costs in memory
/// beyond its game: with hundreds of rooms open they add up, so they stay modest.
const HISTORY_VERSIONS: usize = 64;
const HISTORY_BYTES: usize = 256 * 1024;

/// The most frames a room hands a connection at once when it joins: the room snapshot, every
/// kept version of the state (a rejoin that missed them all), the chat history, and a spare.
/// A connection's outbox has room for them beyond its own limit (`Limits::outbox_capacity`).
pub const JOIN_FRAMES: usize = HISTORY_VERSIONS + 3;

/// Recent state frames, per version and viewer class.
#[derive(Debug, Default)]
pub(super) struct History {
    versions: VecDeque<(u64, Vec<(Viewer, Frame)>)>,
    bytes: usize,
}

impl History {
    fn push(&mut self, version: u64, frames: Vec<(Viewer, Frame)>) {
        // A version told again (after a rollback) replaces what was kept for it.
        self.forget_after(version.saturating_sub(1));
        if version == 0 {
            self.clear();
        }
        self.bytes += frames.iter().map(|(_, f)| f.len()).sum::<usize>();
        self.versions.push_back((version, frames));
        while self.versions.len() > HISTORY_VERSIONS
            || (self.bytes > HISTORY_BYTES && self.versions.len() > 1)
        {
            self.drop_oldest();
        }
    }

    fn drop_oldest(&mut self) {
        if let Some((_, frames)) = self.versions.pop_front() {
            self.bytes -= frames.iter().map(|(_, f)| f.len()).sum::<usize>();
        }
    }

    /// The frames `viewer` saw after `version`, in order, if every one of them is still here.
    fn since(&self, viewer: Viewer, version: u64) -> Option<Vec<(u64, Frame)>> {
        let oldest = self.versions.front().map(|(v, _)| *v)?;
        if version + 1 < oldest {
            return None;
        }
        self.versions
            .iter()
            .filter(|(v, _)| *v > version)
            .map(|(v, frames)| {
                let frame = frames.iter().find(|(w, _)| *w == viewer)?;
                Some((*v, frame.1.clone()))
            })
            .collect()
    }

    pub fn forget_after(&mut self, version: u64) {
        while self.versions.back().is_some_and(|(v, _)| *v > version) {
            let (_, frames) = self.versions.pop_back().expect("a version");
            self.bytes -= frames.iter().map(|(_, f)| f.len()).sum::<usize>();
        }
    }

    pub fn clear(&mut self) {
        self.versions.clear();
        self.bytes = 0;
    }
}

impl Room {
    pub(super) fn viewer_of(&self, conn: ConnId) -> Viewer {
        match self.subscribers.get(&conn).and_then(|s| s.seat) {
            Some(seat) => Viewer::Seat(seat),
            None => Viewer::Spectator,
        }
    }

    /// What every state of `viewer` carries beside the view: its seat, who it is shown as
    /// still to act, and how long its seat's clock has left.
    fn state_context(&self, viewer: Viewer) -> (Option<Seat>, Vec<Seat>, Option<u64>) {
        let game = self.phase.current().expect("a match").game.as_ref();
        let seat = match viewer {
            Viewer::Seat(seat) => Some(seat),
            _ => None,
        };
        let now = Instant::now();
        let deadline_ms = self
            .clocks
            .deadline(seat)
            .map(|t| t.saturating_duration_since(now).as_millis() as u64);
        (
            seat,
            game.to_act_seen_by(viewer).iter().collect(),
            deadline_ms,
        )
    }

    fn state_frame(&self, viewer: Viewer) -> Frame {
        let current = self.phase.current().expect("a match");
        let game = current.game.as_ref();
        let (seat, to_act, deadline_ms) = self.state_context(viewer);
        wire::state_frame(
            current.version(),
            |out| game.write_view_json(viewer, out),
            &to_act,
            |out| match seat {
                Some(seat) => game.write_legal_json(seat, out),
                None => out.extend_from_slice(b"[]"),
            },
            deadline_ms,
            game.outcome().as_ref(),
        )
    }

    /// The new position to everyone: one frame per viewer class (every seat, and spectators
    /// when there are any), serialised once and shared by every subscriber who sees the same
    /// thing, and kept for resync. A connection that takes patches and was told the version
    /// before gets the class's patch instead, when it is smaller. Frames go out once the
    /// version is durable.
    ///
    /// Seats' frames are made even for seats nobody is connected to, since their players
    /// resync from them when they come back; the spectators' frame only while someone
    /// watches (a spectator arriving later gets the current state whole).
    pub(super) fn broadcast_state(&mut self) {
        let version = self.version();
        let watched = self.audience() > 0;
        let viewers = (0..self.seats.len() as Seat)
            .map(Viewer::Seat)
            .chain(watched.then_some(Viewer::Spectator));
        let mut frames: Vec<(Viewer, Frame)> = Vec::with_capacity(self.seats.len() + 1);
        let mut patches: Vec<(Viewer, Patches, Frame)> = Vec::new();
        let mut bases: Vec<(Viewer, OutlinedFrame)> = Vec::new();
        // Who takes patches, and of which kind (a viewer class's connections may differ).
        let mut patched: Vec<(Viewer, Patches)> = Vec::new();
        for (&conn, sub) in &self.subscribers {
            let wanted = (self.viewer_of(conn), sub.patches);
            if sub.patches.on() && !patched.contains(&wanted) {
                patched.push(wanted);
            }
        }
        for viewer in viewers {
            let full = self.state_frame(viewer);
            let kinds: Vec<Patches> = patched
                .iter()
                .filter(|(v, _)| *v == viewer)
                .map(|(_, kind)| *kind)
                .collect();
            if !kinds.is_empty() {
                let outlined = OutlinedFrame::new(full.clone());
                if let Some(base) = version
                    .checked_sub(1)
                    .and_then(|base| self.bases.at(viewer, base))
                {
                    for kind in kinds {
                        let patch =
                            wire::patch_frame(base, &outlined, kind == Patches::WithProducts);
                        if patch.len() < full.len() {
                            patches.push((viewer, kind, patch));
                        }
                    }
                }
                bases.push((viewer, outlined));
            }
            frames.push((viewer, full));
        }
        self.bases.replace(version, bases);
        let conns: Vec<(ConnId, Viewer)> = self
            .subscribers
            .keys()
            .map(|&conn| (conn, self.viewer_of(conn)))
            .collect();
        for (conn, viewer) in conns {
            let Some(sub) = self.subscribers.get_mut(&conn) else {
                continue;
            };
            let on_base = version > 0
                && sub.told
                    == Some(Told {
                        viewer,
                        version: version - 1,
                    });
            sub.told = Some(Told { viewer, version });
            let patch = patches
                .iter()
                .find(|(v, kind, _)| on_base && *v == viewer && *kind == sub.patches);
            let frame = match patch {
                Some((_, _, patch)) => patch.clone(),
                None => match frames.iter().find(|(v, _)| *v == viewer) {
                    Some((_, full)) => full.clone(),
                    None => continue,
                },
            };
            self.send_after(version, conn, frame, None);
        }
        self.history.push(version, frames);
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
        let viewer = self.viewer_of(conn);
        let missed = version
            .filter(|&v| v <= now)
            .and_then(|v| self.history.since(viewer, v));
        let Some(sub) = self.subscribers.get_mut(&conn) else {
            return;
        };
        sub.told = Some(Told {
            viewer,
            version: now,
        });
        let patches = sub.patches;
        let frames = missed.unwrap_or_else(|| vec![(now, self.state_frame(viewer))]);
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

    fn snapshot_for(&self, conn: ConnId) -> RoomSnapshot {
        let sub = &self.subscribers[&conn];
        let current = self.phase.current();
        let teams = match current {
            Some(m) => m.game.teams(),
            None => self.waiting_teams.clone(),
        };
        let now = Instant::now();
        let grace = self.grace();
        RoomSnapshot {
            code: self.code.clone(),
            game: self.game_id.clone(),
            options: self.options.clone(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| SeatInfo {
                    seat: i as Seat,
                    player: s.player.as_ref().map(|p| SeatPlayer {
                        id: p.id.clone(),
                        name: p.name.clone(),
                    }),
                    presence: s.presence(),
                    ready: s.ready,
                    team: teams.as_ref().and_then(|t| t.get(i).copied()),
                    pace: s.bot.then_some(s.pace),
                    away_ms: s
                        .away_since
                        .filter(|_| s.presence() == Presence::Reconnecting)
                        .map(|t| (t + grace).saturating_duration_since(now).as_millis() as u64),
                })
                .collect(),
            host: self.settings.host.clone(),
            status: self.phase.status(),
            spectators: self.spectator_count(),
            public: self.settings.public,
            you: sub.seat,
            last_seq: sub.seat.and_then(|seat| self.answers.highest(seat)),
            match_id: current.map(|m| m.id.clone()),
            seed_hash: current.map(|m| seed_hash(&m.seed)),
            team_chat_open: self
                .team_of(sub.seat)
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

    /// Sends the room snapshot now if it changed since it last went out. The lobby's summary
    /// is brought up to date first, so whoever has seen a snapshot finds the room list agreeing
    /// with it. This is the only place it is, after the room opens: everything the summary
    /// lists (seats, names, host, status, spectators, public) is in the snapshot too, so no
    /// change to it goes without one. Bringing it up to date after every event instead cost
    /// ~1% of the runtime's time at 1,000 moves a second (its strings, scattered over the
    /// heap, read for each action and each commit).
    pub(super) fn tell_room_change(&mut self) {
        if std::mem::take(&mut self.room_changed) {
            self.update_summary();
            self.tell_room();
        }
    }

    /// Sends every subscriber the room snapshot. Subscribers who see the same snapshot (all
    /// spectators, say) share one serialised frame.
    fn tell_room(&mut self) {
        let mut frames: HashMap<(Option<Seat>, bool, Option<u64>), Frame> = HashMap::new();
        let conns: Vec<ConnId> = self.subscribers.keys().copied().collect();
        for conn in conns {
            // An earlier send may have dropped this subscriber as too slow.
            if !self.subscribers.contains_key(&conn) {
                continue;
            }
            let snapshot = self.snapshot_for(conn);
            let frame = frames
                .entry((snapshot.you, snapshot.team_chat_open, snapshot.last_seq))
                .or_insert_with(|| wire::frame(&ServerMsg::Room(snapshot)))
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
        let frame = wire::frame(&ServerMsg::Room(self.snapshot_for(conn)));
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
        let Some(sub) = self.subscribers.get(&conn) else {
            return;
        };
        if sub.outbox.try_send(Outgoing::Frame(frame)).is_err() {
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
        for sub in self.subscribers.values() {
            let _ = sub.outbox.try_send(Outgoing::Close(code, reason));
        }
        self.subscribers.clear();
    }

    fn spectator_count(&self) -> u32 {
        self.audience() as u32
    }

    /// Everyone in the room without a seat.
    pub(super) fn audience(&self) -> usize {
        self.subscribers
            .values()
            .filter(|s| s.seat.is_none())
            .count()
    }

    /// The summary's code, game and options. The first two never change and the options only
    /// when a match starts (the engine's complete form of what the host chose), so they are
    /// listed then, not compared after every event by [`Room::update_summary`].
    pub(super) fn list_options(&self) {
        let mut listing = self.listing.lock().expect("listing lock");
        let summary = &mut listing.summary;
        summary.code.clone_from(&self.code);
        summary.game.clone_from(&self.game_id);
        summary.options.clone_from(&self.options);
    }

    /// Brings the lobby's summary of this room up to date. It runs after every event the room
    /// handles (each action among them), and almost none changes what the lobby shows, so it
    /// writes only the fields that differ and allocates nothing when none does.
    pub(super) fn update_summary(&self) {
        let mut listing = self.listing.lock().expect("listing lock");
        let Listing {
            summary,
            host: host_id,
            seated,
        } = &mut *listing;
        if *host_id != self.settings.host {
            host_id.clone_from(&self.settings.host);
        }
        seated.resize(self.seats.len(), None);
        for (id, seat) in seated.iter_mut().zip(&self.seats) {
            let holder = seat.player.as_ref().map(|p| p.id.as_str());
            if id.as_deref() != holder {
                *id = holder.map(str::to_owned);
            }
        }
        summary.seats = self.seats.len() as u8;
        summary.seated = self.seats.iter().filter(|s| s.is_filled()).count() as u8;
        summary.status = self.phase.status();
        summary.spectators = self.spectator_count();
        summary.public = self.settings.public;
        let host = self
            .settings
            .host
            .as_ref()
            .and_then(|host| self.name_of(host).or(self.host_name.as_deref()));
        if summary.host.as_deref() != host {
            summary.host = host.map(str::to_owned);
        }
        summary.players.resize(self.seats.len(), None);
        for (i, (shown, seat)) in summary.players.iter_mut().zip(&self.seats).enumerate() {
            match (&seat.player, seat.bot) {
                (Some(p), _) => {
                    if shown.as_deref() != Some(p.name.as_str()) {
                        *shown = Some(p.name.clone());
                    }
                }
                (None, true) => {
                    if !shown.as_deref().is_some_and(|name| is_bot_name(name, i)) {
                        *shown = Some(bot_name(i));
                    }
                }
                (None, false) => *shown = None,
            }
        }
    }

    /// A person's display name, if they sit here or are in the room.
    fn name_of(&self, player_id: &str) -> Option<&str> {
        self.seats
            .iter()
            .filter_map(|s| s.player.as_ref())
            .chain(self.subscribers.values().map(|s| &s.player))
            .find(|p| p.id == player_id)
            .map(|p| p.name.as_str())
    }

    pub(super) fn stored_seats(&self) -> Vec<StoredSeat> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| StoredSeat {
                player_id: s.player.as_ref().map(|p| p.id.clone()),
                name: match (&s.player, s.bot) {
                    (Some(p), _) => p.name.clone(),
                    (None, _) => bot_name(i),
                },
                bot: s.bot,
            })
            .collect()
    }
}

/// How the lobby names the bot in seat `index` (counted from 0).
fn bot_name(index: usize) -> String {
    format!("Bot {}", index + 1)
}

/// Whether `name` is exactly [`bot_name`]`(index)`, without building that name.
fn is_bot_name(name: &str, index: usize) -> bool {
    name.strip_prefix("Bot ").is_some_and(|n| {
        !n.starts_with('0')
            && n.bytes().all(|b| b.is_ascii_digit())
            && n.parse::<usize>() == Ok(index + 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_name_is_recognised_exactly() {
        for index in [0, 1, 7, 11] {
            assert!(is_bot_name(&bot_name(index), index));
        }
        assert!(!is_bot_name("Bot 2", 0));
        assert!(!is_bot_name("Bot 02", 1));
        assert!(!is_bot_name("Bot +2", 1));
        assert!(!is_bot_name("Bot", 0));
        assert!(!is_bot_name("Ada", 0));
    }

    fn frames(text: &str) -> Vec<(Viewer, Frame)> {
        vec![
            (Viewer::Seat(0), Frame::from(format!("seat {text}"))),
            (Viewer::Spectator, Frame::from(format!("spectator {text}"))),
        ]
    }

    fn versions(missed: Option<Vec<(u64, Frame)>>) -> Option<Vec<u64>> {
        missed.map(|frames| frames.into_iter().map(|(v, _)| v).collect())
    }

    #[test]
    fn a_rejoining_viewer_gets_exactly_what_it_missed_or_nothing_to_resume_from() {
        let mut history = History::default();
        for version in 0..=3 {
            history.push(version, frames(&version.to_string()));
        }
        assert_eq!(
            versions(history.since(Viewer::Seat(0), 1)),
            Some(vec![2, 3])
        );
        assert_eq!(versions(history.since(Viewer::Spectator, 3)), Some(vec![]));
        // Rolled back to version 1, then version 2 told again: it replaces the undone one.
        history.forget_after(1);
        history.push(2, frames("2 again"));
        let missed = history.since(Viewer::Seat(0), 1).unwrap();
        assert_eq!(missed.len(), 1);
        assert_eq!(missed[0].1.as_str(), "seat 2 again");
        // Beyond what is kept: no frames to resume from.
        for version in 3..200 {
            history.push(version, frames(&version.to_string()));
        }
        assert_eq!(history.since(Viewer::Seat(0), 1), None);
    }
}
