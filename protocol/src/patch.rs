//! State patches: after a full `state`, a connection that asked for them gets each new
//! version as the difference from the one before, in a subset of JSON Patch (RFC 6902):
//! `add`, `remove` and `replace`, with JSON Pointer paths (RFC 6901) into the state's body
//! (`view`, `to_act`, `legal`, `deadline_ms`, `outcome`).
//!
//! Most of a view stays put from one action to the next (the table, the scores, the other
//! hands' sizes); a patch carries only what moved.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

/// One change to a JSON document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "op")]
pub enum PatchOp {
    /// Insert `value` at `path`: a new member of an object, or an array element that shifts
    /// the ones after it (`-` appends).
    Add {
        path: String,
        #[ts(type = "unknown")]
        value: Value,
    },
    /// Remove the member or element at `path` (later elements shift down).
    Remove { path: String },
    /// Put `value` in place of what is at `path` (`""` is the whole document).
    Replace {
        path: String,
        #[ts(type = "unknown")]
        value: Value,
    },
}

/// Why a patch does not apply: the client does not hold the document it was made against.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("patch path `{0}` does not exist in the document")]
pub struct PatchMismatch(pub String);

/// The operations that turn `from` into `to`.
pub fn diff(from: &Value, to: &Value) -> Vec<PatchOp> {
    let mut ops = Vec::new();
    diff_at(&mut String::new(), from, to, &mut ops);
    ops
}

fn diff_at(path: &mut String, from: &Value, to: &Value, ops: &mut Vec<PatchOp>) {
    match (from, to) {
        (Value::Object(a), Value::Object(b)) => diff_objects(path, a, b, ops),
        (Value::Array(a), Value::Array(b)) => diff_arrays(path, a, b, ops),
        _ if from == to => {}
        _ => ops.push(PatchOp::Replace {
            path: path.clone(),
            value: to.clone(),
        }),
    }
}

fn diff_objects(
    path: &mut String,
    a: &Map<String, Value>,
    b: &Map<String, Value>,
    ops: &mut Vec<PatchOp>,
) {
    for key in a.keys().filter(|k| !b.contains_key(*k)) {
        ops.push(PatchOp::Remove {
            path: child(path, key),
        });
    }
    for (key, new) in b {
        match a.get(key) {
            Some(old) => {
                let len = path.len();
                push_token(path, key);
                diff_at(path, old, new, ops);
                path.truncate(len);
            }
            None => ops.push(PatchOp::Add {
                path: child(path, key),
                value: new.clone(),
            }),
        }
    }
}

/// Arrays: what the two share at the front and at the back stays; the elements between are
/// diffed pairwise, and what is left over removed or added. A card leaving a hand is one
/// `remove`, an entry added to a log one `add`.
fn diff_arrays(path: &mut String, a: &[Value], b: &[Value], ops: &mut Vec<PatchOp>) {
    let front = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let back = a[front..]
        .iter()
        .rev()
        .zip(b[front..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let old = &a[front..a.len() - back];
    let new = &b[front..b.len() - back];
    let paired = old.len().min(new.len());
    for i in 0..paired {
        let len = path.len();
        push_token(path, &(front + i).to_string());
        diff_at(path, &old[i], &new[i], ops);
        path.truncate(len);
    }
    // Removing at one index again and again takes the surplus elements one after another.
    for _ in paired..old.len() {
        ops.push(PatchOp::Remove {
            path: child(path, &(front + paired).to_string()),
        });
    }
    for (i, value) in new.iter().enumerate().skip(paired) {
        ops.push(PatchOp::Add {
            path: child(path, &(front + i).to_string()),
            value: value.clone(),
        });
    }
}

fn child(path: &str, token: &str) -> String {
    let mut path = path.to_string();
    push_token(&mut path, token);
    path
}

/// Appends a reference token, escaped as RFC 6901 says (`~` → `~0`, `/` → `~1`).
fn push_token(path: &mut String, token: &str) {
    path.push('/');
    for c in token.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

/// Applies `ops` to `doc` in order. On a mismatch `doc` may be partly patched: the caller
/// should ask for the state again.
pub fn apply(doc: &mut Value, ops: &[PatchOp]) -> Result<(), PatchMismatch> {
    for op in ops {
        match op {
            PatchOp::Add { path, value } => {
                let (parent, last) = split(path)?;
                match pointer_mut(doc, parent, path)? {
                    Value::Object(map) => {
                        map.insert(last, value.clone());
                    }
                    Value::Array(items) => {
                        let at = if last == "-" {
                            items.len()
                        } else {
                            index(&last, items.len() + 1, path)?
                        };
                        items.insert(at, value.clone());
                    }
                    _ => return Err(PatchMismatch(path.clone())),
                }
            }
            PatchOp::Remove { path } => {
                let (parent, last) = split(path)?;
                match pointer_mut(doc, parent, path)? {
                    Value::Object(map) => {
                        map.remove(&last)
                            .ok_or_else(|| PatchMismatch(path.clone()))?;
                    }
                    Value::Array(items) => {
                        let at = index(&last, items.len(), path)?;
                        items.remove(at);
                    }
                    _ => return Err(PatchMismatch(path.clone())),
                }
            }
            PatchOp::Replace { path, value } => {
                *pointer_mut(doc, path, path)? = value.clone();
            }
        }
    }
    Ok(())
}

/// `/a/b~1c` → (`/a`, `b/c`).
fn split(path: &str) -> Result<(&str, String), PatchMismatch> {
    let cut = path
        .rfind('/')
        .ok_or_else(|| PatchMismatch(path.to_string()))?;
    Ok((&path[..cut], unescape(&path[cut + 1..])))
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

fn index(token: &str, bound: usize, path: &str) -> Result<usize, PatchMismatch> {
    token
        .parse::<usize>()
        .ok()
        .filter(|&i| i < bound)
        .ok_or_else(|| PatchMismatch(path.to_string()))
}

fn pointer_mut<'a>(
    doc: &'a mut Value,
    pointer: &str,
    path: &str,
) -> Result<&'a mut Value, PatchMismatch> {
    if pointer.is_empty() {
        return Ok(doc);
    }
    let mismatch = || PatchMismatch(path.to_string());
    let rest = pointer.strip_prefix('/').ok_or_else(mismatch)?;
    let mut at = doc;
    for token in rest.split('/') {
        let token = unescape(token);
        at = match at {
            Value::Object(map) => map.get_mut(&token).ok_or_else(mismatch)?,
            Value::Array(items) => {
                let i = index(&token, items.len(), path)?;
                &mut items[i]
            }
            _ => return Err(mismatch()),
        };
    }
    Ok(at)
}

impl crate::room::GameState {
    /// This state moved on to `version` by a patch made against `base`. Fails (leaving the
    /// state as it was) when this is not the state at `base` or the patch does not fit it.
    pub fn apply_patch(
        &mut self,
        version: u64,
        base: u64,
        ops: &[PatchOp],
    ) -> Result<(), PatchMismatch> {
        if self.version != base {
            return Err(PatchMismatch(format!("base version {base}")));
        }
        let mut body = serde_json::to_value(&*self).expect("states serialise");
        if let Value::Object(map) = &mut body {
            map.remove("version");
        }
        apply(&mut body, ops)?;
        if let Value::Object(map) = &mut body {
            map.insert("version".into(), version.into());
        }
        *self = serde_json::from_value(body)
            .map_err(|e| PatchMismatch(format!("the patched state does not read: {e}")))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(from: Value, to: Value) -> Vec<PatchOp> {
        let ops = diff(&from, &to);
        let mut doc = from;
        apply(&mut doc, &ops).expect("a diff applies to what it was made from");
        assert_eq!(doc, to);
        ops
    }

    #[test]
    fn a_card_leaving_a_hand_is_one_remove() {
        let ops = round_trip(
            json!({"hand": ["2S", "7D", "9H", "JC"]}),
            json!({"hand": ["2S", "9H", "JC"]}),
        );
        assert_eq!(
            ops,
            vec![PatchOp::Remove {
                path: "/hand/1".into()
            }]
        );
    }

    #[test]
    fn an_entry_added_to_a_log_is_one_add() {
        let ops = round_trip(json!({"log": [1, 2]}), json!({"log": [1, 2, 3]}));
        assert_eq!(
            ops,
            vec![PatchOp::Add {
                path: "/log/2".into(),
                value: json!(3)
            }]
        );
    }

    #[test]
    fn unchanged_documents_need_no_operations() {
        let doc = json!({"a": [1, {"b": null}], "c": "d"});
        assert!(round_trip(doc.clone(), doc).is_empty());
    }

    #[test]
    fn keys_with_slashes_and_tildes_are_escaped() {
        let ops = round_trip(json!({"a/b": 1, "c~d": 2}), json!({"a/b": 3}));
        assert!(ops.contains(&PatchOp::Remove {
            path: "/c~0d".into()
        }));
        assert!(ops.contains(&PatchOp::Replace {
            path: "/a~1b".into(),
            value: json!(3)
        }));
    }

    #[test]
    fn a_whole_document_of_another_kind_is_replaced_at_the_root() {
        let ops = round_trip(json!([1]), json!({"x": 1}));
        assert_eq!(
            ops,
            vec![PatchOp::Replace {
                path: "".into(),
                value: json!({"x": 1})
            }]
        );
    }

    #[test]
    fn a_patch_for_another_document_is_a_mismatch() {
        let mut doc = json!({"hand": []});
        let ops = vec![PatchOp::Remove {
            path: "/hand/0".into(),
        }];
        assert_eq!(apply(&mut doc, &ops), Err(PatchMismatch("/hand/0".into())));
    }

    #[test]
    fn the_append_token_adds_at_the_end() {
        let mut doc = json!([1]);
        apply(
            &mut doc,
            &[PatchOp::Add {
                path: "/-".into(),
                value: json!(2),
            }],
        )
        .unwrap();
        assert_eq!(doc, json!([1, 2]));
    }

    /// Random documents, each changed at random: the diff always rebuilds the new one.
    #[test]
    fn any_diff_rebuilds_its_target() {
        let mut rng = Lcg(7);
        for _ in 0..2_000 {
            let from = random_value(&mut rng, 3);
            let to = mutate(&mut rng, &from, 3);
            round_trip(from, to);
        }
    }

    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    fn random_value(rng: &mut Lcg, depth: u32) -> Value {
        match if depth == 0 {
            rng.below(3)
        } else {
            rng.below(5)
        } {
            0 => json!(rng.below(4)),
            1 => json!(["a", "b/c", "~"][rng.below(3) as usize]),
            2 => Value::Null,
            3 => Value::Array(
                (0..rng.below(5))
                    .map(|_| random_value(rng, depth - 1))
                    .collect(),
            ),
            _ => Value::Object(
                (0..rng.below(4))
                    .map(|_| {
                        (
                            ["x", "y", "z/1", "~w"][rng.below(4) as usize].to_string(),
                            random_value(rng, depth - 1),
                        )
                    })
                    .collect(),
            ),
        }
    }

    fn mutate(rng: &mut Lcg, value: &Value, depth: u32) -> Value {
        match value {
            Value::Array(items) => {
                let mut items: Vec<Value> = items
                    .iter()
                    .map(|v| {
                        if rng.below(3) == 0 {
                            mutate(rng, v, depth.saturating_sub(1))
                        } else {
                            v.clone()
                        }
                    })
                    .collect();
                if rng.below(2) == 0 && !items.is_empty() {
                    let at = rng.below(items.len() as u64) as usize;
                    items.remove(at);
                }
                if rng.below(2) == 0 {
                    let at = rng.below(items.len() as u64 + 1) as usize;
                    items.insert(at, random_value(rng, depth.saturating_sub(1)));
                }
                Value::Array(items)
            }
            Value::Object(map) => {
                let mut kept = Map::new();
                for (k, v) in map {
                    match rng.below(6) {
                        0 => {}
                        1 | 2 => {
                            kept.insert(k.clone(), mutate(rng, v, depth.saturating_sub(1)));
                        }
                        _ => {
                            kept.insert(k.clone(), v.clone());
                        }
                    }
                }
                let mut map = kept;
                if rng.below(2) == 0 {
                    map.insert(
                        ["x", "q", "z/1"][rng.below(3) as usize].into(),
                        random_value(rng, depth.saturating_sub(1)),
                    );
                }
                Value::Object(map)
            }
            _ if rng.below(2) == 0 => random_value(rng, depth),
            other => other.clone(),
        }
    }
}
