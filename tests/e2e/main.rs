//! End-to-end tests: the whole server on real sockets (port 0) with a fresh database per test,
//! against SQLite and PostgreSQL.

mod support;

mod abuse;
mod api;
mod cluster;
mod daemon_dice;
mod demon_bound;
mod demon_klondike;
mod deployment;
mod games;
mod hardening;
mod history;
mod patches;
mod play;
mod restart;
mod rooms;
mod slow;
mod store;
mod together;
