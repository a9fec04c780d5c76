//! The wire types export to TypeScript for the web client (the registry writes the files).

use pandemonium_soulitaire::{Action, Config, View};
use ts_rs::TS;

#[test]
fn the_wire_types_export_to_typescript_under_their_own_names() {
    let out = std::env::temp_dir().join(format!("soulitaire-ts-{}", std::process::id()));
    let cfg = ts_rs::Config::new()
        .with_out_dir(&out)
        .with_large_int("number");
    View::export_all(&cfg).unwrap();
    Action::export_all(&cfg).unwrap();
    Config::export_all(&cfg).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(out.join("soulitaire"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(
        names.iter().all(|n| n.starts_with("Soulitaire")),
        "{names:?}"
    );
    assert!(names.contains(&"SoulitaireView.ts".to_string()));
    let card = std::fs::read_to_string(out.join("soulitaire/SoulitaireCard.ts")).unwrap();
    assert!(card.contains("\"kind\": \"ritual\""), "{card}");
    if std::env::var_os("KEEP_TS").is_none() {
        let _ = std::fs::remove_dir_all(&out);
    }
}
