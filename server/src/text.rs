//! Cleaning text people send one another (names, chat): no control characters and no
//! bidirectional overrides, which could make a line read differently from what it says
//! ("Alice wins" shown backwards, a name that reverses the rest of the room list).

/// Whether `c` may appear in text shown to other people.
fn shown(c: char) -> bool {
    let bidi_control = matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
    !c.is_control() && !bidi_control
}

/// `text` trimmed, without control characters or bidirectional overrides.
pub fn clean(text: &str) -> String {
    text.chars()
        .filter(|&c| shown(c))
        .collect::<String>()
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_bidirectional_overrides_are_removed() {
        assert_eq!(clean("  hi\u{0007} there\n"), "hi there");
        assert_eq!(clean("\u{202E}sniw ecilA\u{202C}"), "sniw ecilA");
        assert_eq!(clean("a\u{2066}b\u{2069}"), "ab");
        assert_eq!(
            clean("Ünïcödé ☠ 漢字"),
            "Ünïcödé ☠ 漢字",
            "ordinary text is kept"
        );
    }
}
