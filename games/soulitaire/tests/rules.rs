//! The rules of Soulitaire (RULES.md), one test per rule, plus the conformance
//! harness, the solver bot and (ignored) measurements.

mod rules {
    mod bots;
    pub mod common;
    mod conformance;
    mod ending;
    mod errors;
    pub mod measure;
    mod mimics;
    mod moves;
    mod sacrifice;
    mod setup;
    mod typescript;
    mod views;
}
