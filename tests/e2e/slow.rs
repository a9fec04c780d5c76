//! A slow client is dropped rather than slowing its room: the room never waits for an outbox.

use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

use pandemonium_protocol::{JoinRole, RoomCode};
use pandemonium_server::identity::Player;
use pandemonium_server::metrics::Metrics;
use pandemonium_server::room::{self, Outgoing, RoomCmd, RoomServices, RoomSetup, SeatState};
use pandemonium_server::store::{RoomSettings, Store};

use crate::on_both_stores;
use crate::support::TestDb;

fn player(id: &str) -> Player {
    Player {
        id: id.into(),
        name: id.into(),
    }
}

async fn a_client_whose_outbox_is_full_is_dropped_and_the_room_carries_on(db: &TestDb) {
    let store = Store::connect(&db.url).await.expect("store");
    let metrics = Arc::new(Metrics::default());
    let entry = pandemonium_e2e::games()
        .iter()
        .find(|e| (e.info)().id == "twenty_one")
        .unwrap();
    let handle = room::spawn(
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
            seats: vec![SeatState::default(); 2],
            resumed: None,
        },
        RoomServices {
            store: store.clone(),
            metrics: metrics.clone(),
            bot_delay: Duration::from_millis(1),
            empty_room: Duration::from_secs(60),
            max_spectators: 200,
            on_close: Arc::new(|_: &RoomCode| {}),
        },
    );
    // The slow client's outbox holds one message, and nobody ever reads it.
    let (slow_tx, mut slow_rx) = mpsc::channel::<Outgoing>(1);
    handle
        .tx
        .send(RoomCmd::Join {
            conn: 1,
            player: player("slow"),
            role: JoinRole::Player,
            version: None,
            patches: false,
            outbox: slow_tx,
        })
        .await
        .unwrap();
    // A healthy client with room to spare.
    let (tx, mut rx) = mpsc::channel::<Outgoing>(64);
    handle
        .tx
        .send(RoomCmd::Join {
            conn: 2,
            player: player("quick"),
            role: JoinRole::Player,
            version: None,
            patches: false,
            outbox: tx,
        })
        .await
        .unwrap();
    for seat in 0..2u8 {
        let conn = seat as u64 + 1;
        handle
            .tx
            .send(RoomCmd::Client {
                conn,
                msg: pandemonium_protocol::ClientMsg::TakeSeat { seat },
            })
            .await
            .unwrap();
    }
    // The healthy client keeps getting news while the slow one is let go.
    let mut frames = 0;
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
