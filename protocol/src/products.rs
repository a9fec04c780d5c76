//! Arrays of objects as products: the format of a patch's `products` operation. A list of
//! legal actions is mostly every card of a hand crossed with every place to take one from,
//! each action spelling out its type, its card and its take again; as products,
//! `[{"type":"secret_discard","card":"2H","take":"pack"}, …25 actions…]` is one set,
//! `[["type",["secret_discard"]],["card",["2H",…]],["take",["pack",…]]]`: the members in
//! order, each with the values it takes.
//!
//! A set stands for every object that takes one value of each member, listed with the last
//! member changing fastest (as nested loops, the first member outermost); an array is its sets'
//! objects, set after set. The server finds and writes them (`pandemonium_wire::products`);
//! here is what they stand for, which a client reads with [`expand`].

use serde_json::{Map, Value};

/// One set: each member's name and the values it takes, in member order.
pub type ProductSet = Vec<(String, Vec<Value>)>;

/// The array `sets` stand for.
pub fn expand(sets: &[ProductSet]) -> Vec<Value> {
    let mut items = Vec::new();
    for set in sets {
        // A member without values makes an empty product.
        if set.iter().any(|(_, values)| values.is_empty()) {
            continue;
        }
        // Which value each member takes, counted like an odometer (the last member fastest).
        let mut choice = vec![0; set.len()];
        loop {
            let object: Map<String, Value> = set
                .iter()
                .zip(&choice)
                .map(|((name, values), &i)| (name.clone(), values[i].clone()))
                .collect();
            items.push(Value::Object(object));
            let Some(member) = (0..set.len())
                .rev()
                .find(|&m| choice[m] + 1 < set[m].1.len())
            else {
                break;
            };
            choice[member] += 1;
            for later in &mut choice[member + 1..] {
                *later = 0;
            }
        }
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sets(sets: Value) -> Vec<ProductSet> {
        serde_json::from_value(sets).expect("sets read")
    }

    #[test]
    fn a_set_stands_for_its_members_values_as_nested_loops_the_last_fastest() {
        let expanded = expand(&sets(json!([[
            ["type", ["secret_discard"]],
            ["card", ["2H", "3S"]],
            ["take", ["pack", {"discard": "8C"}]]
        ]])));
        assert_eq!(
            Value::Array(expanded),
            json!([
                {"type": "secret_discard", "card": "2H", "take": "pack"},
                {"type": "secret_discard", "card": "2H", "take": {"discard": "8C"}},
                {"type": "secret_discard", "card": "3S", "take": "pack"},
                {"type": "secret_discard", "card": "3S", "take": {"discard": "8C"}},
            ])
        );
    }

    #[test]
    fn sets_follow_one_another_and_a_member_without_values_stands_for_nothing() {
        let expanded = expand(&sets(json!([
            [["type", ["draw"]]],
            [["type", ["play"]], ["card", []]],
            [],
            [["type", ["move"]], ["to", [1, 2]]]
        ])));
        assert_eq!(
            Value::Array(expanded),
            json!([{"type": "draw"}, {}, {"type": "move", "to": 1}, {"type": "move", "to": 2}])
        );
    }
}
