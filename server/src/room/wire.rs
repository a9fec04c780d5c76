//! Serialising what a room sends. Frames are built straight from the engine's serialised view
//! (spliced in as it is), so a view is serialised once per viewer per version and never
//! parsed back.

use serde_json::value::RawValue;
use std::fmt::Write as _;

use super::Frame;
use pandemonium_protocol::{ErrorCode, Outcome, PatchOp, Seat, ServerMsg};

/// The `state` frame from an already serialised view and legal-action list (a JSON array),
/// field for field as `ServerMsg::State(GameState)`. The engine's JSON is copied in as it is:
/// never parsed again, never re-escaped.
pub fn state_frame(
    version: u64,
    view_json: String,
    to_act: Vec<Seat>,
    legal_json: String,
    deadline_ms: Option<u64>,
    outcome: Option<&Outcome>,
) -> Frame {
    debug_assert!(serde_json::from_str::<&RawValue>(&view_json).is_ok());
    debug_assert!(serde_json::from_str::<&RawValue>(&legal_json).is_ok());
    let outcome = outcome.map(|o| serde_json::to_string(o).expect("outcomes serialise"));
    let mut out = String::with_capacity(view_json.len() + legal_json.len() + 128);
    // Writing to a String cannot fail.
    let _ = write!(out, r#"{{"type":"state","version":{version},"view":"#);
    out.push_str(&view_json);
    out.push_str(r#","to_act":["#);
    for (i, seat) in to_act.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{seat}");
    }
    out.push_str(r#"],"legal":"#);
    out.push_str(&legal_json);
    out.push_str(r#","deadline_ms":"#);
    match deadline_ms {
        Some(ms) => {
            let _ = write!(out, "{ms}");
        }
        None => out.push_str("null"),
    }
    out.push_str(r#","outcome":"#);
    out.push_str(outcome.as_deref().unwrap_or("null"));
    out.push('}');
    out.into()
}

/// The `state` frame of a state body (`{view, to_act, legal, deadline_ms, outcome}`).
pub fn state_frame_of_body(version: u64, body: &serde_json::Value) -> Frame {
    #[derive(serde::Serialize)]
    struct StateFrame<'a> {
        #[serde(rename = "type")]
        kind: &'static str,
        version: u64,
        #[serde(flatten)]
        body: &'a serde_json::Value,
    }
    serde_json::to_string(&StateFrame {
        kind: "state",
        version,
        body,
    })
    .expect("frames serialise")
    .into()
}

/// The body of a `state` frame this room built: `{view, to_act, legal, deadline_ms, outcome}`.
pub fn body_of_state_frame(frame: &Frame) -> serde_json::Value {
    let mut body: serde_json::Value =
        serde_json::from_str(frame.as_str()).expect("state frames are JSON");
    if let Some(map) = body.as_object_mut() {
        map.remove("type");
        map.remove("version");
    }
    body
}

/// The `patch` frame that takes a connection from `base` to `version`.
pub fn patch_frame(version: u64, base: u64, ops: Vec<PatchOp>) -> Frame {
    frame(&ServerMsg::Patch { version, base, ops })
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

    #[test]
    fn a_state_frame_with_an_outcome_and_no_deadline_reads_back() {
        let outcome = Outcome {
            winners: vec![0, 2],
            placements: vec![1, 3, 1],
            scores: vec![4, -1, 4],
            summary: "a \"tie\"".into(),
        };
        let text = state_frame(9, "{}".into(), vec![], "[]".into(), None, Some(&outcome));
        let msg: ServerMsg = serde_json::from_str(&text).unwrap();
        assert_eq!(
            msg,
            ServerMsg::State(GameState {
                version: 9,
                view: serde_json::json!({}),
                to_act: vec![],
                legal: vec![],
                deadline_ms: None,
                outcome: Some(outcome),
            })
        );
    }
}
