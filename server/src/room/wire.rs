//! Serialising what a room sends. Frames are built straight from the engine's serialised view
//! (spliced in as raw JSON), so a view is serialised once per viewer per version and never
//! parsed back.

use serde::Serialize;
use serde_json::value::RawValue;

use super::Frame;
use pandemonium_protocol::{ErrorCode, Outcome, Seat, ServerMsg};

/// The `state` message, field for field as `ServerMsg::State(GameState)`.
#[derive(Serialize)]
struct StateFrame<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    version: u64,
    view: &'a RawValue,
    to_act: Vec<Seat>,
    legal: &'a RawValue,
    deadline_ms: Option<u64>,
    outcome: Option<&'a Outcome>,
}

/// The `state` frame from an already serialised view and legal-action list (a JSON array).
pub fn state_frame(
    version: u64,
    view_json: String,
    to_act: Vec<Seat>,
    legal_json: String,
    deadline_ms: Option<u64>,
    outcome: Option<&Outcome>,
) -> Frame {
    let view = RawValue::from_string(view_json).expect("engines serialise valid JSON");
    let legal = RawValue::from_string(legal_json).expect("engines serialise valid JSON");
    let frame = StateFrame {
        kind: "state",
        version,
        view: &view,
        to_act,
        legal: &legal,
        deadline_ms,
        outcome,
    };
    serde_json::to_string(&frame)
        .expect("frames serialise")
        .into()
}

pub fn frame(msg: &ServerMsg) -> Frame {
    serde_json::to_string(msg)
        .expect("server messages serialise")
        .into()
}

pub fn error(code: ErrorCode, message: impl Into<String>) -> Frame {
    frame(&ServerMsg::Error {
        code,
        message: message.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pandemonium_protocol::GameState;

    #[test]
    fn a_state_frame_reads_back_as_the_protocols_state_message() {
        let text = state_frame(
            3,
            r#"{"hand":[1,2]}"#.into(),
            vec![1],
            r#"[{"type":"draw"}]"#.into(),
            Some(500),
            None,
        );
        let msg: ServerMsg = serde_json::from_str(&text).unwrap();
        assert_eq!(
            msg,
            ServerMsg::State(GameState {
                version: 3,
                view: serde_json::json!({"hand": [1, 2]}),
                to_act: vec![1],
                legal: vec![serde_json::json!({"type": "draw"})],
                deadline_ms: Some(500),
                outcome: None,
            })
        );
    }
}
