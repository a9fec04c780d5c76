//! Rebuilding a room around a running match from the store: at start, every running match
//! this node may take ([`crate::app`]); in cluster mode also on demand, when a client comes
//! for a room whose node stopped (killed, paused past its lease, restarted) and whose lease
//! is free: the node that client reached takes the lease and replays the log, and the room
//! plays on here.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use pandemonium_protocol::RoomCode;

use crate::cluster::{Lease, Node, Whereabouts};
use crate::identity::Player;
use crate::lobby::Lobby;
use crate::room::{Resumed, SeatState, replay};
use crate::store::{Store, StoreError, StoredMatch};

/// Opens a room around `stored`, rebuilt from its log, with `lease` (taken for it in cluster
/// mode). A match whose last action ended it is marked finished first.
pub async fn resume(
    lobby: &Lobby,
    store: &Store,
    stored: &StoredMatch,
    lease: &mut Option<Lease>,
) -> Result<(), String> {
    let entry = lobby.game(&stored.game).map_err(|e| e.to_string())?;
    let seed = stored.seed_bytes().map_err(|e| e.to_string())?;
    let seats = stored.seats.len() as u8;
    let (game, chance) = replay::replay(entry, &stored.config, seats, seed, &stored.log, |_, _| {})
        .map_err(|e| e.to_string())?;
    // A match whose last action is in the log has ended, whatever its status says: it is
    // finished (with its result), never left running to be abandoned.
    if let Some(outcome) = game.outcome() {
        store
            .finish(&stored.id, &outcome)
            .await
            .map_err(|e| e.to_string())?;
        tracing::info!(id = %stored.id, "a match that had ended was marked finished");
    }
    let now = tokio::time::Instant::now();
    let seat_states = stored
        .seats
        .iter()
        .map(|s| SeatState {
            player: s.player_id.as_ref().map(|id| Player {
                id: id.clone(),
                name: s.name.clone(),
            }),
            bot: s.bot,
            // Everyone is away until they reconnect; the grace period starts now.
            away_since: (!s.bot).then_some(now),
            ..SeatState::default()
        })
        .collect();
    let code = RoomCode::parse(&stored.room_code).ok_or("stored room code is malformed")?;
    lobby.resume_room(
        code,
        entry,
        stored.config.clone(),
        stored.room.clone(),
        seat_states,
        Resumed {
            match_id: stored.id.clone(),
            seed,
            game,
            chance,
            log: stored.log.clone(),
            rematch_of: stored.rematch_of.clone(),
        },
        lease.take(),
    );
    Ok(())
}

/// Takeovers in progress on this node, one gate per room: the clients of one room arrive
/// together after its node dies, and only the first may take the lease and replay the log
/// (a second take by this node would raise the epoch under the room the first one opened).
#[derive(Debug, Default)]
pub struct Takeovers {
    gates: Mutex<HashMap<RoomCode, Arc<tokio::sync::Mutex<()>>>>,
}

impl Takeovers {
    fn gate(&self, code: &RoomCode) -> Arc<tokio::sync::Mutex<()>> {
        let mut gates = self.gates.lock().expect("takeover gates lock");
        gates.entry(code.clone()).or_default().clone()
    }

    fn done(&self, code: &RoomCode) {
        self.gates.lock().expect("takeover gates lock").remove(code);
    }
}

/// What a room asked for here turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// Open on this node (it was, or it is now: taken over).
    Here,
    /// Held by another live node, reached at `address`.
    Elsewhere { address: Option<String> },
    /// No room has that code (nor does a running match).
    Nowhere,
}

/// Finds room `code`: here, at the node that holds its lease, or (its lease being free and a
/// match running in it) brought here from the log. Outside cluster mode a room is here or
/// nowhere.
pub async fn find_room(
    lobby: &Lobby,
    store: &Store,
    takeovers: &Takeovers,
    code: &RoomCode,
) -> Result<Found, StoreError> {
    if lobby.room(code).is_some() {
        return Ok(Found::Here);
    }
    let Some(node) = store.node() else {
        return Ok(Found::Nowhere);
    };
    let gate = takeovers.gate(code);
    let found = {
        let _only_one = gate.lock().await;
        take_over(lobby, store, node, code).await
    };
    takeovers.done(code);
    found
}

async fn take_over(
    lobby: &Lobby,
    store: &Store,
    node: &Node,
    code: &RoomCode,
) -> Result<Found, StoreError> {
    // Another arrival for this room may have brought it here while this one waited.
    if lobby.room(code).is_some() {
        return Ok(Found::Here);
    }
    match node.locate(&code.0).await? {
        Whereabouts::Elsewhere { address, .. } => return Ok(Found::Elsewhere { address }),
        // This node's lease, but no room: one being opened or closing now.
        Whereabouts::Here => return Ok(Found::Nowhere),
        Whereabouts::Free => {}
    }
    let Some(lease) = node.take(&code.0).await? else {
        // Another node took it between the two statements.
        return Ok(match node.locate(&code.0).await? {
            Whereabouts::Elsewhere { address, .. } => Found::Elsewhere { address },
            _ => Found::Nowhere,
        });
    };
    // Read with the lease held: the previous owner can append nothing more, so this log is
    // the match's whole history.
    let stored = match store.running_match_in(&code.0).await {
        Ok(Some(stored)) => stored,
        Ok(None) => {
            // A room that never started a match (or whose match ended) leaves nothing to
            // rebuild: it is gone with its node.
            node.release(&lease).await?;
            return Ok(Found::Nowhere);
        }
        Err(error) => {
            node.release(&lease).await?;
            return Err(error);
        }
    };
    let mut lease = Some(lease);
    match resume(lobby, store, &stored, &mut lease).await {
        Ok(()) => {
            tracing::info!(room = %code.0, id = %stored.id, "a room taken over from the log");
            Ok(Found::Here)
        }
        Err(error) => {
            tracing::error!(
                id = %stored.id,
                %error,
                "could not resume a match taken over; it is marked abandoned, its log kept"
            );
            if let Some(lease) = lease {
                store.abandon_leased(&stored.id, &lease).await?;
                node.release(&lease).await?;
            }
            Ok(Found::Nowhere)
        }
    }
}
