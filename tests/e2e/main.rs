//! End-to-end tests: the whole server on real sockets (port 0) with a fresh database per test,
//! against SQLite and PostgreSQL.

mod support;

mod abuse;
mod api;
mod daemon_dice;
mod deployment;
mod games;
mod play;
mod restart;
mod slow;
mod store;
