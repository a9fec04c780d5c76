//! Tests over every registered game: the conformance harness, and the TypeScript bindings the
//! web client uses being up to date with the Rust types.

mod typescript;

use pandemonium_game_contract::conformance::{DEFAULT_MATCHES, check, matches_from_env};
use pandemonium_game_contract::{Bot, Conformance, SeededChance};
use pandemonium_game_registry::EachGame;

/// The harness of every game, each to run on a thread of its own.
struct Harnesses(Vec<fn(usize)>);

impl EachGame for Harnesses {
    fn game<G: Conformance, B: Bot<G> + Default + 'static>(&mut self) {
        self.0.push(check::<G>);
    }
}

#[test]
fn every_registered_game_passes_the_conformance_harness() {
    let matches = matches_from_env(DEFAULT_MATCHES);
    let mut harnesses = Harnesses(Vec::new());
    pandemonium_game_registry::each_game(&mut harnesses);
    assert_eq!(harnesses.0.len(), pandemonium_game_registry::all().len());
    // One thread per game: the games are independent, and the machine has more than one core.
    std::thread::scope(|scope| {
        for harness in harnesses.0 {
            scope.spawn(move || harness(matches));
        }
    });
}

#[test]
fn game_ids_are_unique_and_every_game_has_a_name_and_seats() {
    let mut ids: Vec<String> = pandemonium_game_registry::all()
        .iter()
        .map(|e| (e.info)().id)
        .collect();
    for entry in pandemonium_game_registry::all() {
        let info = (entry.info)();
        assert!(
            !info.name.is_empty() && !info.description.is_empty(),
            "{}",
            info.id
        );
        assert!(1 <= info.min_seats && info.min_seats <= info.max_seats && info.max_seats <= 8);
    }
    let count = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), count, "duplicate game ids");
}

/// The server applies a bot's move and a timed-out seat's default action as the text the game
/// gives it, and logs what `apply_json` returns: both must already be in the canonical form
/// (fields in the order of the action's type), or each would be read twice more, as trees, to
/// look for unknown fields, and logged in another form than the one it was sent in.
#[test]
fn bot_and_default_actions_come_as_the_canonical_text_the_log_keeps() {
    for entry in pandemonium_game_registry::all() {
        let info = (entry.info)();
        for seed in 0..4 {
            let mut chance = SeededChance::from_u64(seed);
            let (mut game, _) = (entry.create)(&serde_json::json!({}), info.min_seats, &mut chance)
                .unwrap_or_else(|e| panic!("{}: default options refused: {e:?}", info.id));
            let mut applied = 0;
            for step in 0..300 {
                let Some(seat) = game.to_act().iter().next() else {
                    break;
                };
                // Every other step the clock's default, where the rules have one.
                let sent = match game.default_action(seat).filter(|_| step % 2 == 1) {
                    Some(default) => default,
                    None => match game.bot_action(seat, &mut chance) {
                        Some(bot) => bot,
                        None => break,
                    },
                };
                let logged = game
                    .apply_json(seat, &sent, &mut chance)
                    .unwrap_or_else(|r| panic!("{}: {sent} refused: {}", info.id, r.message));
                assert_eq!(logged, sent, "{}: logged otherwise than sent", info.id);
                applied += 1;
            }
            assert!(applied > 0, "{}: no action was tried", info.id);
        }
    }
}

/// Every game's rules page, by id.
struct Pages(Vec<(String, &'static str)>);

impl EachGame for Pages {
    fn game<G: Conformance, B: Bot<G> + Default + 'static>(&mut self) {
        self.0.push((G::info().id, G::RULES_PAGE));
    }
}

#[test]
fn every_game_has_a_rules_page_with_its_house_choices_and_the_lobby_facts_the_client_shows() {
    let mut pages = Pages(Vec::new());
    pandemonium_game_registry::each_game(&mut pages);
    assert_eq!(
        pages.0.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>(),
        pandemonium_game_registry::ids()
    );
    for (id, page) in pages.0 {
        for heading in ["\n## House choices\n", "\n## The rules in full\n"] {
            assert!(page.contains(heading), "{id}: no {heading:?}");
        }
        assert!(
            !page.contains("original/"),
            "{id}: the printed rulebooks are not in the repository"
        );
    }
    for entry in pandemonium_game_registry::all() {
        let info = (entry.info)();
        for (fact, value) in [
            ("short_name", &info.short_name),
            ("score_unit", &info.score_unit),
            ("glyph", &info.glyph),
        ] {
            assert!(!value.is_empty(), "{}: no {fact}", info.id);
        }
        assert!(info.hue < 360, "{}: hue {}", info.id, info.hue);
    }
}
