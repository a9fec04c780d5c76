use pandemonium_daemon_dice::DaemonDice;
use pandemonium_game_contract::Conformance;
use pandemonium_game_contract::conformance;

/// Two rounds of every configuration (`CONFORMANCE_MATCHES` overrides; `make test` plays the
/// registry's 2,000).
#[test]
fn every_seat_count_and_size_passes_the_conformance_harness() {
    let configs = DaemonDice::conformance_configs().len();
    conformance::check::<DaemonDice>(conformance::matches_from_env(2 * configs));
}
