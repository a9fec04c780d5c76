use pandemonium_demos::Demos;
use pandemonium_game::conformance;

#[test]
fn every_mode_passes_the_conformance_harness() {
    conformance::check::<Demos>(conformance::matches_from_env(300));
}
