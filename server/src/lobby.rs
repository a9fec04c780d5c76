//! The lobby: which rooms exist, by code. It is consulted when a room is created, joined or
//! listed — never on the action path, which goes straight from a connection to its room.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pandemonium_game_contract::{GameEntry, SeededChance};
use pandemonium_protocol::{CreateRoom, RoomCode, RoomStatus, RoomSummary};

use crate::cluster::Lease;
use crate::config::Quotas;
use crate::error::AppError;
use crate::identity::Player;
use crate::metrics::Metrics;
use crate::online::Online;
use crate::room::{self, Resumed, RoomHandle, RoomServices, RoomSetup, SeatState};
use crate::store::{RoomSettings, Store};

/// Seconds a disconnected player keeps their seat when the room does not say.
pub const DEFAULT_GRACE_SECONDS: u32 = 60;

/// The longest grace period a room may set: an hour (a seat held longer only stalls the table).
pub const MAX_GRACE_SECONDS: u32 = 3_600;

/// The longest decision clock a room may set: a day.
pub const MAX_TURN_SECONDS: u32 = 86_400;

#[derive(Debug, Clone)]
pub struct Lobby {
    inner: Arc<Inner>,
}

/// How many fresh codes a new room tries before giving up, in cluster mode, when other nodes'
/// rooms hold the ones drawn.
const CODE_ATTEMPTS: usize = 8;

/// The most rooms one page of `GET /api/rooms` holds.
pub const MAX_PER_PAGE: usize = 100;

#[derive(Debug)]
struct Inner {
    games: &'static [GameEntry],
    rooms: Arc<Mutex<HashMap<RoomCode, RoomHandle>>>,
    store: Store,
    metrics: Arc<Metrics>,
    bot_delay: Duration,
    empty_room: Duration,
    caps: Quotas,
    patch_min_bytes: usize,
    online: Arc<Online>,
}

impl Lobby {
    pub fn new(
        games: &'static [GameEntry],
        store: Store,
        metrics: Arc<Metrics>,
        bot_delay: Duration,
        empty_room: Duration,
        caps: Quotas,
        patch_min_bytes: usize,
    ) -> Lobby {
        Lobby {
            inner: Arc::new(Inner {
                games,
                rooms: Arc::new(Mutex::new(HashMap::new())),
                store,
                metrics,
                bot_delay,
                empty_room,
                caps,
                patch_min_bytes,
                online: Arc::default(),
            }),
        }
    }

    /// Who is connected now.
    pub fn online(&self) -> &Arc<Online> {
        &self.inner.online
    }

    pub fn games(&self) -> &'static [GameEntry] {
        self.inner.games
    }

    pub fn game(&self, id: &str) -> Result<&'static GameEntry, AppError> {
        self.inner
            .games
            .iter()
            .find(|e| (e.info)().id == id)
            .ok_or_else(|| AppError::UnknownGame(id.to_string()))
    }

    fn services(&self) -> RoomServices {
        let rooms = self.inner.rooms.clone();
        RoomServices {
            log: self.inner.store.clone().into(),
            metrics: self.inner.metrics.clone(),
            bot_delay: self.inner.bot_delay,
            empty_room: self.inner.empty_room,
            max_spectators: self.inner.caps.max_spectators_per_room,
            patch_min_bytes: self.inner.patch_min_bytes,
            on_close: Arc::new(move |code: &RoomCode| {
                rooms.lock().expect("rooms lock").remove(code);
            }),
        }
    }

    /// Validates the request (game, options, seats, bots) and opens a room.
    ///
    /// `proposed` is a code the client proposes (`POST /api/rooms?room=CODE`): in cluster mode
    /// the balancer hashed the request on it, so a room opened under it here is on the node
    /// its sockets will reach, with nothing to forward. It is used only if no node ever held
    /// it (a code with a past may have a match waiting in the log); otherwise, and outside
    /// cluster mode, the server draws a code as always.
    pub async fn create_room(
        &self,
        request: CreateRoom,
        host: Option<Player>,
        proposed: Option<RoomCode>,
    ) -> Result<RoomSummary, AppError> {
        let entry = self.game(&request.game)?;
        let info = (entry.info)();
        if !request.options.is_object() {
            return Err(AppError::BadRequest(
                "`options` must be a JSON object.".into(),
            ));
        }
        // Creating a throwaway match checks the options and the seat count with the game's
        // own rules, and fills in every default.
        let mut scratch = SeededChance::from_u64(0);
        let (_, options) = (entry.create)(&request.options, request.seats, &mut scratch)?;
        let mut seats = vec![SeatState::default(); request.seats as usize];
        for &bot in &request.bots {
            let Some(seat) = seats.get_mut(bot as usize) else {
                return Err(AppError::BadRequest(format!(
                    "Seat {bot} does not exist at a table of {}.",
                    request.seats
                )));
            };
            if seat.bot {
                return Err(AppError::BadRequest(format!(
                    "Seat {bot} is listed twice in `bots`."
                )));
            }
            seat.bot = true;
        }
        if request
            .turn_seconds
            .is_some_and(|t| t == 0 || t > MAX_TURN_SECONDS)
        {
            return Err(AppError::BadRequest(format!(
                "`turn_seconds` is 1 to {MAX_TURN_SECONDS} seconds (or none, for no clock)."
            )));
        }
        if request.grace_seconds.is_some_and(|g| g > MAX_GRACE_SECONDS) {
            return Err(AppError::BadRequest(format!(
                "`grace_seconds` is 0 to {MAX_GRACE_SECONDS} seconds: how long a player who \
                 drops keeps their seat before a bot plays it."
            )));
        }
        let settings = RoomSettings {
            public: request.public,
            turn_seconds: request.turn_seconds,
            grace_seconds: request.grace_seconds.unwrap_or(DEFAULT_GRACE_SECONDS),
            host: host.as_ref().map(|p| p.id.clone()),
        };
        // In cluster mode the room's lease is taken before its code is handed out: a code
        // another node's room holds is not used, and a room that could not hold its lease
        // never opens (its creator would find it gone).
        let mut proposed = proposed.filter(|_| self.inner.store.node().is_some());
        for _ in 0..CODE_ATTEMPTS {
            let (code, unused_only) = {
                let rooms = self.inner.rooms.lock().expect("rooms lock");
                self.room_allowed(&rooms, host.as_ref())?;
                match proposed.take() {
                    Some(code) if !rooms.contains_key(&code) => (code, true),
                    _ => (fresh_code(&rooms), false),
                }
            };
            let lease = match self.inner.store.node() {
                None => None,
                Some(node) => {
                    let taken = if unused_only {
                        node.take_unused(&code.0).await
                    } else {
                        node.take(&code.0).await
                    };
                    match taken {
                        Ok(Some(lease)) => Some(lease),
                        // Another node's room goes by this code, or the proposed one has a
                        // past: draw one.
                        Ok(None) => continue,
                        Err(error) => {
                            tracing::warn!(%error, "a new room's lease could not be taken");
                            return Err(AppError::Unavailable);
                        }
                    }
                }
            };
            // Rooms may have opened here while the lease was being taken: the caps are checked
            // again, and a refused room gives its lease back.
            let refused = {
                let mut rooms = self.inner.rooms.lock().expect("rooms lock");
                match self.room_allowed(&rooms, host.as_ref()) {
                    Err(refused) => refused,
                    // Another room of this node drew the same code meanwhile (one chance in
                    // 27^10): draw again, and leave that room its lease.
                    Ok(()) if rooms.contains_key(&code) => continue,
                    Ok(()) => {
                        let handle = room::spawn(
                            RoomSetup {
                                code: code.clone(),
                                entry,
                                game_id: info.id,
                                options,
                                settings,
                                host_name: host.map(|p| p.name),
                                seats,
                                resumed: None,
                                lease,
                            },
                            self.services(),
                        );
                        let summary = handle.summary();
                        rooms.insert(code, handle);
                        return Ok(summary);
                    }
                }
            };
            if let (Some(node), Some(lease)) = (self.inner.store.node(), &lease)
                && let Err(error) = node.release(lease).await
            {
                tracing::warn!(%error, "a refused room's lease could not be given back");
            }
            return Err(refused);
        }
        tracing::warn!(
            attempts = CODE_ATTEMPTS,
            "every room code tried for a new room was held by another node"
        );
        Err(AppError::Unavailable)
    }

    /// Whether one more table may open (`--max-rooms`, and the host's `--max-rooms-per-guest`).
    /// Both caps count tables still waiting or playing: a finished match is not an open table
    /// (its room closes soon once empty, and holds little meanwhile), so tables that play
    /// match after match in fresh rooms are not refused for the rooms they left.
    fn room_allowed(
        &self,
        rooms: &HashMap<RoomCode, RoomHandle>,
        host: Option<&Player>,
    ) -> Result<(), AppError> {
        let open = || {
            rooms
                .values()
                .filter(|room| room.status() != RoomStatus::Finished)
        };
        if let Some(host) = host {
            // Tables opened with the guest's token and those claimed by joining them first.
            let hosted = open().filter(|room| room.hosted_by(&host.id)).count();
            if hosted >= self.inner.caps.max_rooms_per_guest {
                return Err(AppError::TooManyRooms);
            }
        }
        if open().count() >= self.inner.caps.max_rooms {
            tracing::warn!(
                cap = self.inner.caps.max_rooms,
                "open-room cap reached: refusing new rooms (--max-rooms)"
            );
            return Err(AppError::ServerFull);
        }
        Ok(())
    }

    /// Reopens a room around a match rebuilt from the store (in cluster mode, with the lease
    /// taken for it).
    #[allow(clippy::too_many_arguments)]
    pub fn resume_room(
        &self,
        code: RoomCode,
        entry: &'static GameEntry,
        options: serde_json::Value,
        settings: RoomSettings,
        seats: Vec<SeatState>,
        resumed: Resumed,
        lease: Option<Lease>,
    ) {
        let handle = room::spawn(
            RoomSetup {
                code: code.clone(),
                entry,
                game_id: (entry.info)().id,
                options,
                settings,
                host_name: None,
                seats,
                resumed: Some(resumed),
                lease,
            },
            self.services(),
        );
        self.inner
            .rooms
            .lock()
            .expect("rooms lock")
            .insert(code, handle);
    }

    pub fn room(&self, code: &RoomCode) -> Option<RoomHandle> {
        self.inner
            .rooms
            .lock()
            .expect("rooms lock")
            .get(code)
            .cloned()
    }

    /// Every open room's handle, copied out so the lock is not held while they are used.
    fn handles(&self) -> Vec<RoomHandle> {
        let rooms = self.inner.rooms.lock().expect("rooms lock");
        rooms.values().cloned().collect()
    }

    /// Every room of this node's, as listed.
    pub fn summaries(&self) -> Vec<RoomSummary> {
        self.handles().iter().map(RoomHandle::summary).collect()
    }

    /// One page of the public rooms (in cluster mode, every live node's), in code order.
    pub fn public_rooms(&self, page: usize, per_page: usize) -> Vec<RoomSummary> {
        let mut rooms: Vec<RoomSummary> =
            self.summaries().into_iter().filter(|s| s.public).collect();
        if let Some(node) = self.inner.store.node() {
            rooms = node.directory().public_rooms(rooms);
        }
        rooms.sort_by(|a, b| a.code.cmp(&b.code));
        rooms
            .into_iter()
            .skip(page.saturating_mul(per_page))
            .take(per_page)
            .collect()
    }

    /// Tells every room to close its sockets with a reason and stop.
    pub async fn shutdown(&self) {
        for handle in self.handles() {
            let _ = handle.tx.send(room::RoomCmd::Shutdown).await;
        }
    }
}

fn fresh_code(rooms: &HashMap<RoomCode, RoomHandle>) -> RoomCode {
    let mut chance = SeededChance::from_seed(SeededChance::fresh_seed());
    loop {
        let code: String = (0..RoomCode::LEN)
            .map(|_| {
                let i = pandemonium_game_contract::Chance::below(
                    &mut chance,
                    RoomCode::ALPHABET.len() as u32,
                );
                RoomCode::ALPHABET[i as usize] as char
            })
            .collect();
        let code = RoomCode(code);
        if !rooms.contains_key(&code) {
            return code;
        }
    }
}
