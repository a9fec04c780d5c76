//! The room task: one loop that takes commands, commit confirmations and timer ticks. The
//! [`Room`] coordinates; its parts own their state: the seating (seats, host, rematch, teams),
//! the audience (connections, outboxes, delivery), the listing (the lobby's summary), the
//! clocks, the commit pipeline, the answers, the history and the chat. Its fields are private
//! to this module. The loop's work is split by section, each a child module: [`people`] (who
//! is here and where they sit), [`requests`] (what people ask of the room), [`acting`]
//! (applying actions exactly once and committing them), [`waking`] (clocks, bots, grace
//! periods) and [`telling`] (frames and who gets them).

mod acting;
mod people;
mod requests;
mod telling;
mod waking;

use futures_util::FutureExt;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

use pandemonium_game_contract::{DynGame, GameEntry, GameInfo, SeededChance};
use pandemonium_protocol::{LoggedAction, RoomCode};
use sha2::{Digest, Sha256};

use super::answers::Answers;
use super::audience::Audience;
use super::chat::{ChatBudget, ChatLog};
use super::clocks::Clocks;
use super::deltas::Bases;
use super::history::History;
use super::listing::Listed;
use super::match_log::MatchLog;
use super::phase::{Applied, Match, Phase};
use super::pipeline::Pipeline;
use super::seating::Seating;
use super::seats::SeatState;
use super::{RoomCmd, RoomHandle};
use crate::cluster::Lease;
use crate::metrics::Metrics;
use crate::store::RoomSettings;

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
    /// The host's name, when the room is opened with their token.
    pub host_name: Option<String>,
    pub seats: Vec<SeatState>,
    /// Present when the room resumes a match from the store.
    pub resumed: Option<Resumed>,
    /// Cluster mode: the room's lease, taken before the room opens (by the lobby for a new
    /// room, at start for a resumed match).
    pub lease: Option<Lease>,
}

/// A match rebuilt from its log.
pub struct Resumed {
    pub match_id: String,
    pub seed: [u8; 32],
    pub game: Box<dyn DynGame>,
    pub chance: SeededChance,
    pub log: Vec<LoggedAction>,
    /// The match the room played before this one, when it is a rematch.
    pub rematch_of: Option<String>,
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
    /// Where the room's matches are written.
    pub log: MatchLog,
    pub metrics: Arc<Metrics>,
    pub bot_delay: Duration,
    pub empty_room: Duration,
    /// People watching one room at most (everyone in it without a seat).
    pub max_spectators: usize,
    /// The smallest state frame sent as a patch, in bytes (`--patch-min-bytes`).
    pub patch_min_bytes: usize,
    /// Called with the room's code when its task ends, so the lobby forgets it.
    pub on_close: Arc<dyn Fn(&RoomCode) + Send + Sync>,
}

impl std::fmt::Debug for RoomServices {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RoomServices").finish_non_exhaustive()
    }
}

/// A room: the coordinator of its parts. Only the room's task holds it.
struct Room {
    code: RoomCode,
    entry: &'static GameEntry,
    info: GameInfo,
    game_id: String,
    options: serde_json::Value,
    /// What the host chose for the table; the host itself is the seating's.
    settings: RoomSettings,
    phase: Phase,
    seating: Seating,
    audience: Audience,
    listed: Listed,
    services: RoomServices,
    /// Bots decide with their own randomness: the match RNG must advance only inside
    /// `apply`, or a replay of the log would diverge.
    bot_chance: SeededChance,
    clocks: Clocks,
    answers: Answers,
    pipeline: Pipeline,
    history: History,
    /// The last broadcast state frames, for patches.
    bases: Bases,
    empty_since: Option<Instant>,
    /// Which teams' chat windows were open when the room snapshot last went out.
    chat_windows: Vec<bool>,
    spectator_chat: ChatBudget,
    /// The room's recent chat, told again to whoever (re)joins and may read it.
    chat_log: ChatLog,
    /// The room snapshot changed since it last went out (see [`Room::broadcast_room`]).
    room_changed: bool,
    /// The match played before the current one, when the current one is a rematch.
    previous_match: Option<String>,
    /// Names the room and its game in what it logs; entered only where it logs
    /// ([`Room::in_span`]).
    span: tracing::Span,
    /// Cluster mode: the room's lease, which every append carries.
    lease: Option<Lease>,
    /// The lease has moved to another node: the room has stopped here (see
    /// [`Room::moved_away`]).
    moved: bool,
}

/// What woke the room.
enum Event {
    Command(Option<RoomCmd>),
    Committed(Result<(), crate::store::StoreError>),
    Timer,
    /// The heartbeat found the room's lease gone.
    LeaseLost,
}

/// Starts a room task and returns its handle.
pub fn spawn(setup: RoomSetup, services: RoomServices) -> RoomHandle {
    let (tx, rx) = mpsc::channel(MAILBOX);
    let seat_count = setup.seats.len();
    let info = (setup.entry.info)();
    let resumed = setup.resumed;
    let lease = setup.lease;
    let answers = Answers::new(seat_count, resumed.as_ref().map(|r| r.log.as_slice()));
    let mut pipeline = Pipeline::default();
    pipeline.restart_at(resumed.as_ref().map_or(0, |r| r.log.len() as u64));
    let previous_match = resumed.as_ref().and_then(|r| r.rematch_of.clone());
    let waiting_teams = fixed_teams(setup.entry, &setup.options, seat_count as u8);
    let mut phase = match resumed {
        Some(r) => Phase::Playing(Match {
            id: r.match_id,
            seed: r.seed,
            game: r.game,
            chance: r.chance,
            log: r.log.iter().map(Applied::from).collect(),
        }),
        None => Phase::Waiting,
    };
    phase.settle();
    let span = tracing::info_span!(
        parent: crate::telemetry::node(),
        "room",
        room = %setup.code,
        game = %setup.game_id
    );
    let mut settings = setup.settings;
    let seating = Seating::new(
        setup.seats,
        settings.host.take(),
        setup.host_name,
        waiting_teams,
    );
    let bases = Bases::new(services.patch_min_bytes);
    let mut room = Room {
        listed: Listed::new(&setup.code, &setup.game_id, &setup.options),
        code: setup.code,
        entry: setup.entry,
        info,
        game_id: setup.game_id,
        options: setup.options,
        settings,
        seating,
        phase,
        audience: Audience::default(),
        services,
        bot_chance: SeededChance::from_seed(SeededChance::fresh_seed()),
        clocks: Clocks::new(seat_count),
        answers,
        pipeline,
        history: History::default(),
        bases,
        empty_since: Some(Instant::now()),
        chat_windows: Vec::new(),
        spectator_chat: ChatBudget::default(),
        chat_log: ChatLog::starting_at(crate::store::now_ms().max(0) as u64 * 1000),
        room_changed: false,
        previous_match,
        span,
        lease,
        moved: false,
    };
    room.chat_windows = room.team_chat_windows();
    room.update_summary();
    room.reclock(None);
    let handle = RoomHandle {
        tx,
        listing: room.listed.shared(),
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
    // The room is closed here: any node may open it again (a lease that moved is not ours).
    if let Some(lease) = room.lease.take()
        && !room.moved
        && let Err(error) = services.log.release_lease(&lease).await
    {
        tracing::warn!(room = %code, %error, "could not release the room's lease");
    }
    services
        .metrics
        .rooms
        .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    (services.on_close)(&code);
}

impl Room {
    /// Logs in the room's span. The span is entered here only, not around the room's task:
    /// that entered and left it (a lookup and two atomic operations in the subscriber) on
    /// every poll, two or more for each action, when the room logs a few lines per match.
    fn in_span(&self, log: impl FnOnce()) {
        self.span.in_scope(log);
    }

    async fn run(&mut self, rx: &mut mpsc::Receiver<RoomCmd>) {
        if !self.hold_lease().await {
            return;
        }
        // One timer, moved only when the next wake changes: a fresh one per event entered
        // and left the runtime's timer wheel for every action.
        let timer = tokio::time::sleep_until(Instant::now());
        tokio::pin!(timer);
        let mut armed = None;
        loop {
            let wake = self.next_wake();
            if wake != armed {
                if let Some(at) = wake {
                    timer.as_mut().reset(at);
                }
                armed = wake;
            }
            // Commit confirmations first: they release what people are waiting to hear.
            let event = tokio::select! {
                biased;
                committed = self.pipeline.next_commit() => Event::Committed(committed),
                () = lease_lost(&mut self.lease) => Event::LeaseLost,
                command = rx.recv() => Event::Command(command),
                _ = &mut timer, if armed.is_some() => Event::Timer,
            };
            let close = match event {
                Event::Committed(result) => {
                    self.committed(result).await;
                    false
                }
                Event::Timer => self.on_timer().await,
                Event::LeaseLost => {
                    self.moved_away();
                    false
                }
                Event::Command(None) => true,
                Event::Command(Some(RoomCmd::Shutdown)) => {
                    // What is in flight is told once durable, before the sockets close.
                    self.drain_commits().await;
                    self.close_all(1012, "the server is restarting; reconnect in a moment");
                    true
                }
                Event::Command(Some(RoomCmd::Join {
                    conn,
                    player,
                    role,
                    version,
                    patches,
                    outbox,
                })) => {
                    self.join(conn, player, role, version, patches, outbox);
                    false
                }
                Event::Command(Some(RoomCmd::Leave { conn })) => {
                    self.leave(conn);
                    false
                }
                Event::Command(Some(RoomCmd::Client { conn, msg })) => {
                    self.client(conn, msg).await;
                    false
                }
                Event::Command(Some(RoomCmd::Act { conn, seq, action })) => {
                    if self.audience.contains(conn) {
                        self.act(conn, seq, &action).await;
                    }
                    false
                }
            };
            if self.moved {
                // Nothing in flight is told: another node has the match now.
                break;
            }
            if close {
                self.drain_commits().await;
                break;
            }
            if rx.is_empty() && self.room_changed {
                // What changes a room often comes from several people at once (four players
                // joining, sitting down and saying ready together, or leaving a finished
                // match): let their connections hand over what they have already received
                // before the snapshot goes out, so it shows all of it, once. Without this the
                // room ran as soon as the first of them woke it and sent a snapshot per
                // connection, each to everyone.
                tokio::task::yield_now().await;
            }
            if rx.is_empty() {
                self.tell_room_change();
            }
        }
    }

    /// The settings a match record keeps, its host included.
    fn settings(&self) -> RoomSettings {
        RoomSettings {
            host: self.seating.host().map(str::to_owned),
            ..self.settings.clone()
        }
    }
}

/// Resolves once the heartbeat finds `lease` gone; never without one.
async fn lease_lost(lease: &mut Option<Lease>) {
    match lease {
        Some(lease) => lease.lost().await,
        None => std::future::pending().await,
    }
}

/// The teams a table of `seats` gets from `options` alone: none when the game has no teams or
/// draws them when the match starts (then different shuffles give different teams; eight
/// shuffles agreeing by chance on drawn teams is vanishingly unlikely).
fn fixed_teams(entry: &GameEntry, options: &serde_json::Value, seats: u8) -> Option<Vec<u8>> {
    let teams = |seed: u64| {
        (entry.create)(options, seats, &mut SeededChance::from_u64(seed))
            .ok()
            .and_then(|(game, _)| game.teams())
    };
    let first = teams(0)?;
    (1..8)
        .all(|seed| teams(seed).as_ref() == Some(&first))
        .then_some(first)
}

/// SHA-256 of the seed, published while the seed itself stays secret.
pub fn seed_hash(seed: &[u8; 32]) -> String {
    hex::encode(Sha256::digest(seed))
}
