use pandemonium_soulitaire::Soulitaire;

#[test]
fn soulitaire_passes_the_conformance_harness() {
    pandemonium_game::conformance::check::<Soulitaire>(300);
}
