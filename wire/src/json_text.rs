//! The parts of a JSON text, found by scanning it rather than parsing it, each value left as
//! the text it was: every value of the text at once, in one scan ([`Outline`]). Patches are
//! worked out on frames the server has just serialised itself, level by level into what
//! changed; a scan that only looks for quotes, brackets and commas does that with far less
//! work than a parser, which checks every number and escape on the way.
//!
//! The text is taken to be valid JSON (what a serialiser wrote). Anything else is not checked
//! but never panics: a text that does not split as expected gives `None`.

use std::borrow::Cow;
use std::cell::RefCell;

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes
        .get(at)
        .is_some_and(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
    {
        at += 1;
    }
    at
}

/// Where the number, `true`, `false` or `null` starting at `at` ends: at whatever follows it.
fn scalar_end(bytes: &[u8], mut at: usize) -> usize {
    while bytes
        .get(at)
        .is_some_and(|b| !matches!(b, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t'))
    {
        at += 1;
    }
    at
}

/// Where the string starting (with its quote) at `at` ends, past its closing quote.
fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    if *bytes.get(at)? != b'"' {
        return None;
    }
    let mut i = at + 1;
    loop {
        match *bytes.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

/// Every value of a JSON text and where it sits, found in one scan and kept apart from the
/// text: a diff that goes down level by level into what changed reads each level's members
/// from here instead of scanning their text again at every level, and a room that diffs each
/// state against the one before outlines each state once.
///
/// An outline's nodes go back to a few spare buffers of the thread when it is dropped, and
/// the next outline takes one (`SPARE_NODES`).
#[derive(Debug, Clone)]
pub struct Outline {
    /// The values in the order they open (a container before what it holds).
    nodes: Vec<Node>,
    /// The length of the text outlined, to catch an outline read against another text.
    len: usize,
}

/// How many emptied node buffers a thread keeps for the next outlines...
const SPARES: usize = 32;
/// ...and the largest it keeps, in nodes (96 KiB: a text of ~1 MiB): an outline of an unusually
/// long text gives its memory back.
const SPARE_CAPACITY: usize = 4096;

thread_local! {
    /// Node buffers of dropped outlines. A room keeps each state's outlines until the next
    /// version's are made, so outlines of a few KiB are made and dropped by the thousand a
    /// second, always a version apart: allocated anew, each took the allocator's slow path
    /// and often a fresh page of memory to fault in, a share of a patch-taking server's time
    /// that profiles showed (docs/performance.md, "Patches").
    static SPARE_NODES: RefCell<Vec<Vec<Node>>> = const { RefCell::new(Vec::new()) };
}

/// Offsets are `u32`: a node takes 24 bytes, and a text of 4 GiB is no frame.
#[derive(Debug, Clone, Copy)]
struct Node {
    /// The value's text: `text[start..end]`.
    start: u32,
    end: u32,
    /// The node after this value and everything in it: its next sibling, if it has one.
    after: u32,
    /// For an object's member, where its name (with its quotes and any escapes) starts and
    /// ends; `0..0` for anything else.
    name: (u32, u32),
    kind: Kind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Object,
    Array,
    /// A string, number, `true`, `false` or `null`.
    Scalar,
}

/// One value of an outlined text.
#[derive(Debug, Clone, Copy)]
pub struct Part<'a> {
    text: &'a str,
    nodes: &'a [Node],
    at: usize,
}

impl Outline {
    /// The outline of `text`, or `None` when it does not split as JSON (see the module's note:
    /// what a serialiser wrote is taken as valid, not checked) or is 4 GiB or more.
    pub fn of(text: &str) -> Option<Outline> {
        let bytes = text.as_bytes();
        // Every offset below, and the number of nodes, is at most the text's length.
        u32::try_from(bytes.len()).ok()?;
        let mut nodes = spare_nodes();
        nodes.reserve(bytes.len() / 8);
        // The containers open around `at`: each one's node and the byte that closes it.
        let mut open: Vec<(usize, u8)> = Vec::new();
        let mut at = skip_space(bytes, 0);
        let mut name = (0, 0);
        loop {
            // A value starts at `at`.
            let node = nodes.len();
            let (kind, end) = match *bytes.get(at)? {
                b'{' => (Kind::Object, at),
                b'[' => (Kind::Array, at),
                b'"' => (Kind::Scalar, string_end(bytes, at)?),
                _ => (Kind::Scalar, scalar_end(bytes, at)),
            };
            nodes.push(Node {
                start: at as u32,
                end: end as u32,
                after: node as u32 + 1,
                name,
                kind,
            });
            match kind {
                Kind::Scalar => at = end,
                Kind::Object => {
                    open.push((node, b'}'));
                    at += 1;
                }
                Kind::Array => {
                    open.push((node, b']'));
                    at += 1;
                }
            }
            // Close what ends here; then on to the next member or element, if any.
            loop {
                at = skip_space(bytes, at);
                let Some(&(container, close)) = open.last() else {
                    return (at == bytes.len()).then_some(Outline {
                        nodes,
                        len: bytes.len(),
                    });
                };
                let first = nodes.len() == container + 1;
                match *bytes.get(at)? {
                    b if b == close => {
                        nodes[container].end = at as u32 + 1;
                        nodes[container].after = nodes.len() as u32;
                        open.pop();
                        at += 1;
                    }
                    b',' if !first => {
                        at = skip_space(bytes, at + 1);
                        break;
                    }
                    _ if first => break,
                    _ => return None,
                }
            }
            name = (0, 0);
            if open.last()?.1 == b'}' {
                let name_end = string_end(bytes, at)?;
                name = (at as u32, name_end as u32);
                let colon = skip_space(bytes, name_end);
                if *bytes.get(colon)? != b':' {
                    return None;
                }
                at = skip_space(bytes, colon + 1);
            }
        }
    }

    /// The value of the whole of `text`, the text this outlines.
    ///
    /// # Panics
    /// If `text` is not as long as the text outlined.
    pub fn root<'a>(&'a self, text: &'a str) -> Part<'a> {
        assert_eq!(text.len(), self.len, "an outline read against another text");
        Part {
            text,
            nodes: &self.nodes,
            at: 0,
        }
    }
}

impl Drop for Outline {
    fn drop(&mut self) {
        let mut nodes = std::mem::take(&mut self.nodes);
        if nodes.capacity() == 0 || nodes.capacity() > SPARE_CAPACITY {
            return;
        }
        nodes.clear();
        // Not at all while the thread is being torn down.
        let _ = SPARE_NODES.try_with(|spares| {
            if let Ok(mut spares) = spares.try_borrow_mut()
                && spares.len() < SPARES
            {
                spares.push(nodes);
            }
        });
    }
}

/// An empty node buffer: a spare one if the thread has one.
fn spare_nodes() -> Vec<Node> {
    SPARE_NODES
        .try_with(|spares| spares.try_borrow_mut().ok()?.pop())
        .ok()
        .flatten()
        .unwrap_or_default()
}

impl<'a> Part<'a> {
    fn node(&self) -> &'a Node {
        &self.nodes[self.at]
    }

    pub fn kind(&self) -> Kind {
        self.node().kind
    }

    /// The value's text, as written.
    pub fn text(&self) -> &'a str {
        let node = self.node();
        &self.text[node.start as usize..node.end as usize]
    }

    /// The member's name as written, quotes included (`""` for what is not a member): equal
    /// names are equal text when one serialiser wrote both.
    pub fn raw_name(&self) -> &'a str {
        let (start, end) = self.node().name;
        &self.text[start as usize..end as usize]
    }

    /// The member's name, unescaped (`""` for what is not a member).
    pub fn name(&self) -> Cow<'a, str> {
        let raw = self.raw_name();
        if raw.contains('\\') {
            Cow::Owned(serde_json::from_str::<String>(raw).unwrap_or_default())
        } else {
            Cow::Borrowed(raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default())
        }
    }

    /// The object's member called `name` (`None` for what is not an object, or has none).
    pub fn member(&self, name: &str) -> Option<Part<'a>> {
        if self.kind() != Kind::Object {
            return None;
        }
        self.children().find(|m| {
            let raw = m.raw_name();
            // As written, unless escapes make the text differ from the name.
            if raw.contains('\\') {
                m.name() == name
            } else {
                raw.len() == name.len() + 2 && &raw[1..raw.len() - 1] == name
            }
        })
    }

    /// An object's members or an array's elements, in order (nothing for a scalar).
    pub fn children(&self) -> impl Iterator<Item = Part<'a>> + use<'a> {
        let (text, nodes) = (self.text, self.nodes);
        let after = self.node().after as usize;
        let mut at = self.at + 1;
        std::iter::from_fn(move || {
            (at < after).then(|| {
                let part = Part { text, nodes, at };
                at = nodes[at].after as usize;
                part
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Texts cut short, or missing what makes them JSON.
    const CUT_SHORT: [&str; 7] = [
        r#"{"a":[1,2"#,
        r#"{"a""#,
        r#"{"a":"x"#,
        "[1,",
        "[",
        "",
        r#"{"a"1}"#,
    ];

    #[test]
    fn an_outline_finds_every_value_with_its_members_names_as_written() {
        let text =
            r#" {"b" : [1, {"x":"]}"} ,[]], "a":"q\"u}ote","e\u0041":{"f":null} , "g":[ ]} "#;
        let outline = Outline::of(text).unwrap();
        let root = outline.root(text);
        assert_eq!(root.kind(), Kind::Object);
        assert_eq!(root.text(), text.trim());
        let members: Vec<(String, &str, &str)> = root
            .children()
            .map(|m| (m.name().into_owned(), m.raw_name(), m.text()))
            .collect();
        assert_eq!(
            members,
            vec![
                ("b".into(), r#""b""#, r#"[1, {"x":"]}"} ,[]]"#),
                ("a".into(), r#""a""#, r#""q\"u}ote""#),
                ("eA".into(), r#""e\u0041""#, r#"{"f":null}"#),
                ("g".into(), r#""g""#, "[ ]"),
            ]
        );
        let b = root.member("b").unwrap();
        assert_eq!(b.kind(), Kind::Array);
        let elements: Vec<(Kind, &str, &str)> = b
            .children()
            .map(|e| (e.kind(), e.raw_name(), e.text()))
            .collect();
        assert_eq!(
            elements,
            vec![
                (Kind::Scalar, "", "1"),
                (Kind::Object, "", r#"{"x":"]}"}"#),
                (Kind::Array, "", "[]"),
            ]
        );
        assert_eq!(
            root.member("eA").unwrap().member("f").unwrap().text(),
            "null"
        );
        assert_eq!(root.member("g").unwrap().children().count(), 0);
        assert!(root.member("x").is_none(), "only the object's own members");
        assert!(b.member("x").is_none(), "an array has no members");
        let scalar = Outline::of(" 7 ").unwrap();
        assert_eq!(scalar.root(" 7 ").text(), "7");
        assert_eq!(scalar.root(" 7 ").kind(), Kind::Scalar);
    }

    #[test]
    fn an_outline_of_what_does_not_split_as_json_is_none() {
        let split_wrong = ["[1 2]", "{} {}", r#"{"a":1,}"#, "[1}"];
        for cut in CUT_SHORT.into_iter().chain(split_wrong) {
            assert!(Outline::of(cut).is_none(), "{cut}");
        }
    }

    fn spares() -> usize {
        SPARE_NODES.with_borrow(Vec::len)
    }

    #[test]
    fn a_dropped_outline_s_nodes_serve_the_next_outline_and_only_its_values() {
        let long = r#"{"a":[1,2,3,{"b":[4,5,"]"]}],"c":{"d":null}}"#;
        SPARE_NODES.with_borrow_mut(Vec::clear);
        drop(Outline::of(long).unwrap());
        assert_eq!(spares(), 1);
        let short = r#"[7,{"x":"8"}]"#;
        let outline = Outline::of(short).unwrap();
        assert_eq!(spares(), 0, "the spare buffer was taken");
        let root = outline.root(short);
        let elements: Vec<(Kind, &str)> = root.children().map(|e| (e.kind(), e.text())).collect();
        assert_eq!(
            elements,
            vec![(Kind::Scalar, "7"), (Kind::Object, r#"{"x":"8"}"#)]
        );
        let x = root.children().nth(1).unwrap().member("x").unwrap();
        assert_eq!((x.raw_name(), x.text()), (r#""x""#, r#""8""#));
        assert_eq!(x.children().count(), 0);
    }

    #[test]
    fn a_thread_keeps_a_bounded_number_of_spare_buffers_of_a_bounded_size() {
        SPARE_NODES.with_borrow_mut(Vec::clear);
        let long = format!("[{}]", vec!["1"; SPARE_CAPACITY * 8].join(","));
        drop(Outline::of(&long).unwrap());
        assert_eq!(
            spares(),
            0,
            "an outline of a long text gives its memory back"
        );
        let outlines: Vec<Outline> = (0..SPARES + 8)
            .map(|_| Outline::of("[1,[2]]").unwrap())
            .collect();
        drop(outlines);
        assert_eq!(spares(), SPARES);
    }

    #[test]
    #[should_panic(expected = "an outline read against another text")]
    fn an_outline_is_read_against_its_own_text_only() {
        let outline = Outline::of("[1]").unwrap();
        outline.root("[1, 2]");
    }
}
