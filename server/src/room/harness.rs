//! A room in this process over a match log in memory, driven through its mailbox on paused
//! time: the room's clocks, bots, grace periods, empty-room timeout and rollback are tested
//! without a database, a socket or a real wait. Paused, tokio moves the clock straight to the
//! next timer whenever every task waits, so a test that waits for the room's next message
//! takes no real time, and `Instant::now()` says exactly when the room acted.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use serde_json::json;
use tokio::sync::mpsc;
use tokio::time::Instant;

use pandemonium_game_contract::fixture::TwentyOne;
use pandemonium_game_contract::{GameEntry, RandomBot};
use pandemonium_protocol::{
    ActionSource, BotPace, ClientMsg, ErrorCode, JoinRole, Presence, RoomCode, Seat, ServerMsg,
};

use super::match_log::{MatchLog, Memory};
use super::{
    ConnId, JOIN_FRAMES, Outgoing, Patches, RoomCmd, RoomHandle, RoomServices, RoomSetup,
    SeatState, spawn,
};
use crate::identity::Player;
use crate::store::RoomSettings;

static TWENTY_ONE: LazyLock<GameEntry> = LazyLock::new(GameEntry::of::<TwentyOne, RandomBot>);

const BOT_DELAY: Duration = Duration::from_millis(600);
const EMPTY_ROOM: Duration = Duration::from_secs(60);

/// One room of Twenty-One (seats take turns from seat 0; `stand` is the clock's default).
struct Harness {
    handle: RoomHandle,
    memory: Arc<Memory>,
    closed: Arc<AtomicBool>,
    next_conn: ConnId,
}

/// A connection to the room.
struct Conn {
    id: ConnId,
    rx: mpsc::Receiver<Outgoing>,
    seq: u64,
}

impl Harness {
    fn open(seats: Vec<SeatState>, settings: RoomSettings) -> Harness {
        Harness::open_on(Memory::default(), seats, settings)
    }

    /// A room over `memory` as it stands (with a lease to take, say).
    fn open_on(memory: Memory, seats: Vec<SeatState>, settings: RoomSettings) -> Harness {
        let memory = Arc::new(memory);
        let closed = Arc::new(AtomicBool::new(false));
        let on_close = {
            let closed = closed.clone();
            Arc::new(move |_: &RoomCode| closed.store(true, Ordering::SeqCst))
        };
        let services = RoomServices {
            log: MatchLog::Memory(memory.clone()),
            metrics: Default::default(),
            bot_delay: BOT_DELAY,
            empty_room: EMPTY_ROOM,
            max_spectators: 10,
            patch_min_bytes: 0,
            on_close,
        };
        let setup = RoomSetup {
            code: RoomCode("TESTROOM01".into()),
            entry: &TWENTY_ONE,
            game_id: "twenty_one".into(),
            options: json!({}),
            settings,
            host_name: None,
            seats,
            resumed: None,
            lease: None,
        };
        Harness {
            handle: spawn(setup, services),
            memory,
            closed,
            next_conn: 1,
        }
    }

    /// `name` joins to play, sits in `seat` and is ready.
    async fn seat(&mut self, name: &str, seat: Seat) -> Conn {
        let mut conn = self.join(name, JoinRole::Player).await;
        self.send(&conn, ClientMsg::TakeSeat { seat }).await;
        self.send(&conn, ClientMsg::Ready { ready: true }).await;
        conn.until(|msg| match msg {
            ServerMsg::Room(room) if room.you == Some(seat) => Some(()),
            _ => None,
        })
        .await;
        conn
    }

    async fn join(&mut self, name: &str, role: JoinRole) -> Conn {
        let (outbox, rx) = mpsc::channel(16 + JOIN_FRAMES);
        let id = self.next_conn;
        self.next_conn += 1;
        let player = Player {
            id: format!("{name}-id"),
            name: name.into(),
        };
        self.command(RoomCmd::Join {
            conn: id,
            player,
            role,
            version: None,
            patches: Patches::Off,
            outbox,
        })
        .await;
        Conn { id, rx, seq: 0 }
    }

    async fn send(&self, conn: &Conn, msg: ClientMsg) {
        self.command(RoomCmd::Client { conn: conn.id, msg }).await;
    }

    async fn command(&self, cmd: RoomCmd) {
        self.handle.tx.send(cmd).await.expect("the room is open");
    }

    /// The host starts the match; returns its first state's deadline.
    async fn start(&self, host: &mut Conn) -> Option<u64> {
        self.send(host, ClientMsg::Start).await;
        host.until(|msg| match msg {
            ServerMsg::State(state) if state.version == 0 => Some(state.deadline_ms),
            _ => None,
        })
        .await
    }

    /// Every action the log holds, as (seat, action, who chose it).
    fn logged(&self) -> Vec<(Seat, serde_json::Value, ActionSource)> {
        self.memory
            .lock()
            .actions
            .iter()
            .map(|(_, _, seat, action, by)| (*seat, serde_json::from_str(action).unwrap(), *by))
            .collect()
    }
}

impl Conn {
    /// Waits for the room's next message `pick` takes, skipping the others.
    async fn until<T>(&mut self, mut pick: impl FnMut(ServerMsg) -> Option<T>) -> T {
        loop {
            match self.rx.recv().await.expect("the room keeps the connection") {
                Outgoing::Frame(frame) => {
                    let msg = serde_json::from_str(&frame).expect("a server message");
                    if let Some(found) = pick(msg) {
                        return found;
                    }
                }
                other => panic!("the room let the connection go: {other:?}"),
            }
        }
    }

    /// Waits for the state at `version` (or later).
    async fn state_at(&mut self, version: u64) {
        self.until(|msg| match msg {
            ServerMsg::State(state) if state.version >= version => Some(()),
            _ => None,
        })
        .await
    }

    /// Sends an action and waits for its answer: the version it made, or the refusal's code.
    async fn act(
        &mut self,
        harness: &Harness,
        action: serde_json::Value,
    ) -> Result<u64, ErrorCode> {
        self.seq += 1;
        let seq = self.seq;
        harness.send(self, ClientMsg::Act { seq, action }).await;
        self.until(|msg| match msg {
            ServerMsg::Ack { seq: s, version } if s == seq => Some(Ok(version)),
            ServerMsg::Reject { seq: s, code, .. } if s == seq => Some(Err(code)),
            _ => None,
        })
        .await
    }
}

fn settings(turn_seconds: Option<u32>, grace_seconds: u32) -> RoomSettings {
    RoomSettings {
        public: false,
        turn_seconds,
        grace_seconds,
        host: None,
    }
}

fn people(seats: usize) -> Vec<SeatState> {
    vec![SeatState::default(); seats]
}

#[tokio::test(start_paused = true)]
async fn a_player_out_of_time_gets_the_default_action_at_the_deadline_logged_as_a_timeout() {
    let mut room = Harness::open(people(1), settings(Some(10), 30));
    let mut alice = room.seat("Alice", 0).await;
    let started = Instant::now();
    assert_eq!(
        room.start(&mut alice).await,
        Some(10_000),
        "the clock shows the time left"
    );
    // Alice does nothing: when her ten seconds are up, the room stands for her.
    alice.state_at(1).await;
    assert_eq!(started.elapsed(), Duration::from_secs(10));
    assert_eq!(
        room.logged(),
        vec![(0, json!({"type": "stand"}), ActionSource::Timeout)]
    );
}

#[tokio::test(start_paused = true)]
async fn a_seats_clock_is_not_restarted_by_another_seats_action() {
    // Seat 0 draws five seconds in; seat 1's clock starts then, not before.
    let mut room = Harness::open(people(2), settings(Some(10), 300));
    let mut alice = room.seat("Alice", 0).await;
    let mut bob = room.seat("Bob", 1).await;
    room.start(&mut alice).await;
    tokio::time::sleep(Duration::from_secs(5)).await;
    let started = Instant::now();
    assert_eq!(alice.act(&room, json!({"type": "stand"})).await, Ok(1));
    bob.state_at(2).await;
    assert_eq!(
        started.elapsed(),
        Duration::from_secs(10),
        "Bob's own ten seconds"
    );
    assert_eq!(room.logged()[1].2, ActionSource::Timeout);
}

#[tokio::test(start_paused = true)]
async fn a_bot_seat_acts_after_the_delay_of_its_pace() {
    let slow_bot = SeatState {
        bot: true,
        pace: BotPace::Slow,
        ..SeatState::default()
    };
    let mut room = Harness::open(vec![SeatState::default(), slow_bot], settings(None, 30));
    let mut alice = room.seat("Alice", 0).await;
    room.start(&mut alice).await;
    assert_eq!(alice.act(&room, json!({"type": "stand"})).await, Ok(1));
    let turn = Instant::now();
    alice.state_at(2).await;
    assert_eq!(
        turn.elapsed(),
        BOT_DELAY * 3,
        "a slow bot takes three times the delay"
    );
    assert_eq!(room.logged()[1].0, 1);
    assert_eq!(room.logged()[1].2, ActionSource::Bot);
}

#[tokio::test(start_paused = true)]
async fn a_player_away_past_the_grace_period_is_played_by_a_bot_until_they_return() {
    let mut room = Harness::open(people(2), settings(None, 20));
    let mut alice = room.seat("Alice", 0).await;
    let bob = room.seat("Bob", 1).await;
    room.start(&mut alice).await;
    room.command(RoomCmd::Leave { conn: bob.id }).await;
    let left = Instant::now();
    let presence_of_bob = |msg| match msg {
        ServerMsg::Room(room) => Some(room.seats[1].presence),
        _ => None,
    };
    assert_eq!(alice.until(presence_of_bob).await, Presence::Reconnecting);
    assert_eq!(alice.until(presence_of_bob).await, Presence::Bot);
    assert_eq!(left.elapsed(), Duration::from_secs(20));
    assert_eq!(alice.act(&room, json!({"type": "stand"})).await, Ok(1));
    alice.state_at(2).await;
    assert_eq!(
        room.logged()[1],
        (1, room.logged()[1].1.clone(), ActionSource::Bot)
    );
    // Bob is back: the seat is his again.
    let _bob = room.join("Bob", JoinRole::Player).await;
    assert_eq!(alice.until(presence_of_bob).await, Presence::Online);
}

#[tokio::test(start_paused = true)]
async fn a_room_nobody_is_in_closes_after_its_wait_and_abandons_its_match() {
    // Both players drop mid-match, with a grace period longer than the room's wait: no bot
    // takes their seats and plays the match out before the room closes.
    let mut room = Harness::open(people(2), settings(None, 300));
    let mut alice = room.seat("Alice", 0).await;
    let bob = room.seat("Bob", 1).await;
    room.start(&mut alice).await;
    let match_id = room.memory.lock().started[0].id.clone();
    for conn in [&alice, &bob] {
        room.command(RoomCmd::Leave { conn: conn.id }).await;
    }
    let empty = Instant::now();
    tokio::time::sleep(EMPTY_ROOM - Duration::from_secs(1)).await;
    assert!(
        !room.closed.load(Ordering::SeqCst),
        "open until its wait is over"
    );
    tokio::time::sleep(Duration::from_secs(1)).await;
    room.handle.tx.closed().await;
    assert_eq!(empty.elapsed(), EMPTY_ROOM);
    assert!(room.closed.load(Ordering::SeqCst), "the lobby is told");
    assert_eq!(room.memory.lock().abandoned, vec![match_id]);
}

#[tokio::test(start_paused = true)]
async fn an_action_the_log_cannot_keep_is_refused_and_undone() {
    let mut room = Harness::open(people(1), settings(None, 30));
    let mut alice = room.seat("Alice", 0).await;
    room.start(&mut alice).await;
    room.memory.lock().refuse_appends = true;
    assert_eq!(
        alice.act(&room, json!({"type": "draw"})).await,
        Err(ErrorCode::StorageUnavailable)
    );
    room.memory.lock().refuse_appends = false;
    // The match stands where it was durable: the next action is version 1 again.
    assert_eq!(alice.act(&room, json!({"type": "draw"})).await, Ok(1));
    assert_eq!(room.logged().len(), 1);
}

/// What a connection receives until the room closes it: the messages, and the close.
async fn until_closed(conn: &mut Conn) -> (Vec<ServerMsg>, (u16, &'static str)) {
    let mut seen = Vec::new();
    loop {
        match conn.rx.recv().await.expect("the room closes the socket") {
            Outgoing::Frame(frame) => seen.push(serde_json::from_str(&frame).unwrap()),
            Outgoing::Close(code, reason) => return (seen, (code, reason)),
            Outgoing::Refused => panic!("the room refused the connection"),
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_room_whose_append_is_fenced_stops_without_acking_or_abandoning_and_sends_everyone_to_reconnect()
 {
    let mut room = Harness::open(people(2), settings(None, 30));
    let mut alice = room.seat("Alice", 0).await;
    let mut bob = room.seat("Bob", 1).await;
    room.start(&mut alice).await;
    // Another node has taken the room over: this node's appends are refused by the epoch.
    room.memory.lock().lease_lost = true;
    room.send(
        &alice,
        ClientMsg::Act {
            seq: 1,
            action: json!({"type": "draw"}),
        },
    )
    .await;
    for conn in [&mut alice, &mut bob] {
        let (seen, close) = until_closed(conn).await;
        assert_eq!(close, (1012, "the room moved to another server; reconnect"));
        assert!(
            !seen.iter().any(|msg| match msg {
                ServerMsg::Ack { .. } | ServerMsg::Reject { .. } => true,
                ServerMsg::State(state) => state.version > 0,
                _ => false,
            }),
            "nothing of the refused action is told: {seen:?}"
        );
    }
    room.handle.tx.closed().await;
    assert!(
        room.closed.load(Ordering::SeqCst),
        "the room leaves this node's lobby"
    );
    let written = room.memory.lock();
    assert!(written.actions.is_empty());
    assert!(
        written.abandoned.is_empty(),
        "the match is the new owner's: not abandoned here"
    );
}

#[tokio::test(start_paused = true)]
async fn a_room_whose_lease_the_heartbeat_finds_gone_closes_its_sockets_at_once() {
    let (lease, lose) = crate::cluster::Lease::for_tests("TESTROOM01", 1);
    let memory = Memory::default();
    memory.lock().lease = Some(lease);
    let mut room = Harness::open_on(memory, people(1), settings(None, 30));
    let mut alice = room.seat("Alice", 0).await;
    room.start(&mut alice).await;
    assert_eq!(alice.act(&room, json!({"type": "draw"})).await, Ok(1));
    let lost_at = Instant::now();
    lose.send(true).unwrap();
    let (_, close) = until_closed(&mut alice).await;
    assert_eq!(close.0, 1012);
    assert_eq!(lost_at.elapsed(), Duration::ZERO, "no timer: at once");
    room.handle.tx.closed().await;
    assert!(room.closed.load(Ordering::SeqCst));
    assert!(room.memory.lock().abandoned.is_empty());
    assert_eq!(room.logged().len(), 1, "what was durable stays");
}
