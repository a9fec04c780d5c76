//! The rules of DēmoS, pinned one test per rule. Scenarios 1-8 of `rules/demos.md` are in
//! `scenarios`; the rest are grouped by the part of the game they cover.

mod rules {
    pub mod conformance;
}
