//! Arrays of objects written as products (the format is `pandemonium_protocol::products`): a
//! list of legal actions is mostly every card of a hand crossed with every place to take one
//! from, each action spelling out its type, its card and its take again. As products,
//! `[{"type":"secret_discard","card":"2H","take":"pack"}, …25 actions…]` is one set,
//! `[["type",["secret_discard"]],["card",["2H",…]],["take",["pack",…]]]`.
//!
//! The products are found and written from the array's outline, each value copied as it was
//! written; order is kept, so what they expand to is the array they were made from, element
//! for element.

use crate::json_text::{Kind, Part};

/// A JSON object's member: its name as written (quotes and any escapes included: equal names
/// are equal text when one serialiser wrote the array) and its value's text.
type Member<'a> = (&'a str, &'a str);

/// A JSON object's members in order.
type Object<'o, 'a> = &'o [Member<'a>];

/// The products of `items` (the elements of an outlined array), written as JSON into `out`,
/// or `None` (and nothing written) when an element is not an object.
pub fn write_products(items: &[Part], out: &mut Vec<u8>) -> Option<()> {
    // Every object's members in one list, each object a slice of it (a legal action has two
    // to four members).
    let mut members: Vec<Member> = Vec::with_capacity(items.len() * 4);
    let mut ends = Vec::with_capacity(items.len());
    for item in items {
        if item.kind() != Kind::Object {
            return None;
        }
        members.extend(item.children().map(|m| (m.raw_name(), m.text())));
        ends.push(members.len());
    }
    let objects: Vec<Object> = ends
        .iter()
        .scan(0, |start, &end| {
            let object = &members[*start..end];
            *start = end;
            Some(object)
        })
        .collect();
    out.push(b'[');
    let mut at = 0;
    while at < objects.len() {
        if at > 0 {
            out.push(b',');
        }
        let (set, len) = product_at(&objects, at);
        write_set(objects[at], &set, out);
        at += len;
    }
    out.push(b']');
    Some(())
}

/// The largest set that lists `objects[at..]` from its start: per member, its values; and
/// how many objects it stands for. Built from the last member out: the last member gains a
/// value for each next object that differs from the first in that member alone; then each
/// member before it gains one for each next block (as long as everything found so far) that
/// repeats the first block with only that member changed.
fn product_at<'a>(objects: &[Object<'_, 'a>], at: usize) -> (Vec<Vec<&'a str>>, usize) {
    let first = objects[at];
    let mut values: Vec<Vec<&str>> = first.iter().map(|(_, value)| vec![*value]).collect();
    let mut block = 1;
    for member in (0..first.len()).rev() {
        loop {
            let start = at + values[member].len() * block;
            if start + block > objects.len() {
                break;
            }
            let Some(value) = member_value(objects[start], first, member) else {
                break;
            };
            if values[member].contains(&value) {
                break;
            }
            let repeats = (0..block).all(|i| {
                let (next, model) = (objects[start + i], objects[at + i]);
                same_members(next, first)
                    && next.iter().zip(model).enumerate().all(|(m, (a, b))| {
                        if m == member {
                            a.1 == value
                        } else {
                            a.1 == b.1
                        }
                    })
            });
            if !repeats {
                break;
            }
            values[member].push(value);
        }
        block *= values[member].len();
    }
    (values, block)
}

/// `object`'s value of the `member`th member of `like`, if it has `like`'s members in order.
fn member_value<'a>(object: Object<'_, 'a>, like: Object, member: usize) -> Option<&'a str> {
    same_members(object, like).then(|| object[member].1)
}

fn same_members(a: Object, b: Object) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|((x, _), (y, _))| x == y)
}

fn write_set(object: Object, values: &[Vec<&str>], out: &mut Vec<u8>) {
    out.push(b'[');
    for (i, ((name, _), values)) in object.iter().zip(values).enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.push(b'[');
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b",[");
        for (j, value) in values.iter().enumerate() {
            if j > 0 {
                out.push(b',');
            }
            out.extend_from_slice(value.as_bytes());
        }
        out.extend_from_slice(b"]]");
    }
    out.push(b']');
}

#[cfg(test)]
mod tests {
    use super::*;
    use pandemonium_protocol::products::{ProductSet, expand};
    use serde_json::{Value, json};

    /// The products of the array written as `text`, as written (member order as written).
    fn written(text: &str) -> Option<Vec<u8>> {
        let outline = crate::json_text::Outline::of(text).unwrap();
        let items: Vec<Part> = outline.root(text).children().collect();
        let mut out = Vec::new();
        write_products(&items, &mut out)?;
        Some(out)
    }

    fn products(text: &str) -> Option<Value> {
        Some(serde_json::from_slice(&written(text)?).unwrap())
    }

    fn round_trip(text: &str) -> Value {
        let written = products(text).expect("objects");
        let sets: Vec<ProductSet> = serde_json::from_value(written.clone()).unwrap();
        let array: Value = serde_json::from_str(text).unwrap();
        assert_eq!(Value::Array(expand(&sets)), array, "products of {text}");
        written
    }

    #[test]
    fn every_card_crossed_with_every_take_is_one_set() {
        let mut legal = Vec::new();
        for card in ["2H", "3S", "10D"] {
            for take in [r#""pack""#, r#"{"discard":"8C"}"#, r#"{"discard":"5C"}"#] {
                legal.push(format!(
                    r#"{{"type":"secret_discard","card":"{card}","take":{take}}}"#
                ));
            }
        }
        let written = round_trip(&format!("[{}]", legal.join(",")));
        assert_eq!(
            written,
            json!([[
                ["type", ["secret_discard"]],
                ["card", ["2H", "3S", "10D"]],
                ["take", ["pack", {"discard": "8C"}, {"discard": "5C"}]]
            ]])
        );
    }

    #[test]
    fn objects_that_are_no_product_stay_apart_and_in_order() {
        let written = round_trip(
            r#"[
                {"type": "draw"},
                {"type": "play", "card": "2H"},
                {"type": "play", "card": "3S"},
                {"type": "move", "from": 1, "to": 2},
                {"type": "move", "from": 1, "to": 3},
                {"type": "move", "from": 2, "to": 3},
                {"type": "play", "card": "4S"},
                {"to": 1, "type": "move"}
            ]"#,
        );
        assert_eq!(
            written,
            json!([
                [["type", ["draw"]]],
                [["type", ["play"]], ["card", ["2H", "3S"]]],
                [["type", ["move"]], ["from", [1]], ["to", [2, 3]]],
                [["type", ["move"]], ["from", [2]], ["to", [3]]],
                [["type", ["play"]], ["card", ["4S"]]],
                [["to", [1]], ["type", ["move"]]]
            ])
        );
    }

    #[test]
    fn a_repeated_value_starts_a_new_set_so_nothing_is_lost() {
        let written = round_trip(
            r#"[{"a": 1, "b": 1}, {"a": 1, "b": 2}, {"a": 1, "b": 1}, {"a": 2, "b": 1},
                {"a": 2, "b": 2}]"#,
        );
        assert_eq!(written.as_array().map(Vec::len), Some(3));
        round_trip("[]");
        round_trip("[{}, {}]");
    }

    #[test]
    fn member_names_are_written_as_they_were_escapes_and_all() {
        let text = r#"[{"e\u0041":1,"b":"x"},{"e\u0041":1,"b":"y"}]"#;
        assert_eq!(
            String::from_utf8(written(text).unwrap()).unwrap(),
            r#"[[["e\u0041",[1]],["b",["x","y"]]]]"#
        );
        assert_eq!(round_trip(text), json!([[["eA", [1]], ["b", ["x", "y"]]]]));
    }

    /// Arrays of objects made from a few names and values, many of them products (whole or
    /// cut short, in order or not): each is rebuilt exactly from what is written.
    #[test]
    fn any_array_of_objects_is_rebuilt_from_its_products() {
        let mut seed: u64 = 0x5eed;
        let mut below = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let names = ["type", "card", "take", "to"];
        let values = [
            r#""a""#,
            r#""b""#,
            "1",
            r#"{"discard":"8C"}"#,
            "null",
            "[2,3]",
        ];
        for _ in 0..2_000 {
            let mut items: Vec<String> = Vec::new();
            while items.len() < below(30) as usize {
                if below(2) == 0 {
                    // A product of 1-3 members, in nested-loop order, maybe cut short.
                    let members: Vec<(&str, Vec<&str>)> = names[..1 + below(3) as usize]
                        .iter()
                        .map(|&name| {
                            let count = 1 + below(3) as usize;
                            let start = below(values.len() as u64) as usize;
                            let taken = (0..count)
                                .map(|i| values[(start + i) % values.len()])
                                .collect();
                            (name, taken)
                        })
                        .collect();
                    let mut objects = vec![String::new()];
                    for (name, taken) in &members {
                        objects = objects
                            .iter()
                            .flat_map(|o| {
                                taken.iter().map(move |v| {
                                    let sep = if o.is_empty() { "" } else { "," };
                                    format!("{o}{sep}\"{name}\":{v}")
                                })
                            })
                            .collect();
                    }
                    let keep = objects.len() - below(objects.len() as u64) as usize / 2;
                    items.extend(objects[..keep].iter().map(|o| format!("{{{o}}}")));
                } else {
                    let name = names[below(4) as usize];
                    let value = values[below(values.len() as u64) as usize];
                    items.push(format!("{{\"{name}\":{value}}}"));
                }
            }
            round_trip(&format!("[{}]", items.join(",")));
        }
    }

    #[test]
    fn an_array_with_anything_but_objects_has_no_products() {
        assert_eq!(products(r#"[{"type": "draw"}, "2H"]"#), None);
    }
}
