//! Cleaning text people send one another (names, chat): no control characters and no
//! bidirectional overrides, which could make a line read differently from what it says
//! ("Alice wins" shown backwards, a name that reverses the rest of the room list), and no
//! characters that show nothing, of which a name or a line could be made that nobody sees.

use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

/// Whether `c` may appear in text shown to other people.
fn shown(c: char) -> bool {
    let bidi_control = matches!(
        c,
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    );
    !c.is_control() && !bidi_control && !invisible(c)
}

/// Characters that take no space and show nothing on their own: the zero-width space, word
/// joiners, the byte-order mark, the soft hyphen, blank fillers (Hangul, Braille). The
/// zero-width joiners (U+200C, U+200D) stay: they shape emoji sequences and some scripts.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}' | '\u{034F}' | '\u{115F}' | '\u{1160}' | '\u{180E}' | '\u{200B}' | '\u{2060}'
            ..='\u{2064}' | '\u{2800}' | '\u{3164}' | '\u{FEFF}' | '\u{FFA0}'
    )
}

/// Whether `c` shows something by itself: not a space, and not one of the characters that
/// only change the one before them (combining marks, variation selectors) or join or tag
/// their neighbours (the zero-width joiners, emoji tags).
fn stands_alone(c: char) -> bool {
    !c.is_whitespace()
        && c.general_category_group() != GeneralCategoryGroup::Mark
        && c.general_category() != GeneralCategory::Format
}

/// `text` trimmed, without control characters, bidirectional overrides or characters that
/// show nothing: whatever is left, if anything, can be read. Text with nothing that shows by
/// itself (a lone joiner, an accent on nothing) is left empty.
pub fn clean(text: &str) -> String {
    let kept: String = text.chars().filter(|&c| shown(c)).collect();
    let kept = kept.trim();
    if kept.chars().any(stands_alone) {
        kept.to_string()
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_bidirectional_overrides_are_removed() {
        assert_eq!(clean("  hi\u{0007} there\n"), "hi there");
        assert_eq!(clean("\u{202E}sniw ecilA\u{202C}"), "sniw ecilA");
        assert_eq!(clean("a\u{2066}b\u{2069}"), "ab");
        assert_eq!(clean("\u{0007} \u{0007}"), "", "what is left is trimmed");
        assert_eq!(
            clean("Ünïcödé ☠ 漢字"),
            "Ünïcödé ☠ 漢字",
            "ordinary text is kept"
        );
    }

    #[test]
    fn characters_that_show_nothing_are_removed_and_joiners_kept() {
        for blank in [
            "\u{200B}", "\u{FEFF}", "\u{2800}", "\u{3164}", "\u{00AD}", "\u{200F}",
        ] {
            assert_eq!(clean(blank), "", "{:?}", blank.chars().next());
        }
        assert_eq!(clean("Li\u{200B}lith"), "Lilith");
        let family = "\u{1F469}\u{200D}\u{1F467}";
        assert_eq!(clean(family), family, "an emoji sequence keeps its joiner");
    }

    #[test]
    fn text_of_joiners_marks_selectors_or_tags_alone_is_left_empty() {
        for nothing in [
            "\u{200D}",
            "\u{200C}\u{200D}\u{200C}",
            "\u{0301}",
            " \u{0301}\u{0308} ",
            "\u{FE0F}",
            "\u{E0041}\u{E0020}",
        ] {
            assert_eq!(clean(nothing), "", "{nothing:?}");
        }
        // The same characters where they belong are kept.
        for shaped in [
            "Zoe\u{0301}",
            "\u{2764}\u{FE0F}",
            // The flag of England: a black flag, then tags spelling "gbeng", then the end tag.
            "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
            "\u{0915}\u{094D}\u{200D}",
        ] {
            assert_eq!(clean(shaped), shaped, "{shaped:?}");
        }
    }
}
