//! One seat's client: it acts whenever it may, times each action's ack, and reads states
//! (whole, or patched in place as the web client does) only for what acting needs.

use futures_util::StreamExt;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

use pandemonium_protocol::patch::{self, PatchMismatch, PatchOp};
use pandemonium_protocol::{ClientMsg, GameState, ServerMsg};

use crate::Socket;
use crate::client::send;

/// What one seat's client measured: the ack latency of each accepted action, and how many
/// of its actions were refused.
#[derive(Debug, Default)]
pub struct Played {
    pub accepted: Vec<Duration>,
    pub rejected: usize,
    /// Bytes of every message the server sent this seat.
    pub bytes: usize,
}

/// Plays one seat: whenever this seat may act on a state newer than its last accepted action
/// (and, with a `pace`, no sooner than `pace` after its previous action), sends the first legal
/// action and times the answer.
pub async fn drive(
    mut socket: Socket,
    seat: u8,
    deadline: Instant,
    pace: Option<Duration>,
    patches: bool,
) -> Played {
    let mut played = Played::default();
    let mut seq = 0;
    let mut sent: Option<(u64, Instant)> = None;
    let mut latest: Option<Seen> = None;
    // With patches: the state they apply to.
    let mut document: Option<Document> = None;
    // The version our last action produced: act again only on a state at least that new.
    let mut caught_up_at = 0;
    let mut version_acted = None;
    // Paced seats start at a random point of their period, so rooms do not act in step.
    let mut next_at =
        Instant::now() + pace.map_or(Duration::ZERO, |p| p.mul_f64(rand_fraction(seat)));
    while Instant::now() < deadline {
        let may_act = sent.is_none()
            && latest.as_ref().is_some_and(|seen| {
                seen.version >= caught_up_at
                    && seen.to_act.contains(&seat)
                    && version_acted != Some(seen.version)
                    && seen.first_legal.is_some()
            });
        if may_act && Instant::now() >= next_at {
            let seen = latest.as_ref().expect("a state to act on");
            seq += 1;
            version_acted = Some(seen.version);
            let now = Instant::now();
            sent = Some((seq, now));
            next_at = now + pace.unwrap_or_default();
            let action = seen.first_legal.clone().expect("a legal action");
            send(&mut socket, &ClientMsg::Act { seq, action }).await;
            continue;
        }
        let wake = tokio::time::sleep_until(next_at.into());
        let incoming = tokio::select! {
            incoming = tokio::time::timeout(Duration::from_secs(5), socket.next()) => incoming,
            _ = wake, if may_act => continue,
        };
        let Ok(Some(Ok(Message::Text(text)))) = incoming else {
            break;
        };
        played.bytes += text.len();
        // Whole states are most of what arrives: without patches to apply, read only what
        // acting needs, so the generator's own parsing does not become the measured latency.
        if !patches && let Some(seen) = glance_at_state(&text) {
            if seen.over {
                break;
            }
            latest = Some(seen);
            continue;
        }
        let Ok(msg) = serde_json::from_str::<ServerMsg>(&text) else {
            continue;
        };
        let seen = match msg {
            ServerMsg::Ack { seq: s, version } if sent.is_some_and(|(p, _)| p == s) => {
                played
                    .accepted
                    .push(sent.take().expect("in flight").1.elapsed());
                caught_up_at = version;
                continue;
            }
            ServerMsg::Reject { seq: s, .. } if sent.is_some_and(|(p, _)| p == s) => {
                played.rejected += 1;
                sent = None;
                continue;
            }
            ServerMsg::State(state) => {
                if patches {
                    document = Some(Document::of(&state));
                }
                Seen::of(&state)
            }
            ServerMsg::Patch { version, base, ops } => {
                let Some(document) = &mut document else {
                    panic!("seat {seat}: a patch before any state");
                };
                if let Err(mismatch) = document.apply(version, base, &ops) {
                    panic!("seat {seat}: a patch that does not apply: {mismatch}");
                }
                document.seen()
            }
            _ => continue,
        };
        if seen.over {
            break;
        }
        latest = Some(seen);
    }
    played
}

/// What a seat acts on, read from a state.
struct Seen {
    version: u64,
    to_act: Vec<u8>,
    /// The action the seat sends: the first legal one.
    first_legal: Option<serde_json::Value>,
    /// Whether the match is over.
    over: bool,
}

impl Seen {
    fn of(state: &GameState) -> Seen {
        Seen {
            version: state.version,
            to_act: state.to_act.clone(),
            first_legal: state.legal.first().cloned(),
            over: state.outcome.is_some(),
        }
    }
}

/// A state as the document its patches apply to: its body (`{view, to_act, legal,
/// deadline_ms, outcome}`) kept as JSON and patched in place, read only for what acting needs.
/// A state rebuilt from it after each patch would be written out and read back whole, twice
/// per patch: the generator's own work then outweighed the server's.
struct Document {
    version: u64,
    body: serde_json::Value,
}

impl Document {
    fn of(state: &GameState) -> Document {
        let mut body = serde_json::to_value(state).expect("states serialise");
        if let serde_json::Value::Object(members) = &mut body {
            members.remove("version");
        }
        Document {
            version: state.version,
            body,
        }
    }

    fn apply(&mut self, version: u64, base: u64, ops: &[PatchOp]) -> Result<(), PatchMismatch> {
        if self.version != base {
            return Err(PatchMismatch(format!("base version {base}")));
        }
        patch::apply(&mut self.body, ops)?;
        self.version = version;
        Ok(())
    }

    fn seen(&self) -> Seen {
        let to_act = self.body["to_act"].as_array().map_or(Vec::new(), |seats| {
            seats
                .iter()
                .filter_map(|seat| seat.as_u64().and_then(|s| u8::try_from(s).ok()))
                .collect()
        });
        Seen {
            version: self.version,
            to_act,
            first_legal: self.body["legal"].get(0).cloned(),
            over: !self.body["outcome"].is_null(),
        }
    }
}

/// A `state` frame read for acting on it: its view skipped, not built.
fn glance_at_state(text: &str) -> Option<Seen> {
    /// The fields of a `state` message a player acts on; unknown fields (`type`, `view`) are
    /// skipped without being built.
    #[derive(serde::Deserialize)]
    struct Glance {
        version: u64,
        to_act: Vec<u8>,
        legal: Vec<serde_json::Value>,
        outcome: Option<pandemonium_protocol::Outcome>,
    }
    // The server writes `type` first; anything else takes the full parse.
    if !text.starts_with(r#"{"type":"state","#) {
        return None;
    }
    let glance: Glance = serde_json::from_str(text).ok()?;
    Some(Seen {
        version: glance.version,
        to_act: glance.to_act,
        first_legal: glance.legal.into_iter().next(),
        over: glance.outcome.is_some(),
    })
}

/// A fraction in [0, 1) that differs from process to process and seat to seat (no RNG crate
/// needed for spreading start times).
fn rand_fraction(seat: u8) -> f64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u8(seat);
    (hasher.finish() % 1_000_000) as f64 / 1_000_000.0
}
