use pandemonium_demos::Demos;
use pandemonium_game_contract::conformance;

#[test]
fn every_mode_passes_the_conformance_harness() {
    conformance::check::<Demos>(conformance::matches_from_env(300));
}
