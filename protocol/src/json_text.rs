//! The parts of a JSON text, found by scanning it rather than parsing it: an object's members
//! and an array's elements, each value left as the text it was. Patches are worked out on
//! frames the server has just serialised itself, level by level into what changed; a scan that
//! only looks for quotes, brackets and commas does that several times faster than a parser,
//! which checks every number and escape on the way.
//!
//! The text is taken to be valid JSON (what a serialiser wrote). Anything else is not checked
//! but never panics: a text that does not split as expected gives `None`.

use std::borrow::Cow;

/// The members of the object `text`: each name (unescaped) and the text of its value.
pub fn members(text: &str) -> Option<Vec<(Cow<'_, str>, &str)>> {
    let bytes = text.as_bytes();
    let mut members = Vec::new();
    each(bytes, b'{', b'}', |at| {
        let name_end = string_end(bytes, at)?;
        let name = &text[at..name_end];
        let name = if name.contains('\\') {
            Cow::Owned(serde_json::from_str::<String>(name).ok()?)
        } else {
            Cow::Borrowed(&name[1..name.len() - 1])
        };
        let colon = skip_space(bytes, name_end);
        if *bytes.get(colon)? != b':' {
            return None;
        }
        let start = skip_space(bytes, colon + 1);
        let end = value_end(bytes, start)?;
        members.push((name, &text[start..end]));
        Some(end)
    })?;
    Some(members)
}

/// The elements of the array `text`, each as its text.
pub fn elements(text: &str) -> Option<Vec<&str>> {
    let bytes = text.as_bytes();
    let mut elements = Vec::new();
    each(bytes, b'[', b']', |at| {
        let end = value_end(bytes, at)?;
        elements.push(&text[at..end]);
        Some(end)
    })?;
    Some(elements)
}

/// Walks the container that opens with `open` and closes with `close` (the whole text): calls
/// `item` with where each member or element starts, and `item` says where it ends.
fn each(
    bytes: &[u8],
    open: u8,
    close: u8,
    mut item: impl FnMut(usize) -> Option<usize>,
) -> Option<()> {
    let start = skip_space(bytes, 0);
    if *bytes.get(start)? != open {
        return None;
    }
    let mut at = skip_space(bytes, start + 1);
    if *bytes.get(at)? == close {
        return Some(());
    }
    loop {
        let end = skip_space(bytes, item(at)?);
        match *bytes.get(end)? {
            b',' => at = skip_space(bytes, end + 1),
            b if b == close => return Some(()),
            _ => return None,
        }
    }
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes
        .get(at)
        .is_some_and(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
    {
        at += 1;
    }
    at
}

/// Where the value starting at `at` ends (exclusive).
fn value_end(bytes: &[u8], at: usize) -> Option<usize> {
    match *bytes.get(at)? {
        b'"' => string_end(bytes, at),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = at;
            while let Some(&b) = bytes.get(i) {
                match b {
                    b'"' => {
                        i = string_end(bytes, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        // A number, true, false or null: up to whatever follows it.
        _ => {
            let mut i = at;
            while bytes
                .get(i)
                .is_some_and(|b| !matches!(b, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t'))
            {
                i += 1;
            }
            Some(i)
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_objects_members_keep_their_order_and_their_text() {
        let text = r#"{"b":[1,{"x":"]}"}],"a" : "q\"u}ote" ,"c~/d":null,"e\u0041":-1.5e3,"f":{}}"#;
        let found = members(text).unwrap();
        let found: Vec<(&str, &str)> = found.iter().map(|(k, v)| (k.as_ref(), *v)).collect();
        assert_eq!(
            found,
            vec![
                ("b", r#"[1,{"x":"]}"}]"#),
                ("a", r#""q\"u}ote""#),
                ("c~/d", "null"),
                ("eA", "-1.5e3"),
                ("f", "{}"),
            ]
        );
    }

    #[test]
    fn an_arrays_elements_are_each_their_text() {
        assert_eq!(
            elements(r#" [ 1 , "a,b" , [2,[3]] , {"k":[]} , true ] "#).unwrap(),
            vec!["1", r#""a,b""#, "[2,[3]]", r#"{"k":[]}"#, "true"]
        );
        assert_eq!(elements("[]").unwrap(), Vec::<&str>::new());
        assert_eq!(members("{ }").unwrap(), vec![]);
    }

    #[test]
    fn what_is_not_an_object_or_array_or_is_cut_short_gives_none() {
        assert_eq!(members("[1]"), None);
        assert_eq!(elements(r#"{"a":1}"#), None);
        assert_eq!(elements("7"), None);
        for cut in [
            r#"{"a":[1,2"#,
            r#"{"a""#,
            r#"{"a":"x"#,
            "[1,",
            "[",
            "",
            r#"{"a"1}"#,
        ] {
            assert_eq!(members(cut), None, "{cut}");
            assert_eq!(elements(cut), None, "{cut}");
        }
    }
}
