//! What a room puts in its connections' outboxes: a slow client is dropped rather than slowing
//! its room (the room never waits for an outbox), and changes queued together reach everyone
//! as one room snapshot.

use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

use pandemonium_protocol::{JoinRole, RoomCode};
use pandemonium_server::identity::Player;
use pandemonium_server::metrics::Metrics;
use pandemonium_server::room::{
    self, Outgoing, Patches, RoomCmd, RoomHandle, RoomServices, RoomSetup, SeatState,
};
use pandemonium_server::store::{RoomSettings, Store};

use crate::on_both_stores;
use crate::support::TestDb;

fn player(id: &str) -> Player {
    Player {
        id: id.into(),
        name: id.into(),
    }
}

/// Puts `conn` in the room as the player `id`, its frames going to `outbox`.
async fn join(handle: &RoomHandle, conn: u64, id: &str, outbox: mpsc::Sender<Outgoing>) {
    handle
        .tx
        .send(RoomCmd::Join {
            conn,
            player: player(id),
            role: JoinRole::Player,
            version: None,
            patches: Patches::Off,
            outbox,
        })
        .await
        .unwrap();
}

async fn take_seat(handle: &RoomHandle, conn: u64, seat: u8) {
    handle
        .tx
        .send(RoomCmd::Client {
            conn,
            msg: pandemonium_protocol::ClientMsg::TakeSeat { seat },
        })
        .await
        .unwrap();
}

/// A two-seat Twenty-One room, waiting for its players.
fn twenty_one_room(store: &Store, metrics: Arc<Metrics>) -> RoomHandle {
    let entry = pandemonium_e2e::games()
        .iter()
        .find(|e| (e.info)().id == "twenty_one")
        .unwrap();
    room::spawn(
        RoomSetup {
            code: RoomCode("ACDEFG".into()),
            entry,
            game_id: "twenty_one".into(),
            options: serde_json::json!({}),
            settings: RoomSettings {
                public: false,
                turn_seconds: None,
                grace_seconds: 60,
                host: None,
            },
            host_name: None,
            seats: vec![SeatState::default(); 2],
            resumed: None,
            lease: None,
        },
        RoomServices {
            log: store.clone().into(),
            metrics: metrics.clone(),
            bot_delay: Duration::from_millis(1),
            empty_room: Duration::from_secs(60),
            max_spectators: 200,
            patch_min_bytes: 0,
            on_close: Arc::new(|_: &RoomCode| {}),
        },
    )
}

async fn a_client_whose_outbox_is_full_is_dropped_and_the_room_carries_on(db: &TestDb) {
    let store = Store::connect(&db.url).await.expect("store");
    let metrics = Arc::new(Metrics::default());
    let handle = twenty_one_room(&store, metrics.clone());
    // The slow client's outbox holds one message, and nobody ever reads it.
    let (slow_tx, mut slow_rx) = mpsc::channel::<Outgoing>(1);
    join(&handle, 1, "slow", slow_tx).await;
    // Its first snapshot fills the slow client's outbox (read without taking it).
    tokio::time::timeout(Duration::from_secs(5), async {
        while slow_rx.is_empty() {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    })
    .await
    .expect("the slow client is sent the room");
    // A healthy client with room to spare.
    let (tx, mut rx) = mpsc::channel::<Outgoing>(64);
    join(&handle, 2, "quick", tx).await;
    // Each change waits for the healthy client to hear of the one before: changes queued
    // together would go out as one snapshot, and the slow client's outbox would never fill.
    let next_frame = async |rx: &mut mpsc::Receiver<Outgoing>| {
        matches!(
            tokio::time::timeout(Duration::from_secs(5), rx.recv()).await,
            Ok(Some(Outgoing::Frame(_)))
        )
    };
    assert!(
        next_frame(&mut rx).await,
        "the healthy client hears of its join"
    );
    let mut frames = 1;
    for seat in 0..2u8 {
        let conn = seat as u64 + 1;
        take_seat(&handle, conn, seat).await;
        assert!(
            next_frame(&mut rx).await,
            "the healthy client hears of seat {seat}"
        );
        frames += 1;
    }
    // The healthy client keeps getting news while the slow one is let go.
    while let Ok(Some(Outgoing::Frame(_))) =
        tokio::time::timeout(Duration::from_millis(500), rx.recv()).await
    {
        frames += 1;
    }
    assert!(
        frames >= 2,
        "the healthy client was served ({frames} frames)"
    );
    assert!(
        matches!(slow_rx.recv().await, Some(Outgoing::Frame(_))),
        "its one queued frame"
    );
    assert!(
        slow_rx.recv().await.is_none(),
        "then the room let go of the slow client"
    );
    assert!(
        metrics
            .dropped_slow_clients
            .load(std::sync::atomic::Ordering::Relaxed)
            >= 1
    );
    let summary = handle.summary();
    assert_eq!(summary.seated, 1, "only the healthy client's seat is taken");
    store.close().await;
}
on_both_stores!(a_client_whose_outbox_is_full_is_dropped_and_the_room_carries_on);

/// Everything player `i`'s outbox holds until it has been quiet for 300 ms, each a room
/// snapshot (anything else fails the test).
async fn room_snapshots(
    rx: &mut mpsc::Receiver<Outgoing>,
    i: usize,
) -> Vec<pandemonium_protocol::RoomSnapshot> {
    use pandemonium_protocol::ServerMsg;

    let mut snapshots = Vec::new();
    while let Ok(Some(outgoing)) = tokio::time::timeout(Duration::from_millis(300), rx.recv()).await
    {
        let Outgoing::Frame(frame) = outgoing else {
            panic!("player {i} was let go: {outgoing:?}");
        };
        match serde_json::from_str::<ServerMsg>(frame.as_str()).expect("a server message") {
            ServerMsg::Room(snapshot) => snapshots.push(snapshot),
            other => panic!("player {i} was sent {other:?}"),
        }
    }
    snapshots
}

/// Two players joining and sitting down at once: four changes, queued before the room gets to
/// them. Each player hears of them in one snapshot that shows them all, not in one snapshot per
/// change (which, when 250 tables turn over at once, is most of what the server sends).
#[tokio::test]
async fn changes_queued_together_reach_everyone_as_one_room_snapshot() {
    let db = TestDb::new(crate::support::Backend::Sqlite)
        .await
        .expect("sqlite");
    let store = Store::connect(&db.url).await.expect("store");
    let handle = twenty_one_room(&store, Arc::new(Metrics::default()));
    // This test's runtime has one thread: the room does not run until the test waits.
    let mut outboxes = Vec::new();
    for conn in 1..=2u64 {
        let (tx, rx) = mpsc::channel::<Outgoing>(64);
        outboxes.push(rx);
        join(&handle, conn, &format!("p{conn}"), tx).await;
    }
    for seat in 0..2u8 {
        take_seat(&handle, seat as u64 + 1, seat).await;
    }
    for (i, rx) in outboxes.iter_mut().enumerate() {
        let snapshots = room_snapshots(rx, i).await;
        assert_eq!(snapshots.len(), 1, "player {i}: {snapshots:?}");
        let seated: Vec<_> = snapshots[0]
            .seats
            .iter()
            .map(|s| s.player.as_ref().map(|p| p.id.clone()))
            .collect();
        assert_eq!(seated, [Some("p1".into()), Some("p2".into())]);
        assert_eq!(snapshots[0].you, Some(i as u8));
    }
    store.close().await;
    db.drop_database().await;
}

/// Two players whose messages arrive at the same moment, each through its own connection (its
/// own task). A task woken by another runs next on the runtime's worker, so the room used to
/// run as soon as the first connection handed it a message, and sent a snapshot per
/// connection, each to everyone. The room now lets the other connections hand over what they
/// hold before it sends the snapshot, and each player hears of it all once.
#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn changes_sent_together_through_several_connections_reach_everyone_as_one_snapshot() {
    let db = TestDb::new(crate::support::Backend::Sqlite)
        .await
        .expect("sqlite");
    let store = Store::connect(&db.url).await.expect("store");
    let handle = twenty_one_room(&store, Arc::new(Metrics::default()));
    let (go, _) = tokio::sync::broadcast::channel::<()>(1);
    let mut outboxes = Vec::new();
    let mut connections = Vec::new();
    for seat in 0..2u8 {
        let conn = seat as u64 + 1;
        let (tx, rx) = mpsc::channel::<Outgoing>(64);
        outboxes.push(rx);
        let (handle, mut go) = (handle.clone(), go.subscribe());
        connections.push(tokio::spawn(async move {
            go.recv().await.expect("the signal to go");
            join(&handle, conn, &format!("p{conn}"), tx).await;
            take_seat(&handle, conn, seat).await;
        }));
    }
    // Both connections wait for the signal. It is sent from a task on the worker, as the
    // runtime wakes connections whose sockets have data, so that both are ready to run before
    // either does (sent from this thread, the worker could start on one before the other woke).
    tokio::time::sleep(Duration::from_millis(50)).await;
    tokio::spawn(async move { go.send(()).expect("both connections listen") })
        .await
        .expect("the signal is sent");
    for connection in connections {
        connection
            .await
            .expect("the connection hands over its messages");
    }
    for (i, rx) in outboxes.iter_mut().enumerate() {
        let snapshots = room_snapshots(rx, i).await;
        let seated: Vec<Vec<Option<String>>> = snapshots
            .iter()
            .map(|s| {
                s.seats
                    .iter()
                    .map(|s| s.player.as_ref().map(|p| p.id.clone()))
                    .collect()
            })
            .collect();
        assert_eq!(
            seated,
            [[Some("p1".to_string()), Some("p2".to_string())]],
            "player {i}: one snapshot, showing both seated"
        );
    }
    store.close().await;
    db.drop_database().await;
}
