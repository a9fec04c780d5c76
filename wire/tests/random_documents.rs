//! Random documents: any of them changed at random is diffed into operations that rebuild the
//! change exactly, and outlined into exactly the values a parser reads.

use pandemonium_protocol::patch::{PatchOp, apply};
use pandemonium_wire::{Kind, Outline, Part, TextDiff};
use serde_json::{Value, json};

/// The operations from one document to another, through their text, applied to the first.
fn round_trip(from: Value, to: Value) {
    let (from_text, to_text) = (from.to_string(), to.to_string());
    let mut out = Vec::new();
    let mut ops = TextDiff::new(&mut out);
    ops.use_products(true);
    ops.diff("", &from_text, &to_text);
    let count = ops.finish();
    let ops: Vec<PatchOp> = serde_json::from_slice(&out).expect("the operations read back");
    assert_eq!(ops.len(), count);
    let mut doc = from;
    apply(&mut doc, &ops).expect("a diff applies to what it was made from");
    assert_eq!(doc, to);
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

/// `part` is `value`: its kind, its text read back, and its members' names or its elements,
/// in order, all the way down.
fn outlines(part: Part, value: &Value) {
    assert_eq!(serde_json::from_str::<Value>(part.text()).unwrap(), *value);
    let children: Vec<Part> = part.children().collect();
    match value {
        Value::Object(members) => {
            assert_eq!(part.kind(), Kind::Object);
            assert_eq!(children.len(), members.len());
            for (child, (name, member)) in children.into_iter().zip(members) {
                assert_eq!(child.name(), *name);
                outlines(child, member);
            }
        }
        Value::Array(elements) => {
            assert_eq!(part.kind(), Kind::Array);
            assert_eq!(children.len(), elements.len());
            for (child, element) in children.into_iter().zip(elements) {
                assert_eq!(child.raw_name(), "");
                outlines(child, element);
            }
        }
        _ => {
            assert_eq!(part.kind(), Kind::Scalar);
            assert!(children.is_empty());
        }
    }
}

#[test]
fn an_outline_holds_every_value_of_the_document_as_parsed() {
    let mut rng = Lcg(11);
    let awkward = json!({"q\"u}o,te": ["]", "\\", "é\u{0}\n", {"": -1.5e-3}], "[": {}});
    let documents = std::iter::repeat_with(|| random_value(&mut rng, 4))
        .take(1_000)
        .chain([awkward]);
    for document in documents {
        for text in [
            serde_json::to_string(&document).unwrap(),
            serde_json::to_string_pretty(&document).unwrap(),
        ] {
            let outline = Outline::of(&text).unwrap();
            outlines(outline.root(&text), &document);
        }
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
            let mut kept = serde_json::Map::new();
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
