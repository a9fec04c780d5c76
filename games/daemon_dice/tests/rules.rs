//! The rules of Daemon Dice, one test per rule, named after it. The test scenarios of
//! `RULES.md` are in `scenarios`, exactly as written; the other modules pin every
//! other rule and proposal. Rolls are always injected. Seats are numbered from 0.

mod rules {
    pub mod support;

    pub mod bot;
    pub mod conformance;
    pub mod construction;
    pub mod damage;
    pub mod defence;
    pub mod multiplayer;
    pub mod scenarios;
    pub mod scripted;
    pub mod sequence;
}
