//! The rules of Demon, one test per rule, named after it. The seven test scenarios of
//! `RULES.md` are in `scenarios`, exactly as written; the other modules pin
//! every other rule and proposal. Seats are numbered from 0.

mod rules {
    pub mod support;

    pub mod bot;
    pub mod conformance;
    pub mod ending;
    pub mod foundations;
    pub mod scenarios;
    pub mod scoring;
    pub mod setup;
    pub mod stalemate;
    pub mod stock;
    pub mod tableau;
    pub mod views;
}
