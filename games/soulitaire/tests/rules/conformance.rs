use pandemonium_game_contract::conformance::{check, matches_from_env};
use pandemonium_soulitaire::Soulitaire;

#[test]
fn soulitaire_passes_the_conformance_harness() {
    // 300 here; the registry's test plays 2,000 more. CONFORMANCE_MATCHES overrides.
    check::<Soulitaire>(matches_from_env(300));
}
