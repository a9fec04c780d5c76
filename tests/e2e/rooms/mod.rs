//! The room's promises about time, bots, commits and resync, over real sockets: an act is
//! applied exactly once however often it is sent, a rule window keeps its deadline, every bot
//! acts, a match's result is written with its last action, and a client that rejoins gets
//! exactly the states it missed.

mod chat;
mod clocks_and_bots;
mod exactly_once;
mod resync;
mod seats_and_results;

use serde_json::json;
use std::time::Duration;

use pandemonium_protocol::{ClientMsg, GameState, MatchRecord, RoomCode, ServerMsg};

use crate::play::{open_room, sit, start};
use crate::support::ws::reason;
use crate::support::{Client, Http, TestApp};

/// What the server answered an act.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Answer {
    Ack(u64),
    Reject(String),
}

/// Sends an act with an explicit `seq` and waits for the answer that carries that seq.
async fn act_as(client: &mut Client, seq: u64, action: serde_json::Value) -> Answer {
    client.send(&ClientMsg::Act { seq, action }).await;
    act_answer(client, seq).await
}

/// Alice, Bob, Cleo and Dan at a DēmoS 2 vs 2 table, in seats 0 to 3, the match started.
async fn team_table(app: &TestApp) -> (Vec<Client>, RoomCode) {
    let mut players = Vec::new();
    for name in ["Alice", "Bob", "Cleo", "Dan"] {
        players.push(app.guest(name).await);
    }
    let options = json!({"mode": "team_2v2"});
    let code = open_room(app, &mut players[0], "demos", 4, vec![], options).await;
    for (seat, player) in players.iter_mut().enumerate().skip(1) {
        sit(player, &code, seat as u8).await;
    }
    start(&mut players[0]).await;
    (players, code)
}

/// Waits for the answer to the act sent with `seq`.
async fn act_answer(client: &mut Client, seq: u64) -> Answer {
    client
        .wait_for(|m| match m {
            ServerMsg::Ack { seq: s, version } if *s == seq => Some(Answer::Ack(*version)),
            ServerMsg::Reject {
                seq: s, code, rule, ..
            } if *s == seq => Some(Answer::Reject(reason(*code, rule))),
            _ => None,
        })
        .await
}

/// Waits for the state that ends the match.
async fn wait_for_outcome(client: &mut Client) -> GameState {
    client
        .wait_for(|m| match m {
            ServerMsg::State(s) if s.outcome.is_some() => Some(s.clone()),
            _ => None,
        })
        .await
}

/// The match's record once the history reads it as finished.
async fn finished_record(http: &Http, match_id: &str) -> MatchRecord {
    for _ in 0..100 {
        let record: MatchRecord = http.get(&format!("/api/matches/{match_id}")).await.json();
        if record.finished {
            return record;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("match {match_id} never read back as finished");
}
