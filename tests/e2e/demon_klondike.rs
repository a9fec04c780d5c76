//! Demon over real WebSockets: clients racing for the same foundation at the same instant,
//! and an eight-seat table where every seat races at once, with the latency and frame sizes
//! it measures. The rigged twin decks give every player the same cards in the same order, so
//! every foundation card is contested.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use pandemonium_protocol::{ClientMsg, GameState, ServerMsg};

use crate::on_both_stores;
use crate::play::{host_room, request, sit, start};
use crate::support::ws::reason;
use crate::support::{Client, TestApp, TestDb};

/// A seat's connection with its own action numbering, and a count of every answer it got.
struct Racer {
    client: Client,
    seat: u8,
    seq: u64,
    answers: HashMap<u64, u32>,
    /// When each state version arrived here.
    arrivals: BTreeMap<u64, Instant>,
    /// Bytes of state frames received (re-serialised as the server writes them).
    state_bytes: usize,
    states: usize,
}

impl Racer {
    fn new(client: Client, seat: u8) -> Racer {
        Racer {
            client,
            seat,
            seq: 0,
            answers: HashMap::new(),
            arrivals: BTreeMap::new(),
            state_bytes: 0,
            states: 0,
        }
    }

    async fn send(&mut self, action: &Value) -> u64 {
        self.seq += 1;
        let msg = ClientMsg::Act {
            seq: self.seq,
            action: action.clone(),
        };
        self.client.send(&msg).await;
        self.seq
    }

    /// Reads one message, recording states and answers.
    async fn read(&mut self) -> ServerMsg {
        let msg = self.client.next().await;
        match &msg {
            ServerMsg::State(state) => {
                self.arrivals
                    .entry(state.version)
                    .or_insert_with(Instant::now);
                self.state_bytes += serde_json::to_string(&msg).unwrap().len();
                self.states += 1;
            }
            ServerMsg::Ack { seq, .. } | ServerMsg::Reject { seq, .. } => {
                *self.answers.entry(*seq).or_default() += 1;
            }
            _ => {}
        }
        msg
    }

    /// Waits for the answer to `seq`: `Ok(version)` or `Err(code)`.
    async fn answer(&mut self, seq: u64) -> Result<u64, String> {
        loop {
            match self.read().await {
                ServerMsg::Ack { seq: s, version } if s == seq => return Ok(version),
                ServerMsg::Reject {
                    seq: s, code, rule, ..
                } if s == seq => {
                    return Err(reason(code, &rule));
                }
                _ => {}
            }
        }
    }

    async fn state_at_least(&mut self, version: u64) -> GameState {
        loop {
            if let Some(state) = &self.client.state
                && state.version >= version
            {
                return state.clone();
            }
            self.read().await;
        }
    }

    /// Every action this seat sent was answered exactly once.
    fn every_action_answered_once(&self) {
        for seq in 1..=self.seq {
            assert_eq!(
                self.answers.get(&seq).copied().unwrap_or(0),
                1,
                "seat {}'s action {seq} was not answered exactly once",
                self.seat
            );
        }
        assert_eq!(
            self.answers.len() as u64,
            self.seq,
            "answers to unsent actions"
        );
    }
}

/// What a racer plays: a card to the first foundation that takes it (a new one for an Ace),
/// else the stock; it says it is stuck after two passes with nothing.
fn next_action(state: &GameState, seat: u8) -> Option<Value> {
    if state.outcome.is_some() || !state.to_act.contains(&seat) {
        return None;
    }
    let kind = |a: &Value| a["type"].as_str().unwrap_or_default().to_string();
    let onto = |a: &Value| a["foundation"].as_u64().unwrap_or(u64::MAX);
    let mut foundation_moves: Vec<&Value> = state
        .legal
        .iter()
        .filter(|a| kind(a) == "to_foundation")
        .collect();
    foundation_moves.sort_by_key(|a| onto(a));
    if let Some(best) = foundation_moves.first() {
        return Some((*best).clone());
    }
    let idle = state.view["players"][seat as usize]["idle_passes"]
        .as_u64()
        .unwrap_or(0);
    let stock = state
        .legal
        .iter()
        .find(|a| kind(a) == "draw" || kind(a) == "recycle");
    match stock {
        Some(turn) if idle < 2 => Some(turn.clone()),
        _ => Some(json!({"type": "stuck"})),
    }
}

/// Every foundation is a run of one suit from the Ace, and each deck's 52 cards are all
/// accounted for: in its layout or on the foundations, credited to it.
fn table_is_whole(view: &Value, seats: usize) {
    let foundations = view["foundations"].as_array().unwrap();
    let mut credited = vec![0u64; seats];
    for foundation in foundations {
        let owners = foundation["owners"].as_array().unwrap();
        assert!((1..=13).contains(&owners.len()), "{foundation}");
        for owner in owners {
            credited[owner.as_u64().unwrap() as usize] += 1;
        }
    }
    for (seat, player) in view["players"].as_array().unwrap().iter().enumerate() {
        let piles: u64 = player["piles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["down"].as_u64().unwrap() + p["up"].as_array().unwrap().len() as u64)
            .sum();
        let layout = piles + player["stock"].as_u64().unwrap() + player["waste"].as_u64().unwrap();
        assert_eq!(player["scored"].as_u64().unwrap(), credited[seat]);
        assert_eq!(layout + credited[seat], 52, "seat {seat}'s deck is whole");
    }
}

async fn two_clients_racing_for_the_same_foundation_get_one_ack_and_one_reject_each_time(
    db: &TestDb,
) {
    let app = TestApp::spawn(db).await;
    let mut ana = app.guest("Ana").await;
    let mut ben = app.guest("Ben").await;
    let room = request("demon_klondike_rigged", 2, vec![], json!({"deals": 1}));
    let code = host_room(&app, &mut ana, &room, 0).await;
    sit(&mut ben, &code, 1).await;
    start(&mut ana).await;
    let (mut ana, mut ben) = (Racer::new(ana, 0), Racer::new(ben, 1));

    let mut races = 0;
    let mut version = 0;
    for _round in 0..200 {
        // Both look at the same table.
        let a = ana.state_at_least(version).await;
        let b = ben.state_at_least(version).await;
        version = a.version.max(b.version);
        let (a, b) = (
            ana.state_at_least(version).await,
            ben.state_at_least(version).await,
        );
        if a.outcome.is_some() {
            break;
        }
        let (Some(first), Some(second)) = (next_action(&a, 0), next_action(&b, 1)) else {
            break;
        };
        let contested = first == second && first["foundation"].is_u64();
        // Both send at the same instant.
        let (sa, sb) = tokio::join!(ana.send(&first), ben.send(&second));
        let (ra, rb) = tokio::join!(ana.answer(sa), ben.answer(sb));
        if contested {
            races += 1;
            assert_eq!(
                [&ra, &rb].iter().filter(|r| r.is_ok()).count(),
                1,
                "one of the two wins: {ra:?} {rb:?}"
            );
            let won = ra.clone().or(rb.clone()).unwrap();
            let loser = if ra.is_ok() { &mut ben } else { &mut ana };
            let lost = if ra.is_ok() { &rb } else { &ra };
            assert_eq!(lost.as_ref().unwrap_err(), "foundation_moved");
            // The loser's card stayed home; it plays it on the other foundation of the suit,
            // so both players are in step again for the next race.
            let state = loser.state_at_least(won).await;
            let retry = state
                .legal
                .iter()
                .find(|a| a["type"] == json!("to_foundation") && a["card"] == first["card"])
                .cloned()
                .expect("the losing card is still in its layout, playable elsewhere");
            let seq = loser.send(&retry).await;
            version = loser.answer(seq).await.expect("the retry lands");
            continue;
        } else if first["type"] != json!("stuck") && second["type"] != json!("stuck") {
            assert!(ra.is_ok() && rb.is_ok(), "uncontested moves: {ra:?} {rb:?}");
        }
        version = [ra, rb].into_iter().flatten().max().unwrap_or(version);
    }
    println!("demon 2 clients: {races} races for the same foundation, one ack and one reject each");
    assert!(races >= 20, "only {races} races");

    let end = ana.state_at_least(version).await;
    let end = if end.outcome.is_some() {
        end
    } else {
        // Whoever is still racing says stuck.
        for racer in [&mut ana, &mut ben] {
            let state = racer.state_at_least(version).await;
            if state.to_act.contains(&racer.seat) {
                let seq = racer.send(&json!({"type": "stuck"})).await;
                if let Ok(v) = racer.answer(seq).await {
                    version = version.max(v);
                }
            }
        }
        ana.state_at_least(version).await
    };
    ben.state_at_least(end.version).await;
    assert!(end.outcome.is_some(), "the deal is over");
    table_is_whole(&end.view, 2);
    ana.every_action_answered_once();
    ben.every_action_answered_once();
    app.stop().await;
}
on_both_stores!(two_clients_racing_for_the_same_foundation_get_one_ack_and_one_reject_each_time);

/// One racer's whole deal: act as fast as answers come, then keep reading until the end.
/// Returns the racer and, per accepted action, when it was sent and its version.
async fn race_to_the_end(mut racer: Racer) -> (Racer, Vec<(Instant, u64)>, usize) {
    let mut accepted = Vec::new();
    let mut rejected = 0;
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(
            Instant::now() < deadline,
            "the deal ends within two minutes"
        );
        let state = racer.client.state.clone().expect("a state");
        if state.outcome.is_some() {
            break;
        }
        match next_action(&state, racer.seat) {
            Some(action) => {
                let sent = Instant::now();
                let seq = racer.send(&action).await;
                match racer.answer(seq).await {
                    Ok(version) => {
                        accepted.push((sent, version));
                        racer.state_at_least(version).await;
                    }
                    Err(_) => rejected += 1,
                }
            }
            None => {
                racer.read().await;
            }
        }
    }
    (racer, accepted, rejected)
}

async fn eight_clients_race_a_whole_deal_and_every_action_is_answered_once(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut clients = Vec::new();
    let mut host = app.guest("Seat 0").await;
    let room = request("demon_klondike_rigged", 8, vec![], json!({"deals": 1}));
    let code = host_room(&app, &mut host, &room, 0).await;
    for seat in 1..8u8 {
        let mut player = app.guest(&format!("Seat {seat}")).await;
        sit(&mut player, &code, seat).await;
        clients.push(player);
    }
    start(&mut host).await;
    clients.insert(0, host);
    let mut tasks = Vec::new();
    for (seat, mut client) in clients.into_iter().enumerate() {
        tasks.push(tokio::spawn(async move {
            client.state_at_least(0).await;
            race_to_the_end(Racer::new(client, seat as u8)).await
        }));
    }
    let mut racers = Vec::new();
    let mut sent: Vec<(Instant, u64)> = Vec::new();
    let mut rejected = 0;
    for task in tasks {
        let (racer, accepted, lost) = task.await.expect("a racer finishes");
        sent.extend(accepted);
        rejected += lost;
        racers.push(racer);
    }
    let last = racers[0].client.state.clone().unwrap();
    assert!(last.outcome.is_some());
    table_is_whole(&last.view, 8);
    for racer in &racers {
        racer.every_action_answered_once();
    }
    assert!(rejected > 0, "the twin decks make races");

    // Action to last recipient: from sending to the moment the last seat saw that version
    // (or a later one, if it was folded into a later frame).
    let mut latencies: Vec<Duration> = sent
        .iter()
        .map(|(at, version)| {
            racers
                .iter()
                .map(|r| {
                    let (_, seen) = r
                        .arrivals
                        .range(version..)
                        .next()
                        .expect("every seat sees every version or a later one");
                    seen.duration_since(*at)
                })
                .max()
                .unwrap()
        })
        .collect();
    latencies.sort();
    let p = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize];
    let bytes: usize = racers.iter().map(|r| r.state_bytes).sum();
    let frames: usize = racers.iter().map(|r| r.states).sum();
    println!(
        "demon 8 clients: {} actions accepted, {rejected} rejected; action to last recipient \
         p50 {:?}, p99 {:?}; {} bytes per state frame per recipient ({} frames)",
        sent.len(),
        p(0.5),
        p(0.99),
        bytes / frames.max(1),
        frames
    );
    app.stop().await;
}
on_both_stores!(eight_clients_race_a_whole_deal_and_every_action_is_answered_once);

/// Eight bot seats at the fastest pace race a whole deal side by side, each from its own view:
/// every seat plays, the foundations stay valid and every deck's 52 cards are accounted for.
async fn eight_bots_at_full_pace_race_a_whole_deal(db: &TestDb) {
    let app = TestApp::spawn(db).await;
    let mut host = app.guest("Host").await;
    let room = request(
        "demon_klondike_rigged",
        8,
        (0..8).collect(),
        json!({"deals": 1}),
    );
    let response = app.http.post("/api/rooms", &room, Some(&host.token)).await;
    assert_eq!(response.status, 201, "{}", response.body);
    let code = response.json::<pandemonium_protocol::RoomSummary>().code;
    // The host watches from an unseated player connection, and starts the race.
    host.join(&code, pandemonium_protocol::JoinRole::Player)
        .await;
    for seat in 0..8u8 {
        host.send(&ClientMsg::SetBot {
            seat,
            bot: true,
            pace: Some(pandemonium_protocol::BotPace::Fast),
        })
        .await;
    }
    host.room_where(|r| {
        r.seats
            .iter()
            .all(|s| s.pace == Some(pandemonium_protocol::BotPace::Fast))
    })
    .await;
    host.send(&ClientMsg::Start).await;
    host.room_where(|r| r.match_id.is_some()).await;
    let match_id = host.room.clone().unwrap().match_id.unwrap();
    // Eight fast bots outrun any one reader: the host stops watching (a slow watcher would be
    // dropped and resync) and reads the result back once the deal is over.
    host.close().await;
    let mut record = None;
    for _ in 0..1_000 {
        let r: pandemonium_protocol::MatchRecord = app
            .http
            .get(&format!("/api/matches/{match_id}"))
            .await
            .json();
        if r.finished {
            record = Some(r);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let record = record.expect("the match is read back finished");
    let mut watcher = app.guest("Watcher").await;
    watcher
        .join(&code, pandemonium_protocol::JoinRole::Spectator)
        .await;
    let last = watcher
        .wait_for(|m| match m {
            ServerMsg::State(s) if s.outcome.is_some() => Some(s.clone()),
            _ => None,
        })
        .await;
    table_is_whole(&last.view, 8);
    for seat in 0..8u8 {
        assert!(
            record.log.iter().any(|l| l.seat == seat),
            "bot {seat} raced too"
        );
    }
    app.stop().await;
}
on_both_stores!(eight_bots_at_full_pace_race_a_whole_deal);
