//! The rules of Demon Bound!, one test per rule, named after it. The ten test scenarios of
//! `RULES.md` are in `scenarios`, exactly as written; the other modules pin every
//! other rule and proposal. Seats are numbered from 0, clockwise (A = 0, B = 1, C = 2).

mod rules {
    pub mod support;

    pub mod bot;
    pub mod conformance;
    pub mod ending;
    pub mod maw;
    pub mod scenarios;
    pub mod setup;
    pub mod solitaire;
    pub mod spells;
    pub mod turns;
    pub mod views;
}
