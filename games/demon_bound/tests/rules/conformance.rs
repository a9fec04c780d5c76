use pandemonium_demon_bound::DemonBound;
use pandemonium_game_contract::conformance;

#[test]
fn every_configuration_passes_the_conformance_harness() {
    conformance::check::<DemonBound>(conformance::matches_from_env(300));
}
