//! Serialising what a room sends. Frames are built straight from the engine's serialised view
//! (spliced in as it is), so a view is serialised once per viewer per version and never
//! parsed back.

use serde_json::value::RawValue;
use std::cell::RefCell;
use std::io::Write as _;

use super::Frame;
use pandemonium_protocol::{ErrorCode, Outcome, Seat, ServerMsg};
use pandemonium_wire::{Outline, TextDiff};

thread_local! {
    /// Where state frames are written before they are copied out at their exact size: it
    /// grows to the largest frame once per thread and is reused, so building a frame
    /// allocates once whatever its size.
    static FRAME_BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// How every `state` frame starts: its version follows.
const STATE_PREFIX: &str = r#"{"type":"state","version":"#;

/// The `state` frame, field for field as `ServerMsg::State(GameState)`, with the view and the
/// legal-action list (a JSON array) written into it by the engine: serialised once, never
/// parsed again, never re-escaped.
pub fn state_frame(
    version: u64,
    write_view: impl FnOnce(&mut Vec<u8>),
    to_act: &[Seat],
    write_legal: impl FnOnce(&mut Vec<u8>),
    deadline_ms: Option<u64>,
    outcome: Option<&Outcome>,
) -> Frame {
    FRAME_BUFFER.with_borrow_mut(|out| {
        out.clear();
        out.extend_from_slice(STATE_PREFIX.as_bytes());
        out.extend_from_slice(itoa::Buffer::new().format(version).as_bytes());
        out.extend_from_slice(br#","view":"#);
        write_view(out);
        out.extend_from_slice(br#","to_act":["#);
        for (i, seat) in to_act.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(itoa::Buffer::new().format(*seat).as_bytes());
        }
        out.extend_from_slice(br#"],"legal":"#);
        write_legal(out);
        out.extend_from_slice(br#","deadline_ms":"#);
        match deadline_ms {
            Some(ms) => {
                out.extend_from_slice(itoa::Buffer::new().format(ms).as_bytes());
            }
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(br#","outcome":"#);
        match outcome {
            Some(outcome) => serde_json::to_writer(&mut *out, outcome).expect("outcomes serialise"),
            None => out.extend_from_slice(b"null"),
        }
        out.push(b'}');
        debug_assert!(serde_json::from_slice::<&RawValue>(out).is_ok());
        std::str::from_utf8(out)
            .expect("frames are JSON, which is UTF-8")
            .to_owned()
            .into()
    })
}

/// A `state` frame with the outline of its text: the base of the next version's patches, and
/// the target of this version's. Outlined once, it serves both.
#[derive(Debug, Clone)]
pub struct OutlinedFrame {
    pub frame: Frame,
    outline: Outline,
}

impl OutlinedFrame {
    /// `frame` is a state frame built by [`state_frame`].
    pub fn new(frame: Frame) -> OutlinedFrame {
        let outline = Outline::of(frame.as_str()).expect("a room's state frames read back");
        OutlinedFrame { frame, outline }
    }
}

/// The `patch` frame that takes a connection from the `state` frame `base` to the `state`
/// frame `next` (both built by [`state_frame`]): the difference of their bodies, `{view,
/// to_act, legal, deadline_ms, outcome}`, worked out on their text; with `products` when the
/// connection reads them.
pub fn patch_frame(base: &OutlinedFrame, next: &OutlinedFrame, products: bool) -> Frame {
    /// The version, read where [`state_frame`] wrote it.
    fn version(frame: &Frame) -> &str {
        let rest = frame
            .strip_prefix(STATE_PREFIX)
            .expect("a room's state frames read back");
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        &rest[..digits]
    }
    FRAME_BUFFER.with_borrow_mut(|out| {
        out.clear();
        // Writing to a Vec cannot fail.
        let _ = write!(
            out,
            r#"{{"type":"patch","version":{},"base":{},"ops":"#,
            version(&next.frame),
            version(&base.frame)
        );
        let mut ops = TextDiff::new(out);
        ops.use_products(products);
        ops.diff_members(
            base.outline.root(&base.frame),
            next.outline.root(&next.frame),
            &["view", "to_act", "legal", "deadline_ms", "outcome"],
        )
        .expect("a room's state frames read back");
        ops.finish();
        out.push(b'}');
        debug_assert!(serde_json::from_slice::<ServerMsg>(out).is_ok());
        std::str::from_utf8(out)
            .expect("frames are JSON, which is UTF-8")
            .to_owned()
            .into()
    })
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
            |out| out.extend_from_slice(br#"{"hand":[1,2]}"#),
            &[1],
            |out| out.extend_from_slice(br#"[{"type":"draw"}]"#),
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
        let text = state_frame(
            9,
            |out| out.extend_from_slice(b"{}"),
            &[],
            |out| out.extend_from_slice(b"[]"),
            None,
            Some(&outcome),
        );
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

    #[test]
    fn a_frame_built_after_a_larger_one_carries_nothing_of_it() {
        let big = state_frame(
            1,
            |out| out.extend_from_slice(br#"{"hand":[1,2,3,4,5,6,7,8,9,10]}"#),
            &[0, 1, 2],
            |out| out.extend_from_slice(br#"[{"type":"draw"},{"type":"stand"}]"#),
            Some(1_000_000),
            None,
        );
        let small = state_frame(
            2,
            |out| out.extend_from_slice(b"{}"),
            &[],
            |out| out.extend_from_slice(b"[]"),
            None,
            None,
        );
        assert!(big.len() > small.len());
        assert_eq!(
            small.as_str(),
            r#"{"type":"state","version":2,"view":{},"to_act":[],"legal":[],"deadline_ms":null,"outcome":null}"#
        );
    }

    /// A patch between two state frames brings the first one's state to the second's, and
    /// leaves alone what did not change.
    #[test]
    fn a_patch_frame_turns_one_state_frame_into_the_next() {
        let base = state_frame(
            3,
            |out| out.extend_from_slice(br#"{"hand":["2S","7D"],"round":1}"#),
            &[0, 1],
            |out| out.extend_from_slice(br#"[{"type":"draw"},{"type":"stand"}]"#),
            None,
            None,
        );
        let next = state_frame(
            4,
            |out| out.extend_from_slice(br#"{"hand":["2S"],"round":1}"#),
            &[1],
            |out| out.extend_from_slice(b"[]"),
            None,
            None,
        );
        for products in [false, true] {
            let patch = patch_frame(
                &OutlinedFrame::new(base.clone()),
                &OutlinedFrame::new(next.clone()),
                products,
            );
            let (
                Ok(ServerMsg::Patch {
                    version,
                    base: from,
                    ops,
                }),
                Ok(ServerMsg::State(mut state)),
            ) = (
                serde_json::from_str::<ServerMsg>(&patch),
                serde_json::from_str::<ServerMsg>(&base),
            )
            else {
                panic!("a patch and a state: {patch}");
            };
            assert_eq!((version, from), (4, 3));
            assert!(!patch.contains("round"), "{patch}");
            state.apply_patch(version, from, &ops).unwrap();
            assert_eq!(
                ServerMsg::State(state),
                serde_json::from_str::<ServerMsg>(&next).unwrap()
            );
        }
    }
}
