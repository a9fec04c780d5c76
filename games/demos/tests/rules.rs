//! The rules of DēmoS, one test per rule, named after it. Scenarios 1-8 of `RULES.md`
//! are in `scenarios`, exactly as written; the other modules pin every other rule and
//! proposal. Seats are numbered from 0, clockwise.

mod rules {
    pub mod support;

    pub mod bot;
    pub mod conformance;
    pub mod discards;
    pub mod election;
    pub mod rounds;
    pub mod scandal;
    pub mod scenarios;
    pub mod setup;
    pub mod suggestion;
    pub mod teams;
    pub mod vetoes;
    pub mod views;
}
