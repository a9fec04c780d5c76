//! State patches: after a full `state`, a connection that asked for them gets each new
//! version as the difference from the one before, in a subset of JSON Patch (RFC 6902):
//! `add`, `remove` and `replace`, with JSON Pointer paths (RFC 6901) into the state's body
//! (`view`, `to_act`, `legal`, `deadline_ms`, `outcome`), and, for a client that said it reads
//! it, one of its own, `products`: an array of objects replaced whole, written as products
//! ([`crate::products`]) when that is shorter (a list of legal actions is).
//!
//! Most of a view stays put from one action to the next (the table, the scores, the other
//! hands' sizes); a patch carries only what moved. This is the format and how a client applies
//! it; the server works patches out on its frames' text (`pandemonium_wire`).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::products::{ProductSet, expand};

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
    /// Put in place of what is at `path` the array of objects that `sets` stand for
    /// ([`crate::products`]): for each set in turn, every object taking one of the values
    /// listed for each member, the last member changing fastest.
    Products {
        path: String,
        #[ts(type = "Array<Array<[string, Array<unknown>]>>")]
        sets: Vec<ProductSet>,
    },
}

/// Why a patch does not apply: the client does not hold the document it was made against.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("patch path `{0}` does not exist in the document")]
pub struct PatchMismatch(pub String);

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
            PatchOp::Products { path, sets } => {
                *pointer_mut(doc, path, path)? = Value::Array(expand(sets));
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

    #[test]
    fn operations_apply_in_order_to_objects_and_arrays() {
        let mut doc = json!({"hand": ["2S", "7D"], "round": 1});
        let ops: Vec<PatchOp> = serde_json::from_value(json!([
            {"op": "remove", "path": "/hand/0"},
            {"op": "add", "path": "/hand/1", "value": "9H"},
            {"op": "replace", "path": "/round", "value": 2},
            {"op": "add", "path": "/scandal", "value": []},
            {"op": "remove", "path": "/round"}
        ]))
        .unwrap();
        apply(&mut doc, &ops).unwrap();
        assert_eq!(doc, json!({"hand": ["7D", "9H"], "scandal": []}));
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

    #[test]
    fn keys_with_slashes_and_tildes_are_read_escaped() {
        let mut doc = json!({"a/b": 1, "c~d": 2});
        let ops: Vec<PatchOp> = serde_json::from_value(json!([
            {"op": "replace", "path": "/a~1b", "value": 3},
            {"op": "remove", "path": "/c~0d"}
        ]))
        .unwrap();
        apply(&mut doc, &ops).unwrap();
        assert_eq!(doc, json!({"a/b": 3}));
    }

    #[test]
    fn a_products_operation_puts_the_array_its_sets_stand_for() {
        let mut doc = json!({"legal": [{"type": "draw"}], "n": 1});
        let ops: Vec<PatchOp> = serde_json::from_value(json!([{
            "op": "products",
            "path": "/legal",
            "sets": [[["type", ["discard"]], ["card", ["2H", "3S"]]]]
        }]))
        .unwrap();
        apply(&mut doc, &ops).unwrap();
        assert_eq!(
            doc,
            json!({"legal": [{"type": "discard", "card": "2H"}, {"type": "discard", "card": "3S"}],
                   "n": 1})
        );
    }
}
