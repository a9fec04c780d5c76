//! The lobby across nodes: two nodes on one database (two apps in this process) list the same
//! public rooms, answer for each other's rooms by code and count the same people online, a
//! change on one reaching the other within a second. The waits poll the other node with a
//! short interval and a deadline.

use std::time::Duration;

use serde_json::json;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use pandemonium_protocol::{ClientMsg, JoinRole, RoomCode, RoomList, RoomSummary};
use pandemonium_server::Config;
use pandemonium_server::app::{AppState, Application};
use pandemonium_server::cluster::directory::RELOAD_EVERY;

use super::postgres;
use crate::play::{host_room, request};
use crate::support::{Client, Http, TestDb};

/// How soon a change on one node is seen on the other.
const WITHIN: Duration = Duration::from_secs(1);

/// A node running in this process, with its state at hand (to stop its heartbeat).
struct Node {
    port: u16,
    http: Http,
    state: AppState,
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl Node {
    /// A node whose leases last a second, renewed ten times a second; `config` may change
    /// the rest.
    async fn start(db: &TestDb, name: &str, config: impl FnOnce(&mut Config)) -> Node {
        let mut settings = Config::for_tests(&db.url);
        settings.cluster.enabled = true;
        settings.node_name = Some(name.into());
        settings.cluster.lease_ms = 1_000;
        settings.cluster.lease_renew_ms = 100;
        config(&mut settings);
        let app = Application::build_with_games(settings, pandemonium_e2e::games())
            .await
            .expect("the node starts");
        let (port, state) = (app.port(), app.state().clone());
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(app.run_until(async {
            let _ = stopped.await;
        }));
        Node {
            port,
            http: Http::new(port),
            state,
            stop,
            task,
        }
    }

    async fn rooms(&self) -> RoomList {
        let response = self.http.get("/api/rooms").await;
        assert_eq!(response.status, 200, "{}", response.body);
        response.json()
    }

    async fn listed(&self, code: &RoomCode) -> Option<RoomSummary> {
        self.rooms()
            .await
            .rooms
            .into_iter()
            .find(|r| &r.code == code)
    }

    async fn stop(self) {
        let _ = self.stop.send(());
        let _ = tokio::time::timeout(Duration::from_secs(10), self.task).await;
    }
}

/// Polls `check` every 20 ms until it gives a value; fails with `what` after `deadline`.
async fn within<T>(deadline: Duration, what: &str, mut check: impl AsyncFnMut() -> Option<T>) -> T {
    let end = Instant::now() + deadline;
    loop {
        if let Some(found) = check().await {
            return found;
        }
        assert!(Instant::now() < end, "not within {deadline:?}: {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Nodes A and B on `db`, and Alice at a public Twenty-One table she opened on A, seated.
async fn alice_hosts_on_a(db: &TestDb) -> (Node, Node, Client, RoomCode) {
    let a = Node::start(db, "node-a", |_| {}).await;
    let b = Node::start(db, "node-b", |_| {}).await;
    let mut alice = Client::guest(a.port, "Alice").await;
    let app_a = crate::support::TestApp::attach(a.port);
    let code = host_room(
        &app_a,
        &mut alice,
        &request("twenty_one", 2, vec![], json!({})),
        0,
    )
    .await;
    (a, b, alice, code)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_public_room_opened_on_one_node_is_listed_by_the_other_with_its_seats_and_its_people() {
    let Some(db) = postgres().await else { return };
    let (a, b, alice, code) = alice_hosts_on_a(&db).await;

    let listed = within(WITHIN, "B lists A's room", async || {
        b.listed(&code).await.filter(|room| room.seated == 1)
    })
    .await;
    assert_eq!(listed.players, vec![Some("Alice".into()), None]);
    assert_eq!(listed.game, "twenty_one");

    // Bob sits on A: B shows the seat taken.
    let mut bob = Client::guest(a.port, "Bob").await;
    bob.join(&code, JoinRole::Player).await;
    bob.send(&ClientMsg::TakeSeat { seat: 1 }).await;
    bob.room_where(|r| r.you == Some(1)).await;
    let listed = within(WITHIN, "B shows Bob's seat", async || {
        b.listed(&code).await.filter(|room| room.seated == 2)
    })
    .await;
    assert_eq!(
        listed.players,
        vec![Some("Alice".into()), Some("Bob".into())]
    );

    // Both are connected to A only: B counts them. Alice opens a tab on B too: still two.
    within(WITHIN, "B counts A's two people", async || {
        (b.rooms().await.online == 2).then_some(())
    })
    .await;
    let alice_on_b = Client::with_token(b.port, &alice.token).await;
    let carol = Client::guest(b.port, "Carol").await;
    within(WITHIN, "A counts Carol, on B, and Alice once", async || {
        (a.rooms().await.online == 3).then_some(())
    })
    .await;
    assert_eq!(
        b.rooms().await.online,
        3,
        "Alice, on both nodes, counts once"
    );

    // A person whose last connection closes is no longer counted, on either node.
    drop(carol);
    drop(alice_on_b);
    within(WITHIN, "A no longer counts Carol", async || {
        (a.rooms().await.online == 2).then_some(())
    })
    .await;
    assert_eq!(b.rooms().await.online, 2);

    a.stop().await;
    within(
        WITHIN,
        "a node that left takes its rooms and people along",
        async || {
            let rooms = b.rooms().await;
            (rooms.online == 0 && rooms.rooms.is_empty()).then_some(())
        },
    )
    .await;
    b.stop().await;
    db.drop_database().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_room_is_found_by_its_code_on_another_node_but_never_listed_and_a_closed_room_leaves()
 {
    let Some(db) = postgres().await else { return };
    // A's empty rooms close after a second.
    let a = Node::start(&db, "node-a", |config| config.empty_room_seconds = 1).await;
    let b = Node::start(&db, "node-b", |_| {}).await;
    let private = json!({"game": "twenty_one", "seats": 2, "bots": [1], "public": false});
    let created = a.http.post("/api/rooms", &private, None).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let private: RoomSummary = created.json();
    let public = json!({"game": "twenty_one", "seats": 2, "bots": [], "public": true});
    let created = a.http.post("/api/rooms", &public, None).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let public: RoomSummary = created.json();

    let path = format!("/api/rooms/{}", private.code.0);
    let found = within(WITHIN, "B answers for A's private room", async || {
        let response = b.http.get(&path).await;
        (response.status == 200).then(|| response.json::<RoomSummary>())
    })
    .await;
    assert_eq!((found.public, found.seats, found.seated), (false, 2, 1));
    within(WITHIN, "B lists A's public room", async || {
        b.listed(&public.code).await
    })
    .await;
    assert!(
        b.listed(&private.code).await.is_none(),
        "a private room is never listed"
    );

    // Nobody joins: both rooms close on A, and leave B's list and lookups.
    within(
        Duration::from_secs(5),
        "the closed rooms leave B",
        async || {
            let gone =
                b.listed(&public.code).await.is_none() && b.http.get(&path).await.status == 404;
            gone.then_some(())
        },
    )
    .await;
    assert!(a.listed(&public.code).await.is_none(), "closed on A");
    a.stop().await;
    b.stop().await;
    db.drop_database().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rooms_and_people_of_a_node_that_stopped_heartbeating_leave_the_lobby() {
    let Some(db) = postgres().await else { return };
    let (a, b, _alice, code) = alice_hosts_on_a(&db).await;
    within(WITHIN, "B lists A's room and counts Alice", async || {
        let rooms = b.rooms().await;
        (rooms.online == 1 && rooms.rooms.iter().any(|r| r.code == code)).then_some(())
    })
    .await;

    // A stops renewing (paused, cut off): once its leases (a second) have run out, B no
    // longer lists its room nor counts its people, though A's rows are still there.
    let stopped_at = Instant::now();
    a.state
        .store
        .node()
        .expect("a cluster node")
        .stop_heartbeat()
        .await;
    within(
        Duration::from_secs(3),
        "B drops A's room and people",
        async || {
            let rooms = b.rooms().await;
            (rooms.online == 0 && rooms.rooms.is_empty()).then_some(())
        },
    )
    .await;
    assert!(
        stopped_at.elapsed() >= Duration::from_millis(800),
        "not before A's leases could have expired ({:?})",
        stopped_at.elapsed()
    );
    a.stop().await;
    b.stop().await;
    db.drop_database().await;
}

/// While the lobby's tables cannot be read or written (as when the database is away), each
/// node serves the lobby it last loaded; once they can, changes flow again, those made
/// meanwhile included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_cannot_load_the_lobby_serves_the_last_one_and_catches_up_after() {
    let Some(db) = postgres().await else { return };
    let (a, b, _alice, code) = alice_hosts_on_a(&db).await;
    within(WITHIN, "B lists A's room", async || b.listed(&code).await).await;

    super::sql(&db, "ALTER TABLE lobby_rooms RENAME TO lobby_rooms_away").await;
    let mut bob = Client::guest(a.port, "Bob").await;
    bob.join(&code, JoinRole::Player).await;
    bob.send(&ClientMsg::TakeSeat { seat: 1 }).await;
    bob.room_where(|r| r.you == Some(1)).await;
    // Past B's next reload (every second without notifications, and A can notify none):
    // B keeps what it had.
    tokio::time::sleep(RELOAD_EVERY + Duration::from_millis(200)).await;
    let listed = b
        .listed(&code)
        .await
        .expect("still listed from the last load");
    assert_eq!(listed.seated, 1, "the last load, from before Bob sat");

    super::sql(&db, "ALTER TABLE lobby_rooms_away RENAME TO lobby_rooms").await;
    within(
        Duration::from_secs(3),
        "B shows Bob's seat once the table is back",
        async || b.listed(&code).await.filter(|room| room.seated == 2),
    )
    .await;
    a.stop().await;
    b.stop().await;
    db.drop_database().await;
}
