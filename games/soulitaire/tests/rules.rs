//! The rules of Soulitaire, one test per rule (rules/soulitaire.md), plus the conformance
//! harness and the solver bot.

mod rules {
    pub mod common;
    mod conformance;
    mod measure;
}
