//! The room task: one loop that takes commands and timer ticks, and is the only writer of the
//! room's game, seats and subscribers.

use futures_util::FutureExt;
use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

use pandemonium_game::{Chance, DynGame, GameEntry, SeededChance, Viewer};
use pandemonium_protocol::{
    ActionSource, ChatChannel, ChatLine, ClientMsg, JoinRole, LoggedAction, RoomCode, RoomSnapshot,
    RoomStatus, RoomSummary, Seat, SeatInfo, SeatPlayer, ServerMsg,
};
use sha2::{Digest, Sha256};

use super::seats::SeatState;
use super::wire;
use super::{ConnId, Frame, Outbox, Outgoing, RoomCmd, RoomHandle};
use crate::identity::Player;
use crate::metrics::Metrics;
use crate::store::{NewMatch, RoomSettings, Store, StoredSeat, now_ms};

/// Longest chat line, in characters.
const MAX_CHAT: usize = 500;
/// Up to this many subscribers, spectators arriving and leaving are announced at once.
const LIVE_AUDIENCE: usize = 64;
/// Commands a room buffers before senders wait.
const MAILBOX: usize = 256;

/// Everything needed to open a room: a new one from the lobby, or one rebuilt after a restart.
#[derive(Debug)]
pub struct RoomSetup {
    pub code: RoomCode,
    pub entry: &'static GameEntry,
    pub game_id: String,
    /// The options with every default filled in.
    pub options: serde_json::Value,
    pub settings: RoomSettings,
    pub seats: Vec<SeatState>,
    /// Present when the room resumes a match from the store.
    pub resumed: Option<Resumed>,
}

/// A match rebuilt from its log.
pub struct Resumed {
    pub match_id: String,
    pub seed: [u8; 32],
    pub game: Box<dyn DynGame>,
    pub chance: SeededChance,
    pub log: Vec<LoggedAction>,
}

impl std::fmt::Debug for Resumed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resumed")
            .field("match_id", &self.match_id)
            .finish()
    }
}

/// Shared services a room uses.
#[derive(Clone)]
pub struct RoomServices {
    pub store: Store,
    pub metrics: Arc<Metrics>,
    pub bot_delay: Duration,
    pub empty_room: Duration,
    /// Called with the room's code when its task ends, so the lobby forgets it.
    pub on_close: Arc<dyn Fn(&RoomCode) + Send + Sync>,
}

impl std::fmt::Debug for RoomServices {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RoomServices").finish_non_exhaustive()
    }
}

struct Subscriber {
    player: Player,
    /// The seat this connection plays, if any (a seated player who joined as a player).
    seat: Option<Seat>,
    spectator: bool,
    outbox: Outbox,
}

/// A match in progress (or finished, until the room closes).
struct Match {
    id: String,
    seed: [u8; 32],
    game: Box<dyn DynGame>,
    chance: SeededChance,
    log: Vec<LoggedAction>,
}

struct Room {
    code: RoomCode,
    entry: &'static GameEntry,
    game_id: String,
    options: serde_json::Value,
    settings: RoomSettings,
    seats: Vec<SeatState>,
    status: RoomStatus,
    current: Option<Match>,
    subscribers: HashMap<ConnId, Subscriber>,
    services: RoomServices,
    summary: Arc<Mutex<RoomSummary>>,
    /// Bots decide with their own randomness: the match RNG must advance only inside
    /// `apply`, or a replay of the log would diverge.
    bot_chance: SeededChance,
    bot_due: Option<Instant>,
    decision_deadline: Option<Instant>,
    empty_since: Option<Instant>,
    /// Which teams' chat windows were open when the room snapshot last went out.
    chat_windows: Vec<bool>,
}

/// Starts a room task and returns its handle.
pub fn spawn(setup: RoomSetup, services: RoomServices) -> RoomHandle {
    let (tx, rx) = mpsc::channel(MAILBOX);
    let status = if setup.resumed.is_some() {
        RoomStatus::Playing
    } else {
        RoomStatus::Waiting
    };
    let mut room = Room {
        code: setup.code,
        entry: setup.entry,
        game_id: setup.game_id,
        options: setup.options,
        settings: setup.settings,
        seats: setup.seats,
        status,
        current: setup.resumed.map(|r| Match {
            id: r.match_id,
            seed: r.seed,
            game: r.game,
            chance: r.chance,
            log: r.log,
        }),
        subscribers: HashMap::new(),
        summary: Arc::new(Mutex::new(RoomSummary {
            code: RoomCode(String::new()),
            game: String::new(),
            seats: 0,
            seated: 0,
            status,
            spectators: 0,
            public: false,
        })),
        services,
        bot_chance: SeededChance::from_seed(SeededChance::fresh_seed()),
        bot_due: None,
        decision_deadline: None,
        empty_since: Some(Instant::now()),
        chat_windows: Vec::new(),
    };
    room.chat_windows = room.team_chat_windows();
    room.update_summary();
    room.schedule();
    let handle = RoomHandle {
        tx,
        summary: room.summary.clone(),
    };
    room.services
        .metrics
        .rooms
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    tokio::spawn(run(room, rx));
    handle
}

async fn run(mut room: Room, mut rx: mpsc::Receiver<RoomCmd>) {
    let code = room.code.clone();
    let services = room.services.clone();
    // A panic in this room ends this room only: its subscribers' outboxes close (their
    // connections tell the client), the lobby forgets it, and every other room runs on.
    let result = AssertUnwindSafe(room.run(&mut rx)).catch_unwind().await;
    if result.is_err() {
        tracing::error!(room = %code, "room task panicked; the room is closed");
    }
    services
        .metrics
        .rooms
        .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    (services.on_close)(&code);
}

impl Room {
    async fn run(&mut self, rx: &mut mpsc::Receiver<RoomCmd>) {
        loop {
            let wake = self.next_wake();
            let command = tokio::select! {
                command = rx.recv() => command,
                _ = sleep_until(wake) => {
                    if self.on_timer().await {
                        break;
                    }
                    continue;
                }
            };
            match command {
                None => break,
                Some(RoomCmd::Shutdown) => {
                    self.close_all(1012, "the server is restarting; reconnect in a moment");
                    break;
                }
                Some(RoomCmd::Join {
                    conn,
                    player,
                    role,
                    outbox,
                }) => self.join(conn, player, role, outbox),
                Some(RoomCmd::Leave { conn }) => self.leave(conn),
                Some(RoomCmd::Client { conn, msg }) => self.client(conn, msg).await,
            }
            self.update_summary();
            self.schedule();
        }
    }

    // ---- membership -------------------------------------------------------------------

    fn join(&mut self, conn: ConnId, player: Player, role: JoinRole, outbox: Outbox) {
        let seat = match role {
            JoinRole::Player => self.seat_of(&player.id),
            JoinRole::Spectator => None,
        };
        if let Some(seat) = seat {
            let state = &mut self.seats[seat as usize];
            state.connect();
            // The person may have renamed themselves since they sat down.
            state.player = Some(player.clone());
        }
        if self.settings.host.is_none() && role == JoinRole::Player {
            self.settings.host = Some(player.id.clone());
        }
        self.subscribers.insert(
            conn,
            Subscriber {
                player,
                seat,
                spectator: role == JoinRole::Spectator,
                outbox,
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
        if self.current.is_some() {
            let frame = self.state_frame(self.viewer_of(conn));
            self.send(conn, frame);
        }
    }

    fn leave(&mut self, conn: ConnId) {
        let Some(sub) = self.subscribers.remove(&conn) else {
            return;
        };
        if let Some(seat) = sub.seat {
            self.seats[seat as usize].disconnect(Instant::now());
        }
        if self.subscribers.is_empty() {
            self.empty_since = Some(Instant::now());
        }
        if sub.seat.is_some() || self.subscribers.len() < LIVE_AUDIENCE {
            self.broadcast_room();
        }
    }

    fn seat_of(&self, player_id: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.holds(player_id))
            .map(|s| s as Seat)
    }

    // ---- client messages ---------------------------------------------------------------

    async fn client(&mut self, conn: ConnId, msg: ClientMsg) {
        let Some(sub) = self.subscribers.get(&conn) else {
            return;
        };
        let player = sub.player.clone();
        let spectator = sub.spectator;
        let result = match msg {
            ClientMsg::TakeSeat { .. } if spectator => Err(RoomRefusal::new(
                "spectator",
                "Spectators watch; join the room as a player to take a seat.",
            )),
            ClientMsg::TakeSeat { seat } => self.take_seat(&player, seat),
            ClientMsg::LeaveSeat => self.leave_seat(&player),
            ClientMsg::SetBot { seat, bot } => self.set_bot(&player, seat, bot),
            ClientMsg::Ready { ready } => self.ready(&player, ready),
            ClientMsg::Start => self.start(&player).await,
            ClientMsg::Act { seq, action } => {
                self.act(conn, seq, action).await;
                Ok(())
            }
            ClientMsg::Chat { channel, text } => self.chat(conn, channel, text),
            ClientMsg::Hint => self.hint(conn),
            ClientMsg::Leave => {
                self.leave_for_good(conn, &player);
                Ok(())
            }
            ClientMsg::Hello { .. } | ClientMsg::Join { .. } => Err(RoomRefusal::new(
                "bad_request",
                "That message is not for a room.",
            )),
        };
        if let Err(refusal) = result {
            self.send(conn, wire::error(refusal.code, refusal.message));
        }
    }

    fn take_seat(&mut self, player: &Player, seat: Seat) -> Result<(), RoomRefusal> {
        self.require_waiting()?;
        let index = seat as usize;
        if index >= self.seats.len() {
            return Err(RoomRefusal::new(
                "no_such_seat",
                "This table has no such seat.",
            ));
        }
        if self.seats[index].is_filled() {
            return Err(RoomRefusal::new("seat_taken", "That seat is taken."));
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

    fn leave_seat(&mut self, player: &Player) -> Result<(), RoomRefusal> {
        let Some(seat) = self.seat_of(&player.id) else {
            return Err(RoomRefusal::new(
                "not_seated",
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
        match self.status {
            RoomStatus::Waiting => {
                self.seats[seat as usize].clear();
                for sub in self.subscribers.values_mut() {
                    if sub.seat == Some(seat) {
                        sub.seat = None;
                    }
                }
            }
            _ => self.seats[seat as usize].covered = true,
        }
    }

    fn leave_for_good(&mut self, conn: ConnId, player: &Player) {
        self.leave(conn);
        let still_here = self.subscribers.values().any(|s| s.player.id == player.id);
        if let (Some(seat), false) = (self.seat_of(&player.id), still_here) {
            self.give_up_seat(seat);
            self.broadcast_room();
        }
    }

    fn set_bot(&mut self, player: &Player, seat: Seat, bot: bool) -> Result<(), RoomRefusal> {
        self.require_host(player)?;
        self.require_waiting()?;
        let Some(state) = self.seats.get_mut(seat as usize) else {
            return Err(RoomRefusal::new(
                "no_such_seat",
                "This table has no such seat.",
            ));
        };
        if bot && state.player.is_some() {
            return Err(RoomRefusal::new("seat_taken", "A player holds that seat."));
        }
        state.bot = bot;
        self.broadcast_room();
        Ok(())
    }

    fn ready(&mut self, player: &Player, ready: bool) -> Result<(), RoomRefusal> {
        self.require_waiting()?;
        let Some(seat) = self.seat_of(&player.id) else {
            return Err(RoomRefusal::new("not_seated", "Take a seat first."));
        };
        self.seats[seat as usize].ready = ready;
        self.broadcast_room();
        Ok(())
    }

    async fn start(&mut self, player: &Player) -> Result<(), RoomRefusal> {
        self.require_host(player)?;
        self.require_waiting()?;
        if !self.seats.iter().all(SeatState::is_filled) {
            return Err(RoomRefusal::new(
                "seats_empty",
                "Every seat needs a player or a bot before the match can start.",
            ));
        }
        let unready = self
            .seats
            .iter()
            .any(|s| s.player.as_ref().is_some_and(|p| p.id != player.id) && !s.ready);
        if unready {
            return Err(RoomRefusal::new(
                "players_not_ready",
                "Everyone seated must be ready before the match can start.",
            ));
        }
        let seed = SeededChance::fresh_seed();
        let mut chance = SeededChance::from_seed(seed);
        let seats = self.seats.len() as u8;
        let (game, config) = (self.entry.create)(&self.options, seats, &mut chance)
            .map_err(|e| RoomRefusal::new("bad_config", e.to_string()))?;
        let id = uuid::Uuid::new_v4().to_string();
        let record = NewMatch {
            id: id.clone(),
            room_code: self.code.0.clone(),
            game: self.game_id.clone(),
            config: config.clone(),
            seats: self.stored_seats(),
            room: self.settings.clone(),
            seed: hex::encode(seed),
            seed_hash: seed_hash(&seed),
            started_at: now_ms(),
        };
        if let Err(error) = self.services.store.start_match(&record).await {
            tracing::error!(room = %self.code, %error, "could not record a match start");
            return Err(RoomRefusal::new(
                "storage_unavailable",
                "The match could not be saved, so it did not start. Try again.",
            ));
        }
        self.options = config;
        self.current = Some(Match {
            id,
            seed,
            game,
            chance,
            log: Vec::new(),
        });
        self.status = RoomStatus::Playing;
        self.chat_windows = self.team_chat_windows();
        tracing::info!(room = %self.code, game = %self.game_id, "match started");
        self.broadcast_room();
        self.broadcast_state();
        Ok(())
    }

    fn chat(
        &mut self,
        conn: ConnId,
        channel: ChatChannel,
        text: String,
    ) -> Result<(), RoomRefusal> {
        let text = text.trim();
        if text.is_empty() || text.chars().count() > MAX_CHAT {
            return Err(RoomRefusal::new(
                "bad_chat",
                "A chat line is 1 to 500 characters.",
            ));
        }
        let sub = &self.subscribers[&conn];
        let line = wire::frame(&ServerMsg::Chat(ChatLine {
            channel,
            from: sub.player.name.clone(),
            text: text.to_string(),
        }));
        let recipients: Vec<ConnId> = match channel {
            // Players talk in the open: everyone in the room reads it.
            ChatChannel::Players => {
                if sub.seat.is_none() {
                    return Err(RoomRefusal::new(
                        "not_seated",
                        "Only players write in the players' chat; spectators have their own.",
                    ));
                }
                self.subscribers.keys().copied().collect()
            }
            // Spectators among themselves, so they cannot coach the players.
            ChatChannel::Spectators => {
                if sub.seat.is_some() {
                    return Err(RoomRefusal::new(
                        "not_spectator",
                        "Players cannot write in the spectators' chat.",
                    ));
                }
                self.subscribers
                    .iter()
                    .filter(|(_, s)| s.seat.is_none())
                    .map(|(c, _)| *c)
                    .collect()
            }
            ChatChannel::Team => {
                let team = self.team_of(sub.seat).ok_or_else(|| {
                    RoomRefusal::new("no_team", "This game has no teams, or you have no seat.")
                })?;
                if !self
                    .current
                    .as_ref()
                    .is_some_and(|m| m.game.team_chat_open(team))
                {
                    return Err(RoomRefusal::new(
                        "team_chat_closed",
                        "Team talk is only allowed during the rules' consultation windows.",
                    ));
                }
                self.subscribers
                    .iter()
                    .filter(|(_, s)| self.team_of(s.seat) == Some(team))
                    .map(|(c, _)| *c)
                    .collect()
            }
        };
        for conn in recipients {
            self.send(conn, line.clone());
        }
        Ok(())
    }

    /// What the game's bot would do in the asker's seat, from that seat's view alone.
    fn hint(&mut self, conn: ConnId) -> Result<(), RoomRefusal> {
        let seat = self.subscribers.get(&conn).and_then(|s| s.seat);
        let (Some(current), Some(seat)) = (&self.current, seat) else {
            return Err(RoomRefusal::new(
                "no_hint",
                "Hints are for players in a match.",
            ));
        };
        let action = current
            .game
            .bot_action(seat, &mut self.bot_chance as &mut dyn Chance);
        let version = current.log.len() as u64;
        self.send(conn, wire::frame(&ServerMsg::Hint { version, action }));
        Ok(())
    }

    /// Which teams' chat windows are open now (empty without a match or teams).
    fn team_chat_windows(&self) -> Vec<bool> {
        let Some(current) = &self.current else {
            return Vec::new();
        };
        let teams = current.game.teams().unwrap_or_default();
        let count = teams.iter().max().map_or(0, |&t| t + 1);
        (0..count).map(|t| current.game.team_chat_open(t)).collect()
    }

    fn team_of(&self, seat: Option<Seat>) -> Option<u8> {
        let teams = self.current.as_ref()?.game.teams()?;
        teams.get(seat? as usize).copied()
    }

    // ---- actions ------------------------------------------------------------------------

    async fn act(&mut self, conn: ConnId, seq: u64, action: serde_json::Value) {
        let seat = self.subscribers.get(&conn).and_then(|s| s.seat);
        let refusal = match (&self.current, seat) {
            (None, _) => Some((
                "no_match",
                "No match is being played in this room.".to_string(),
            )),
            (Some(_), None) => Some(("not_seated", "Spectators cannot act.".to_string())),
            (Some(m), Some(seat)) if !m.game.to_act().contains(seat) => {
                Some(("not_your_turn", "It is not your turn to act.".to_string()))
            }
            _ => None,
        };
        if let Some((code, message)) = refusal {
            self.reject(conn, seq, code, message);
            return;
        }
        let seat = seat.expect("checked above");
        if let Err(refusal) = self
            .apply(seat, action, ActionSource::Player, Some((conn, seq)))
            .await
        {
            self.reject(conn, seq, refusal.code, refusal.message);
        }
    }

    fn reject(&mut self, conn: ConnId, seq: u64, code: &str, message: String) {
        self.services
            .metrics
            .rejects
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let frame = wire::frame(&ServerMsg::Reject {
            seq,
            code: code.to_string(),
            message,
        });
        self.send(conn, frame);
    }

    /// Applies one action for `seat`, persists it, acknowledges it to the connection that sent
    /// it (if any) and then tells everyone. Returns the new version.
    async fn apply(
        &mut self,
        seat: Seat,
        action: serde_json::Value,
        source: ActionSource,
        ack: Option<(ConnId, u64)>,
    ) -> Result<u64, RoomRefusal> {
        let started = Instant::now();
        let current = self
            .current
            .as_mut()
            .expect("apply is only called during a match");
        if current.game.outcome().is_some() {
            return Err(RoomRefusal::new("match_over", "The match is over."));
        }
        // An engine leaves its state alone when it refuses; keep the RNG alone too.
        let saved_chance = current.chance.clone();
        let canonical = match current.game.apply(seat, &action, &mut current.chance) {
            Ok(canonical) => canonical,
            Err(rejection) => {
                current.chance = saved_chance;
                return Err(RoomRefusal::new(rejection.code, rejection.message));
            }
        };
        let index = current.log.len() as u64;
        let stored = self
            .services
            .store
            .append(&current.id, index, seat, &canonical, source)
            .await;
        if let Err(error) = stored {
            // Nobody has been told of the action, so undo it by rebuilding from the log.
            tracing::error!(room = %self.code, %error, "could not persist an action; undone");
            self.rebuild();
            return Err(RoomRefusal::new(
                "storage_unavailable",
                "The action could not be saved, so it was not played. Try again.",
            ));
        }
        current.log.push(LoggedAction {
            seat,
            action: canonical,
            by: source,
        });
        let version = current.log.len() as u64;
        // The ack first: by the time the new state arrives, the sender knows its action is in.
        if let Some((conn, seq)) = ack {
            self.send(conn, wire::frame(&ServerMsg::Ack { seq, version }));
        }
        let current = self.current.as_mut().expect("still playing");
        if let Some(outcome) = current.game.outcome() {
            if let Err(error) = self.services.store.finish(&current.id, &outcome).await {
                tracing::error!(room = %self.code, %error, "could not record a match result");
            }
            self.status = RoomStatus::Finished;
            tracing::info!(room = %self.code, summary = %outcome.summary, "match finished");
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
        self.services.metrics.observe_action(started.elapsed());
        Ok(version)
    }

    /// Rebuilds the game from `(config, seed, log)`.
    fn rebuild(&mut self) {
        let current = self.current.as_mut().expect("a match to rebuild");
        let seats = self.seats.len() as u8;
        match super::replay::replay(
            self.entry,
            &self.options,
            seats,
            current.seed,
            &current.log,
            |_, _| {},
        ) {
            Ok((game, chance)) => {
                current.game = game;
                current.chance = chance;
            }
            Err(error) => panic!("room {}: the match cannot be rebuilt: {error}", self.code),
        }
    }

    // ---- timers ---------------------------------------------------------------------------

    fn next_wake(&self) -> Option<Instant> {
        let grace = Duration::from_secs(self.settings.grace_seconds as u64);
        let graces = self
            .seats
            .iter()
            .filter(|s| !s.covered && !s.bot)
            .filter_map(|s| s.away_since.map(|t| t + grace));
        let empty = self.empty_since.map(|t| t + self.services.empty_room);
        [self.bot_due, self.decision_deadline, empty]
            .into_iter()
            .flatten()
            .chain(graces)
            .min()
    }

    /// Handles whatever timers are due. Returns true when the room should close.
    async fn on_timer(&mut self) -> bool {
        let now = Instant::now();
        if self
            .empty_since
            .is_some_and(|t| t + self.services.empty_room <= now)
        {
            if let (RoomStatus::Playing, Some(current)) = (self.status, &self.current)
                && let Err(error) = self.services.store.abandon(&current.id).await
            {
                tracing::error!(room = %self.code, %error, "could not mark a match abandoned");
            }
            tracing::info!(room = %self.code, "room closed: nobody in it");
            return true;
        }
        self.expire_graces(now);
        if self.decision_deadline.is_some_and(|t| t <= now) {
            self.decision_deadline = None;
            self.apply_defaults().await;
        } else if self.bot_due.is_some_and(|t| t <= now) {
            self.bot_due = None;
            self.bot_move().await;
        }
        self.update_summary();
        self.schedule();
        false
    }

    fn expire_graces(&mut self, now: Instant) {
        let grace = Duration::from_secs(self.settings.grace_seconds as u64);
        let mut changed = false;
        for seat in 0..self.seats.len() {
            let state = &self.seats[seat];
            if state.bot || state.covered || state.online > 0 {
                continue;
            }
            if state.away_since.is_some_and(|t| t + grace <= now) {
                changed = true;
                if self.status == RoomStatus::Waiting {
                    // Gone before the match: the seat is free for someone else.
                    self.seats[seat].clear();
                } else {
                    self.seats[seat].covered = true;
                    self.seats[seat].away_since = None;
                }
            }
        }
        if changed {
            self.broadcast_room();
        }
    }

    /// The clock ran out: every seat still to act gets the rules' default action.
    async fn apply_defaults(&mut self) {
        let Some(current) = &self.current else { return };
        let defaults: Vec<(Seat, serde_json::Value)> = current
            .game
            .to_act()
            .iter()
            .filter(|&seat| !self.seats[seat as usize].bot_plays())
            .filter_map(|seat| current.game.default_action(seat).map(|a| (seat, a)))
            .collect();
        for (seat, action) in defaults {
            let still_to_act = self
                .current
                .as_ref()
                .is_some_and(|m| m.game.to_act().contains(seat));
            if still_to_act
                && let Err(refusal) = self.apply(seat, action, ActionSource::Timeout, None).await
            {
                tracing::warn!(room = %self.code, seat, code = refusal.code, "default action refused");
            }
        }
    }

    async fn bot_move(&mut self) {
        let Some(current) = &self.current else { return };
        let seat = current
            .game
            .to_act()
            .iter()
            .find(|&seat| self.seats[seat as usize].bot_plays());
        let Some(seat) = seat else { return };
        let Some(action) = current
            .game
            .bot_action(seat, &mut self.bot_chance as &mut dyn Chance)
        else {
            return;
        };
        if let Err(refusal) = self.apply(seat, action, ActionSource::Bot, None).await {
            tracing::error!(room = %self.code, seat, code = refusal.code, message = %refusal.message, "a bot chose an illegal action");
        }
    }

    /// Sets the bot and decision timers for the current position.
    fn schedule(&mut self) {
        let Some(current) = &self.current else {
            self.bot_due = None;
            self.decision_deadline = None;
            return;
        };
        let to_act = current.game.to_act();
        if to_act.is_empty() {
            self.bot_due = None;
            self.decision_deadline = None;
            return;
        }
        let bots_to_act = to_act.iter().any(|s| self.seats[s as usize].bot_plays());
        if bots_to_act && self.bot_due.is_none() {
            self.bot_due = Some(Instant::now() + self.services.bot_delay);
        } else if !bots_to_act {
            self.bot_due = None;
        }
        if self.decision_deadline.is_none() {
            let limit = [
                self.settings.turn_seconds,
                current.game.rule_deadline().map(|clock| clock.seconds),
            ]
            .into_iter()
            .flatten()
            .min();
            self.decision_deadline =
                limit.map(|seconds| Instant::now() + Duration::from_secs(seconds as u64));
        }
    }

    // ---- telling people -------------------------------------------------------------------

    fn viewer_of(&self, conn: ConnId) -> Viewer {
        match self.subscribers.get(&conn).and_then(|s| s.seat) {
            Some(seat) => Viewer::Seat(seat),
            None => Viewer::Spectator,
        }
    }

    fn state_frame(&self, viewer: Viewer) -> Frame {
        let current = self.current.as_ref().expect("a match");
        let game = current.game.as_ref();
        let legal = match viewer {
            Viewer::Seat(seat) => game.legal_json(seat),
            _ => "[]".to_string(),
        };
        let deadline_ms = self
            .decision_deadline
            .map(|t| t.saturating_duration_since(Instant::now()).as_millis() as u64);
        wire::state_frame(
            current.log.len() as u64,
            game.view_json(viewer),
            game.to_act().iter().collect(),
            legal,
            deadline_ms,
            game.outcome().as_ref(),
        )
    }

    /// One state frame per distinct viewer, serialised once, shared by every subscriber who
    /// sees the same thing.
    fn broadcast_state(&mut self) {
        // A new position gets a fresh clock.
        self.decision_deadline = None;
        self.bot_due = None;
        self.schedule();
        let mut frames: HashMap<Viewer, Frame> = HashMap::new();
        let conns: Vec<(ConnId, Viewer)> = self
            .subscribers
            .keys()
            .map(|&conn| (conn, self.viewer_of(conn)))
            .collect();
        for (conn, viewer) in conns {
            let frame = frames
                .entry(viewer)
                .or_insert_with(|| self.state_frame(viewer))
                .clone();
            self.send(conn, frame);
        }
    }

    fn snapshot_for(&self, conn: ConnId) -> RoomSnapshot {
        let sub = &self.subscribers[&conn];
        let teams = self.current.as_ref().and_then(|m| m.game.teams());
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
                })
                .collect(),
            host: self.settings.host.clone(),
            status: self.status,
            spectators: self.spectator_count(),
            public: self.settings.public,
            you: sub.seat,
            match_id: self.current.as_ref().map(|m| m.id.clone()),
            seed_hash: self.current.as_ref().map(|m| seed_hash(&m.seed)),
            team_chat_open: self.team_of(sub.seat).is_some_and(|t| {
                self.current
                    .as_ref()
                    .is_some_and(|m| m.game.team_chat_open(t))
            }),
        }
    }

    /// Sends every subscriber the room snapshot. Subscribers who see the same snapshot (all
    /// spectators, say) share one serialised frame.
    fn broadcast_room(&mut self) {
        let mut frames: HashMap<(Option<Seat>, bool), Frame> = HashMap::new();
        let conns: Vec<ConnId> = self.subscribers.keys().copied().collect();
        for conn in conns {
            // An earlier send may have dropped this subscriber as too slow.
            if !self.subscribers.contains_key(&conn) {
                continue;
            }
            let snapshot = self.snapshot_for(conn);
            let frame = frames
                .entry((snapshot.you, snapshot.team_chat_open))
                .or_insert_with(|| wire::frame(&ServerMsg::Room(snapshot)))
                .clone();
            self.send(conn, frame);
        }
    }

    /// Sends one subscriber the room snapshot.
    fn send_room(&mut self, conn: ConnId) {
        let frame = wire::frame(&ServerMsg::Room(self.snapshot_for(conn)));
        self.send(conn, frame);
    }

    /// Queues a frame for one connection; a full outbox drops the subscriber (it reconnects).
    fn send(&mut self, conn: ConnId, frame: Frame) {
        let Some(sub) = self.subscribers.get(&conn) else {
            return;
        };
        if sub.outbox.try_send(Outgoing::Frame(frame)).is_err() {
            self.services
                .metrics
                .dropped_slow_clients
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tracing::info!(room = %self.code, conn, "dropping a slow or gone client");
            // Dropping our sender ends the connection's outbox: it closes and the client
            // resyncs on reconnect. Presence is updated as for any departure.
            self.leave(conn);
        }
    }

    fn close_all(&mut self, code: u16, reason: &'static str) {
        for sub in self.subscribers.values() {
            let _ = sub.outbox.try_send(Outgoing::Close(code, reason));
        }
        self.subscribers.clear();
    }

    fn spectator_count(&self) -> u32 {
        self.subscribers
            .values()
            .filter(|s| s.seat.is_none())
            .count() as u32
    }

    fn update_summary(&self) {
        let summary = RoomSummary {
            code: self.code.clone(),
            game: self.game_id.clone(),
            seats: self.seats.len() as u8,
            seated: self.seats.iter().filter(|s| s.is_filled()).count() as u8,
            status: self.status,
            spectators: self.spectator_count(),
            public: self.settings.public,
        };
        *self.summary.lock().expect("summary lock") = summary;
    }

    fn stored_seats(&self) -> Vec<StoredSeat> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| StoredSeat {
                player_id: s.player.as_ref().map(|p| p.id.clone()),
                name: match (&s.player, s.bot) {
                    (Some(p), _) => p.name.clone(),
                    (None, _) => format!("Bot {}", i + 1),
                },
                bot: s.bot,
            })
            .collect()
    }

    // ---- checks ---------------------------------------------------------------------------

    fn require_waiting(&self) -> Result<(), RoomRefusal> {
        if self.status == RoomStatus::Waiting {
            Ok(())
        } else {
            Err(RoomRefusal::new(
                "match_started",
                "That can only be done before the match starts.",
            ))
        }
    }

    fn require_host(&self, player: &Player) -> Result<(), RoomRefusal> {
        if self.settings.host.as_deref() == Some(player.id.as_str()) {
            Ok(())
        } else {
            Err(RoomRefusal::new("not_host", "Only the host can do that."))
        }
    }
}

/// SHA-256 of the seed, published while the seed itself stays secret.
pub fn seed_hash(seed: &[u8; 32]) -> String {
    hex::encode(Sha256::digest(seed))
}

/// Why a room refused a message.
#[derive(Debug)]
struct RoomRefusal {
    code: &'static str,
    message: String,
}

impl RoomRefusal {
    fn new(code: &'static str, message: impl Into<String>) -> Self {
        RoomRefusal {
            code,
            message: message.into(),
        }
    }
}

async fn sleep_until(wake: Option<Instant>) {
    match wake {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}
