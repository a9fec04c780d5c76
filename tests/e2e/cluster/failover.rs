//! A cluster behind a real HAProxy (`front`): a node killed mid-match, and every node
//! restarted in turn, while a DēmoS table and a Demon race play through HAProxy. Nothing any
//! client saw acked is lost or applied twice, and no match ends.

use std::time::Duration;

use serde_json::json;
use tokio::time::Instant;

use pandemonium_protocol::{ClientMsg, RoomCode, RoomStatus};

use super::front::{Front, Player, Turn, assert_acked_once, logged_acts};
use super::postgres;

/// Two tables through HAProxy: DēmoS (complete, 2v2: two players and two bots) and a Demon
/// race of two, both started.
struct Tables {
    demos: RoomCode,
    race: RoomCode,
    /// DēmoS's seats 0 and 1, then the race's 0 and 1.
    players: Vec<Player>,
}

impl Tables {
    async fn open(front: &Front) -> Tables {
        let mut tokens = Vec::new();
        for name in ["Asmodeus", "Belial", "Mammon", "Lilith"] {
            tokens.push(front.guest(name).await);
        }
        // DēmoS under a code of its own proposing, on the node its sockets reach; the race
        // wherever the creation lands, its sockets forwarded there (two times in three).
        let demos = front
            .open_room(
                &tokens[0],
                Some("DEMQ2TAPCK"),
                "demos",
                4,
                vec![2, 3],
                json!({"mode": "complete"}),
            )
            .await;
        assert_eq!(demos.0, "DEMQ2TAPCK", "an unused code proposed is taken");
        let race = front
            .open_room(&tokens[2], None, "demon_klondike", 2, vec![], json!({}))
            .await;
        let mut players = vec![
            Player::sit(front, &tokens[0], &demos, 0).await,
            Player::sit(front, &tokens[1], &demos, 1).await,
            Player::sit(front, &tokens[2], &race, 0).await,
            Player::sit(front, &tokens[3], &race, 1).await,
        ];
        for host in [0, 2] {
            let client = &mut players[host].client;
            client.send(&ClientMsg::Start).await;
            client.room_where(|r| r.status == RoomStatus::Playing).await;
            client.state_at_least(0).await;
        }
        for guest in [1, 3] {
            players[guest].client.state_at_least(0).await;
        }
        Tables {
            demos,
            race,
            players,
        }
    }

    /// The players of `room`, with their seats.
    fn at(&mut self, room: &RoomCode) -> impl Iterator<Item = (u8, &mut Player)> {
        let first = if *room == self.demos { 0 } else { 2 };
        self.players[first..first + 2]
            .iter_mut()
            .enumerate()
            .map(|(seat, p)| (seat as u8, p))
    }

    /// Plays at `room` until one of its players' acts is acked; returns when it was.
    async fn play_until_acked(&mut self, room: &RoomCode, patience: Duration) -> Instant {
        let first = if *room == self.demos { 0 } else { 2 };
        play_until_acked(room, &mut self.players[first..first + 2], patience).await
    }

    /// Plays at both tables at once until each has an act acked; returns when each had.
    async fn both_play(&mut self, patience: Duration) -> [(RoomCode, Instant); 2] {
        let (demos, race) = self.players.split_at_mut(2);
        let (demos_at, race_at) = tokio::join!(
            play_until_acked(&self.demos, demos, patience),
            play_until_acked(&self.race, race, patience)
        );
        [(self.demos.clone(), demos_at), (self.race.clone(), race_at)]
    }

    /// A few rounds at both tables.
    async fn play_rounds(&mut self, rounds: usize) {
        for _ in 0..rounds {
            for room in [self.demos.clone(), self.race.clone()] {
                self.play_until_acked(&room, Duration::from_secs(15)).await;
            }
        }
    }

    /// Every player's acked acts are in their match's log exactly once, and both matches are
    /// still running or ended by their rules (none abandoned).
    async fn assert_logs(&mut self, front: &Front) {
        for room in [self.demos.clone(), self.race.clone()] {
            let match_id = self
                .at(&room)
                .find_map(|(_, p)| p.client.room.as_ref()?.match_id.clone())
                .expect("the room has a match");
            let log = logged_acts(&front.db, &match_id).await;
            let mut acked = 0;
            for (seat, player) in self.at(&room) {
                assert_acked_once(&log, seat, player);
                acked += player.acked.len();
            }
            assert!(acked > 0, "{} was played", room.0);
        }
    }
}

/// Plays at `room`, whose two players are `players` (seats 0 and 1), until one of their acts
/// is acked; returns when it was.
async fn play_until_acked(room: &RoomCode, players: &mut [Player], patience: Duration) -> Instant {
    let deadline = Instant::now() + patience;
    loop {
        for player in players.iter_mut() {
            if player.play_one(patience).await == Turn::Acked {
                return Instant::now();
            }
        }
        if Instant::now() >= deadline {
            let states: Vec<_> = players
                .iter()
                .map(|p| {
                    let s = p.client.state.as_ref();
                    s.map(|s| {
                        (
                            s.version,
                            s.to_act.clone(),
                            s.legal.len(),
                            s.outcome.is_some(),
                        )
                    })
                })
                .collect();
            panic!(
                "nobody at {} could play in {patience:?}: {states:?}",
                room.0
            );
        }
        // Bots' turns: their states come to the players.
        for player in players.iter_mut() {
            if let Some(Err(_)) = player
                .client
                .try_next_within(Duration::from_millis(20))
                .await
            {
                player.reconnect(deadline).await;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_owner_s_rooms_play_again_on_another_node_within_five_seconds() {
    let Some(db) = postgres().await else { return };
    let Some(mut front) = Front::start(db).await else {
        return;
    };
    let mut tables = Tables::open(&front).await;
    tables.play_rounds(3).await;

    let owners = [
        front.owner(&tables.demos).await,
        front.owner(&tables.race).await,
    ];
    let killed_at = Instant::now();
    for owner in &owners {
        if front
            .nodes
            .iter()
            .any(|n| &n.name == owner && n.process.is_some())
        {
            front.kill(owner).await;
        }
    }
    for (room, playing_at) in tables.both_play(Duration::from_secs(15)).await {
        let took = playing_at - killed_at;
        println!("{} played again {took:?} after its node was killed", room.0);
        assert!(
            took <= Duration::from_secs(5),
            "{} was playing again {took:?} after its node was killed",
            room.0
        );
        let owner = front.owner(&room).await;
        assert!(!owners.contains(&owner), "{} moved to a live node", room.0);
    }
    tables.play_rounds(2).await;
    tables.assert_logs(&front).await;
    front.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_node_restarted_in_turn_ends_no_match_and_loses_no_acked_action() {
    let Some(db) = postgres().await else { return };
    let Some(mut front) = Front::start(db).await else {
        return;
    };
    let mut tables = Tables::open(&front).await;
    tables.play_rounds(2).await;
    for node in ["node1", "node2", "node3"] {
        front.restart(node).await;
        tables.play_rounds(2).await;
    }
    for room in [tables.demos.clone(), tables.race.clone()] {
        for (_, player) in tables.at(&room) {
            let status = player.client.room.as_ref().map(|r| r.status);
            assert_eq!(status, Some(RoomStatus::Playing), "{} still plays", room.0);
        }
    }
    tables.assert_logs(&front).await;
    front.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_made_under_its_proposed_code_is_on_the_node_its_sockets_reach() {
    let Some(db) = postgres().await else { return };
    let Some(front) = Front::start(db).await else {
        return;
    };
    let mut tokens = Vec::new();
    for name in ["Paimon", "Bael", "Astaroth"] {
        tokens.push(front.guest(name).await);
    }
    let mut players = Vec::new();
    for (host, code) in [(0, "PAYM2NCDEF"), (2, "AKTAR7HTXW")] {
        let room = front
            .open_room(
                &tokens[host],
                Some(code),
                "twenty_one",
                2,
                vec![],
                json!({}),
            )
            .await;
        assert_eq!(room.0, code);
        players.push(Player::sit(&front, &tokens[host], &room, 0).await);
        players.push(Player::sit(&front, &tokens[1], &room, 1).await);
    }
    assert_eq!(front.sockets_forwarded().await, 0, "no socket was relayed");
    // A code with a past is never given to a new room: its match may wait in the log.
    let again = front
        .open_room(
            &tokens[1],
            Some("PAYM2NCDEF"),
            "twenty_one",
            2,
            vec![],
            json!({}),
        )
        .await;
    assert_ne!(again.0, "PAYM2NCDEF", "a used code is drawn again");
    front.stop().await;
}
