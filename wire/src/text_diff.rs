//! The difference between two JSON texts as state patches (`pandemonium_protocol::patch`'s
//! format: JSON Patch's `add`, `remove` and `replace`, and `products` for a client that reads
//! them), written as JSON text from the two texts' outlines ([`crate::json_text`]) without
//! building either document as a tree.

use crate::json_text::{Kind, Outline, Part};
use crate::products::write_products;

/// The operations that turn one document into another, worked out on their JSON text without
/// building either as a tree: operations are written as JSON straight into a buffer, each
/// value copied from the new text as it is. A subtree whose text did not change is passed over
/// with one comparison, so the work follows what changed. Both texts should come from one
/// serialiser (equal values, equal text), as a room's frames do; a value written differently
/// is replaced by itself, never wrongly patched.
#[derive(Debug)]
pub struct TextDiff<'a> {
    out: &'a mut Vec<u8>,
    ops: usize,
    /// Whether an array replaced whole may go as its products.
    products: bool,
}

impl<'a> TextDiff<'a> {
    /// Opens the JSON array of operations in `out`: JSON Patch's operations only, until
    /// [`TextDiff::use_products`] allows `products`.
    pub fn new(out: &'a mut Vec<u8>) -> Self {
        out.push(b'[');
        TextDiff {
            out,
            ops: 0,
            products: false,
        }
    }

    /// Whether an array of objects replaced whole may go as its products (for a client that
    /// reads them), when they are shorter.
    pub fn use_products(&mut self, products: bool) {
        self.products = products;
    }

    /// Adds the operations that turn `from` into `to`, the document at `path`: both JSON texts
    /// (as a serialiser wrote them; see [`crate::json_text`]).
    pub fn diff(&mut self, path: &str, from: &str, to: &str) {
        match (Outline::of(from), Outline::of(to)) {
            (Some(a), Some(b)) => self.diff_outlined(path, a.root(from), b.root(to)),
            _ if from != to => self.op("replace", path, Some(to)),
            _ => {}
        }
    }

    /// [`TextDiff::diff`] of two texts already outlined.
    pub fn diff_outlined(&mut self, path: &str, from: Part, to: Part) {
        self.diff_at(&mut path.to_string(), from, to);
    }

    /// Adds the operations that turn the members `names` of the object `from` into those of
    /// `to` (both outlined texts), each the document at `/name`: how a state's body is diffed
    /// without its envelope. `None` when either is not an object with those members.
    pub fn diff_members(&mut self, from: Part, to: Part, names: &[&str]) -> Option<()> {
        let pairs: Vec<(Part, Part)> = names
            .iter()
            .map(|name| Some((from.member(name)?, to.member(name)?)))
            .collect::<Option<_>>()?;
        let mut path = String::with_capacity(64);
        for (name, (x, y)) in names.iter().zip(pairs) {
            path.clear();
            push_token(&mut path, name);
            self.diff_at(&mut path, x, y);
        }
        Some(())
    }

    /// Closes the array; returns how many operations it holds.
    pub fn finish(self) -> usize {
        self.out.push(b']');
        self.ops
    }

    fn diff_at(&mut self, path: &mut String, from: Part, to: Part) {
        if from.text() == to.text() {
            return;
        }
        match (from.kind(), to.kind()) {
            (Kind::Object, Kind::Object) => self.diff_objects(path, from, to),
            (Kind::Array, Kind::Array) => self.diff_arrays(path, from, to),
            _ => self.op("replace", path, Some(to.text())),
        }
    }

    fn diff_objects(&mut self, path: &mut String, a: Part, b: Part) {
        // The same members in the same order, as one serialiser writes one type: pairwise.
        let same_names = a.children().count() == b.children().count()
            && a.children()
                .zip(b.children())
                .all(|(x, y)| x.raw_name() == y.raw_name());
        if same_names {
            for (old, new) in a.children().zip(b.children()) {
                self.diff_member(path, old, new);
            }
            return;
        }
        fn find<'a>(of: Part<'a>, raw_name: &str) -> Option<Part<'a>> {
            of.children().find(|m| m.raw_name() == raw_name)
        }
        let len = path.len();
        for old in a.children().filter(|m| find(b, m.raw_name()).is_none()) {
            push_token(path, &old.name());
            self.op("remove", path, None);
            path.truncate(len);
        }
        for new in b.children() {
            match find(a, new.raw_name()) {
                Some(old) => self.diff_member(path, old, new),
                None => {
                    push_token(path, &new.name());
                    self.op("add", path, Some(new.text()));
                    path.truncate(len);
                }
            }
        }
    }

    /// A member (named as `new` is), from `old` to `new`.
    fn diff_member(&mut self, path: &mut String, old: Part, new: Part) {
        // Most members are as they were: no path to spell out for them.
        if old.text() == new.text() {
            return;
        }
        let len = path.len();
        push_token(path, &new.name());
        self.diff_at(path, old, new);
        path.truncate(len);
    }

    /// Arrays: what the two share at the front and at the back stays; the elements between are
    /// diffed pairwise, and what is left over removed or added. A card leaving a hand is one
    /// `remove`, an entry added to a log one `add`. When those operations come to more than
    /// the new array itself (a list of 25 legal actions emptied would be 25 `remove`s), the
    /// array is replaced whole instead: by its products when they are shorter.
    fn diff_arrays(&mut self, path: &mut String, old: Part, new: Part) {
        let (a, b): (Vec<Part>, Vec<Part>) = (old.children().collect(), new.children().collect());
        // `{"op":"replace","path":"…","value":[…]}`: the path, the new array and the op's own
        // punctuation.
        let whole = path.len() + new.text().len() + 40;
        let budget = Budget {
            start: self.out.len(),
            ops: self.ops,
            whole,
        };
        if self.diff_elements(path, &a, &b, &budget) {
            return;
        }
        self.out.truncate(budget.start);
        self.ops = budget.ops;
        if self.products {
            // Written in place, and taken back unless shorter than the array.
            self.open_op("products", path, Some("sets"));
            let sets = self.out.len();
            if write_products(&b, self.out).is_some() && self.out.len() - sets < new.text().len() {
                self.out.push(b'}');
                return;
            }
            self.out.truncate(budget.start);
            self.ops = budget.ops;
        }
        self.op("replace", path, Some(new.text()));
    }

    /// The elements' operations, unless they come to more than `budget` allows: then `false`
    /// as soon as they do (what is written so far is the caller's to take back). Operations
    /// only ever add bytes, so the rest cannot bring them back under: a list of 25 legal
    /// actions that all changed stops after the first few.
    fn diff_elements(
        &mut self,
        path: &mut String,
        a: &[Part],
        b: &[Part],
        budget: &Budget,
    ) -> bool {
        let same = |(x, y): (&Part, &Part)| x.text() == y.text();
        let front = a.iter().zip(b).take_while(|&p| same(p)).count();
        let back = a[front..]
            .iter()
            .rev()
            .zip(b[front..].iter().rev())
            .take_while(|&p| same(p))
            .count();
        let old = &a[front..a.len() - back];
        let new = &b[front..b.len() - back];
        let paired = old.len().min(new.len());
        let len = path.len();
        for i in (0..paired).filter(|&i| old[i].text() != new[i].text()) {
            push_index(path, front + i);
            self.diff_at(path, old[i], new[i]);
            path.truncate(len);
            if budget.spent(self) {
                return false;
            }
        }
        for _ in paired..old.len() {
            push_index(path, front + paired);
            self.op("remove", path, None);
            path.truncate(len);
            if budget.spent(self) {
                return false;
            }
        }
        for (i, value) in new.iter().enumerate().skip(paired) {
            push_index(path, front + i);
            self.op("add", path, Some(value.text()));
            path.truncate(len);
            if budget.spent(self) {
                return false;
            }
        }
        true
    }

    /// One operation, as `pandemonium_protocol::PatchOp` serialises it.
    fn op(&mut self, op: &str, path: &str, value: Option<&str>) {
        self.open_op(op, path, value.map(|_| "value"));
        if let Some(value) = value {
            self.out.extend_from_slice(value.as_bytes());
        }
        self.out.push(b'}');
    }

    /// Writes an operation up to where its argument's value goes (`name`: the argument's
    /// member, if it has one); the caller writes the value and closes the object.
    fn open_op(&mut self, op: &str, path: &str, name: Option<&str>) {
        if self.ops > 0 {
            self.out.push(b',');
        }
        self.ops += 1;
        self.out.extend_from_slice(b"{\"op\":\"");
        self.out.extend_from_slice(op.as_bytes());
        self.out.extend_from_slice(b"\",\"path\":");
        serde_json::to_writer(&mut *self.out, path).expect("a string serialises");
        if let Some(name) = name {
            self.out.extend_from_slice(b",\"");
            self.out.extend_from_slice(name.as_bytes());
            self.out.extend_from_slice(b"\":");
        }
    }
}

/// What an array's operations may come to before replacing the array whole is shorter.
struct Budget {
    /// Where the array's operations start in the output, and how many came before them.
    start: usize,
    ops: usize,
    /// The bytes of one `replace` of the whole array.
    whole: usize,
}

impl Budget {
    /// Whether the operations written since `start` are more than one and longer than `whole`.
    fn spent(&self, diff: &TextDiff) -> bool {
        diff.ops - self.ops > 1 && diff.out.len() - self.start > self.whole
    }
}

/// Appends an array index as a reference token.
fn push_index(path: &mut String, index: usize) {
    path.push('/');
    path.push_str(itoa::Buffer::new().format(index));
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

#[cfg(test)]
mod tests {
    use super::*;
    use pandemonium_protocol::patch::{PatchOp, apply};
    use serde_json::{Value, json};

    /// The operations from one document to another, through their text.
    fn diff(from: &Value, to: &Value) -> Vec<PatchOp> {
        let (from, to) = (from.to_string(), to.to_string());
        let mut out = Vec::new();
        let mut ops = TextDiff::new(&mut out);
        ops.use_products(true);
        ops.diff("", &from, &to);
        let count = ops.finish();
        let ops: Vec<PatchOp> = serde_json::from_slice(&out).expect("the operations read back");
        assert_eq!(ops.len(), count);
        ops
    }

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
    fn an_emptied_list_is_one_replace_not_a_remove_per_entry() {
        let legal: Vec<Value> = (0..25)
            .map(|i| json!({"type": "discard", "card": i}))
            .collect();
        let ops = round_trip(
            json!({"legal": legal, "n": 1}),
            json!({"legal": [], "n": 1}),
        );
        assert_eq!(
            ops,
            vec![PatchOp::Replace {
                path: "/legal".into(),
                value: json!([])
            }]
        );
    }

    #[test]
    fn a_new_list_of_legal_actions_goes_as_its_products() {
        let cards = ["2H", "3S", "8H", "8S", "5D"];
        let takes = [r#""pack""#, r#"{"discard":"10H"}"#, r#"{"discard":"8C"}"#];
        let legal: Vec<String> = cards
            .iter()
            .flat_map(|card| {
                takes.iter().map(move |take| {
                    format!(r#"{{"type":"secret_discard","card":"{card}","take":{take}}}"#)
                })
            })
            .collect();
        // Member order as the engines write it (json! would sort the names).
        let from = r#"{"legal":[],"n":1}"#.to_string();
        let to = format!(r#"{{"legal":[{}],"n":1}}"#, legal.join(","));
        let ops_with = |products: bool| {
            let mut out = Vec::new();
            let mut ops = TextDiff::new(&mut out);
            ops.use_products(products);
            ops.diff("", &from, &to);
            ops.finish();
            serde_json::from_slice::<Vec<PatchOp>>(&out).unwrap()
        };
        let ops = ops_with(true);
        assert_eq!(
            serde_json::to_value(&ops).unwrap(),
            json!([{"op": "products", "path": "/legal", "sets": [[
                ["type", ["secret_discard"]],
                ["card", cards],
                ["take", ["pack", {"discard": "10H"}, {"discard": "8C"}]]
            ]]}])
        );
        let mut doc: Value = serde_json::from_str(&from).unwrap();
        apply(&mut doc, &ops).unwrap();
        assert_eq!(doc, serde_json::from_str::<Value>(&to).unwrap());

        // A client that did not ask for products gets JSON Patch's own operations.
        let plain = ops_with(false);
        assert!(matches!(plain.as_slice(), [PatchOp::Replace { path, .. }] if path == "/legal"));
    }

    #[test]
    fn an_array_whose_products_are_no_shorter_is_replaced_as_it_is() {
        // Objects that share no member: their products spell out every name and value again.
        let (from, to) = (
            r#"{"n":1,"list":[],"m":[1]}"#,
            r#"{"n":2,"list":[{"x":1},{"y":[2]}],"m":[1,3]}"#,
        );
        let mut out = Vec::new();
        let mut ops = TextDiff::new(&mut out);
        ops.use_products(true);
        ops.diff("", from, to);
        assert_eq!(ops.finish(), 3, "the products tried are not counted");
        let ops: Vec<PatchOp> = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            serde_json::to_value(&ops).unwrap(),
            json!([
                {"op": "replace", "path": "/n", "value": 2},
                {"op": "replace", "path": "/list", "value": [{"x": 1}, {"y": [2]}]},
                {"op": "add", "path": "/m/1", "value": 3},
            ])
        );
    }

    #[test]
    fn values_are_copied_as_they_are_and_names_with_escapes_are_read() {
        let from = json!({"a/b": [1, 2], "q\"uote": 1, "c~d": {"e": "x"}});
        let to = json!({"a/b": [1, 2, {"f": "y\"z"}], "q\"uote": 2});
        let ops = round_trip(from, to);
        assert!(ops.contains(&PatchOp::Replace {
            path: "/q\"uote".into(),
            value: json!(2)
        }));
        assert!(ops.contains(&PatchOp::Add {
            path: "/a~1b/2".into(),
            value: json!({"f": "y\"z"})
        }));
        assert!(ops.contains(&PatchOp::Remove {
            path: "/c~0d".into()
        }));
    }
}
