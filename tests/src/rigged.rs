//! Rigged deals (and rolls) for end-to-end tests.

use pandemonium_daemon_dice::ScriptedRolls;
use pandemonium_demon_klondike::Card as DemonCard;
use pandemonium_demos::Rigging;
use pandemonium_soulitaire::{Card, Deal, Demon, Rank, Suit, data::ROSTER};

/// A five-seat DēmoS deal (dealer 0) in which the Independent (seat 4) is dealt the four 7s,
/// a Harmonious Square; the Power Pile is a Media, the Executive of spades and the Legislator
/// of hearts, so the Square's two draws give the Independent a Media and the next round
/// empties the pile; every other player already holds two figures face down, so the Square's
/// reveals leave each of them one face-down figure for the Media to target.
pub fn demos_square_and_media() -> Rigging {
    let sevens = ["7S", "7H", "7D", "7C"];
    let mut rest: Vec<String> = ["S", "H", "D", "C"]
        .iter()
        .flat_map(|suit| {
            (1..=10)
                .filter(|&r| r != 7)
                .map(move |r| format!("{r}{suit}"))
        })
        .collect();
    // Deal order from the dealer's left: seats 1, 2, 3, 4, 0, one card at a time; the
    // Independent's cards are at 3, 8, 13 and 18.
    let mut deck: Vec<String> = Vec::with_capacity(40);
    for position in 0..40 {
        if position % 5 == 3 && position < 20 {
            deck.push(sevens[position / 5].to_string());
        } else {
            deck.push(rest.remove(0));
        }
    }
    let card = |name: &str| name.parse().expect("a card");
    let figure = |name: &str| name.parse().expect("a figure");
    Rigging {
        dealer: 0,
        decks: vec![deck.iter().map(|c| card(c)).collect()],
        power_pile: ["M", "ES", "LH"].iter().map(|f| figure(f)).collect(),
        figures: vec![
            vec![figure("EH"), figure("JS")],
            vec![figure("LS"), figure("JH")],
            vec![figure("JD"), figure("ED")],
            vec![figure("LC"), figure("JC")],
            vec![],
        ],
        ..Rigging::default()
    }
}

/// A four-seat simplified DēmoS (dealer 0) in its last round, where nobody can win the
/// Election: nobody holds an Executive and the Power Pile's last figure is a Legislative, so
/// no E-L-J trio exists whoever wins the round. The People's Pack is in suit order; the
/// players start with points (two of them level) so the placements have something to rank.
pub fn demos_no_winner() -> Rigging {
    let deck = ["S", "H", "D", "C"]
        .iter()
        .flat_map(|suit| (2..=10).map(move |r| format!("{r}{suit}")))
        .map(|name| name.parse().expect("a card"))
        .collect();
    let figures =
        |names: &[&str]| -> Vec<_> { names.iter().map(|f| f.parse().expect("a figure")).collect() };
    Rigging {
        dealer: 0,
        decks: vec![deck],
        power_pile: figures(&["LS"]),
        figures: vec![
            figures(&["LH", "JH"]),
            figures(&["LD", "JD"]),
            figures(&["LC", "JC"]),
            figures(&["JS"]),
        ],
        points: vec![30, 30, 12, 0],
        // The simplified game's default cap is 12 rounds: this one is the last.
        rounds_played: 11,
        ..Rigging::default()
    }
}

/// A Demon deck (its top is the last card) whose stock feeds the foundations: the start
/// signal turns 3S 2S AS, so the Ace, two and three of spades play at once from the waste,
/// then each draw of three turns the next three of the suit, highest first (6S 5S 4S, …),
/// through the spades and on to the hearts up to the Jack. Every player holds this same deck,
/// so they all race for the same foundation with every card. The tableau holds the Kings and
/// Queen of hearts, the diamonds and the clubs.
pub fn demon_klondike_twin_deck() -> Vec<DemonCard> {
    let stock = "3S 2S AS 6S 5S 4S 9S 8S 7S QS JS 10S 2H AH KS 5H 4H 3H 8H 7H 6H JH 10H 9H";
    let tableau = "KH QH AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD \
                   AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC";
    let mut top_first = DemonCard::list(tableau);
    top_first.extend(DemonCard::list(stock));
    top_first.reverse();
    top_first
}

/// A full Soulitaire deal (54 cards, six demons) whose first moves are a Mimic and a Sacrifice:
/// the Mimic is visible at the bottom of column 1 and fits on the 10 of Pentacles; declared
/// the 9 of Skulls, it lets Bosche the Plague Doctor (one symbol per suit) be sacrificed on it
/// with a visible card of each of his four suits. The rest is winnable by plain play (the
/// solver wins it as Master of the Realm). Columns are listed from the top row down: the last
/// card is the visible one.
pub fn soulitaire_mimic_and_sacrifice() -> Deal {
    let column = |names: &str| names.split_whitespace().map(soulitaire_card).collect();
    let demons = |names: &[&str]| -> Vec<Demon> {
        names
            .iter()
            .map(|name| {
                *ROSTER
                    .iter()
                    .find(|d| d.name == *name)
                    .expect("a demon of the roster")
            })
            .collect()
    };
    Deal {
        spellboard: [
            column("Ks1 3s4 7s3 Ss2 7s4 M"),
            column("Ks4 10s3 Ks2 2s4 8s1 8s3"),
            column("4s2 3s3 3s2 8s4 Es3 2s1"),
            column("Ss1 Es1 As4 Ks3 10s2 8s2"),
            column("2s3 5s1 3s1 Ss3 6s1 6s4"),
            column("4s4 M As1 5s2 9s3 Ss4"),
        ],
        foundations: ["10s4", "Es2", "9s4", "Es4"].map(soulitaire_card),
        set_aside: column("2s2 As2 As3 5s3 5s4 6s2 9s2 4s1 9s1 4s3 10s1 7s2 6s3 7s1"),
        demons: demons(&[
            "Bosche the Plague Doctor",
            "Lady Nettle",
            "Ashmaw the Cinder Hound",
            "Vesh the Lantern Widow",
            "Sallow Jack",
            "Tallow the Candle Imp",
        ]),
        unused_demons: demons(&[
            "Quillon the Inkbound",
            "The Ossuary Choir",
            "The Ninefold Moth",
            "Murk the Bog Saint",
            "Grimsby Twelvefingers",
            "The Three-Faced Clerk",
            "Hexley the Bell-Ringer",
            "Old Gristle",
            "Mother Cinders",
            "Ysolde of the Keys",
        ]),
    }
}

/// A Soulitaire card from a short name: `"7s3"` (rank, then suit s1-s4), `"M"` for a Mimic.
fn soulitaire_card(name: &str) -> Card {
    if name == "M" {
        return Card::Mimic;
    }
    let (rank, suit) = name.split_at(name.len() - 2);
    let suit = match suit {
        "s1" => Suit::S1,
        "s2" => Suit::S2,
        "s3" => Suit::S3,
        "s4" => Suit::S4,
        _ => panic!("no suit {suit}"),
    };
    let rank = Rank::ALL
        .into_iter()
        .find(|r| r.label() == rank)
        .unwrap_or_else(|| panic!("no rank {rank}"));
    Card::new(suit, rank)
}

/// A two-seat Demon Bound! deal at the secret setup choice, for a person in seat 0 against the
/// bot in seat 1. The person holds 9H (the high sacrifice: they go first) and 8S to summon onto
/// the bot's 2H; the bot answers with 10S onto the person's 9H (10 > 9), which the person's
/// 10C then binds; the person's first refresh brings the Jack of diamonds, whose Treasure
/// Scrying on the third turn finds the bot holding 6D-9D. The rest of the deck (no Jokers)
/// follows in deck order.
pub fn demon_bound_summon_bind_and_scrying() -> pandemonium_demon_bound::Rigging {
    use pandemonium_demon_bound::Card as C;
    let cards = |names: &str| C::list(names);
    let hands = vec![cards("9H 8S 10C 2C 3C 4C"), cards("2H 10S 2D 3D 4D 5D")];
    let discard = cards("AC");
    // Refreshes: the person's first turn, the bot's, the person's second, the bot's, the
    // person's third.
    let mut draw = cards("JD 6D 5C 6C 7D 8D 9D 7C 8C");
    let used: Vec<C> = hands
        .iter()
        .flatten()
        .chain(&discard)
        .chain(&draw)
        .copied()
        .collect();
    draw.extend(C::deck(0, false).into_iter().filter(|c| !used.contains(c)));
    pandemonium_demon_bound::Rigging {
        hands,
        draw,
        discard,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pandemonium_game_contract::{Bot, Game, SeededChance, Viewer};
    use pandemonium_soulitaire::{Action, Config, Face, SolverBot, Soulitaire};

    #[test]
    fn the_rigged_soulitaire_deal_is_a_whole_deck_that_opens_with_a_mimic_and_a_sacrifice() {
        let deal = soulitaire_mimic_and_sacrifice();
        let mut cards: Vec<Card> = deal.spellboard.iter().flatten().copied().collect();
        cards.extend(deal.foundations);
        cards.extend(deal.set_aside.iter().copied());
        let mut deck = Card::deck();
        cards.sort();
        deck.sort();
        assert_eq!(cards, deck);
        assert_eq!((deal.demons.len(), deal.unused_demons.len()), (6, 10));

        let mut game = Soulitaire::rigged(Config::default(), deal);
        let mimic = Action::Move {
            column: 0,
            foundation: 0,
            declare: Some(Face::new(Suit::S1, Rank::Nine)),
        };
        assert!(game.legal_actions(0).contains(&mimic));
        let mut chance = SeededChance::from_u64(0);
        game.apply(0, &mimic, &mut chance).unwrap();
        assert!(
            game.legal_actions(0)
                .contains(&Action::Sacrifice { foundation: 0 })
        );
        while game.outcome().is_none() {
            let legal = game.legal_actions(0);
            let action = SolverBot.choose(&game.view(Viewer::Seat(0)), &legal, &mut chance);
            game.apply(0, &action, &mut chance).unwrap();
        }
        assert!(game.title().is_some(), "the solver wins it");
    }

    #[test]
    fn the_rigged_no_winner_demos_ends_in_an_election_nobody_wins_with_places_within_the_seats() {
        use pandemonium_demos::{Demos, DemosBot, DemosConfig, Mode};
        let config = DemosConfig {
            mode: Mode::Simplified,
            ..DemosConfig::default()
        };
        let mut game = Demos::from_rigging(&config, 4, demos_no_winner()).unwrap();
        let mut chance = SeededChance::from_u64(0);
        while game.outcome().is_none() {
            let seat = game.to_act().iter().next().expect("someone acts");
            let legal = game.legal_actions(seat);
            let action = DemosBot.choose(&game.view(Viewer::Seat(seat)), &legal, &mut chance);
            game.apply(seat, &action, &mut chance).unwrap();
        }
        let outcome = game.outcome().unwrap();
        assert!(outcome.winners.is_empty(), "{outcome:?}");
        assert!(outcome.placements.contains(&1), "{outcome:?}");
        assert!(outcome.placements.iter().all(|&p| (1..=4).contains(&p)));
    }

    #[test]
    fn the_demon_twin_deck_is_one_whole_deck_that_opens_with_the_ace_of_spades_on_the_waste() {
        use pandemonium_demon_klondike::{Config, DemonKlondike};
        let mut deck = demon_klondike_twin_deck();
        let game = DemonKlondike::rigged_decks(Config::default(), vec![deck.clone(), deck.clone()]);
        assert_eq!(game.layout(0).waste_top(), Some("AS".parse().unwrap()));
        assert_eq!(
            game.layout(0),
            game.layout(1),
            "every player holds the same layout"
        );
        deck.sort();
        assert_eq!(deck, DemonCard::deck());
    }

    #[test]
    fn the_rigged_demon_bound_deal_leads_to_a_summon_a_bind_and_a_scrying() {
        use pandemonium_demon_bound::{
            Card as C, DemonBound, DemonBoundAction as A, DemonBoundBot, DemonBoundConfig,
        };
        let mut game = DemonBound::rigged_setup(
            &DemonBoundConfig::default(),
            2,
            demon_bound_summon_bind_and_scrying(),
        )
        .unwrap();
        let mut chance = SeededChance::from_u64(1);
        let card = |n: &str| n.parse::<C>().unwrap();
        let bot = |game: &mut DemonBound, chance: &mut SeededChance| {
            while game.outcome().is_none() && game.to_act().contains(1) {
                let legal = game.legal_actions(1);
                let action = DemonBoundBot.choose(&game.view(Viewer::Seat(1)), &legal, chance);
                game.apply(1, &action, chance).unwrap();
            }
        };
        let person = |game: &mut DemonBound, action: A, chance: &mut SeededChance| {
            game.apply(0, &action, chance)
                .unwrap_or_else(|e| panic!("{action:?}: {e}"));
        };
        person(
            &mut game,
            A::SetupSacrifice { card: card("9H") },
            &mut chance,
        );
        bot(&mut game, &mut chance);
        person(
            &mut game,
            A::Summon {
                card: card("8S"),
                onto: 1,
            },
            &mut chance,
        );
        person(
            &mut game,
            A::Discard {
                cards: vec![card("2C")].into(),
            },
            &mut chance,
        );
        bot(&mut game, &mut chance);
        assert_eq!(
            game.view(Viewer::Seat(0)).players[0].threats,
            vec![card("10S")]
        );
        person(
            &mut game,
            A::Bind {
                card: card("10C"),
                demon: card("10S"),
            },
            &mut chance,
        );
        person(
            &mut game,
            A::Discard {
                cards: vec![card("3C")].into(),
            },
            &mut chance,
        );
        bot(&mut game, &mut chance);
        person(&mut game, A::Cast { card: card("JD") }, &mut chance);
        person(&mut game, A::Scry { seat: 1 }, &mut chance);
        let peek = game.view(Viewer::Seat(0)).peeks[0].hand.clone();
        assert!(peek.contains(&card("9D")), "{peek:?}");
        person(&mut game, A::Steal { card: card("9D") }, &mut chance);
    }
}

/// The daemon the browser test builds for the person in seat 0 of `daemon_dice_rigged`:
/// three Pincers, a Shell and a Leg, all Frost.
pub const DAEMON_DICE_PERSON: [&str; 5] = ["pincer", "pincer", "pincer", "shell", "leg"];

/// The rolls of a five-dice `daemon_dice_rigged` duel between a person (seat 0, building
/// [`DAEMON_DICE_PERSON`]) and the bot (seat 1, a Fire purebred), as d6 results die by die
/// (the house set shows `[its part, Stun, Block, Dodge, Plus, Minus]` on 1 to 6):
/// - initiative: the person's five Pluses beat the bot's five Stuns, and the bot has no
///   minuses to count against the first turn;
/// - turn 1, the person: Pincer, Stun, Plus, Block, Block — two attacks and a plus to boost
///   one;
/// - turn 2, the bot: two Blocks and three Stuns — it stops one attack, suffers the other and
///   arrays three Stuns;
/// - turn 3, the person: three Pincers, the Shell (a deflect) and a Block — two defences for
///   three Stuns, so one point of damage to suffer (Fire makes it a wound, Frost a stun again);
/// - turn 4, the bot: Minuses only — three Pincers' wounds leave it one healthy die, whose
///   Minus makes the person set a die aside;
/// - then the person rolls body parts and the bot Stuns, and the bot's last die falls.
pub fn daemon_dice_duel() -> ScriptedRolls {
    ScriptedRolls::new(vec![
        vec![vec![5], vec![1, 2, 5, 3, 3], vec![1, 1, 1, 1, 3], vec![1]],
        vec![vec![2], vec![3, 3, 2, 2, 2], vec![6], vec![2]],
    ])
}

#[cfg(test)]
mod daemon_dice_tests {
    use super::*;
    use pandemonium_daemon_dice::{
        Breed, DaemonAction as A, DaemonBot, DaemonDice, DaemonDiceConfig, Part, Step, Zone,
    };
    use pandemonium_game_contract::{Bot, Game, SeededChance, Viewer};

    /// What the browser test does through the board: builds the daemon, boosts its first
    /// attack, defends whatever it can, puts damage on dice it has used, sets aside and
    /// recovers the first die offered, and ends every step.
    fn person(game: &DaemonDice) -> A {
        let legal = game.legal_actions(0);
        let view = game.view(Viewer::Seat(0));
        let first = |t: fn(&A) -> bool| legal.iter().copied().find(&t);
        let picked = view.daemons[0].picked as usize;
        match view.step {
            Step::Construction if picked == DAEMON_DICE_PERSON.len() => A::Ready { breed: None },
            Step::Construction => A::Pick {
                breed: Breed::Frost,
                part: serde_json::from_value(serde_json::json!(DAEMON_DICE_PERSON[picked]))
                    .expect("a part"),
            },
            Step::Suffer { .. } => {
                let dice = &view.daemons[0].dice;
                legal
                    .iter()
                    .copied()
                    .find(|a| {
                        matches!(a, A::Suffer { die }
                            if dice[*die as usize].zone == Zone::Spent)
                    })
                    .unwrap_or(legal[0])
            }
            Step::Defend => first(|a| matches!(a, A::Defend { .. })).unwrap_or(A::Done),
            Step::Attack => first(|a| matches!(a, A::Boost { .. })).unwrap_or(A::Done),
            _ => first(|a| !matches!(a, A::Done)).unwrap_or(A::Done),
        }
    }

    #[test]
    fn the_rigged_daemon_dice_duel_is_won_by_the_person_within_a_few_turns() {
        let config = DaemonDiceConfig {
            size: 5,
            ..DaemonDiceConfig::default()
        };
        let mut game = DaemonDice::scripted(&config, 2, daemon_dice_duel()).unwrap();
        let mut chance = SeededChance::from_u64(1);
        let mut boosted = false;
        let mut defended = false;
        let mut suffered = false;
        let mut set_aside = false;
        for _ in 0..500 {
            if game.outcome().is_some() {
                break;
            }
            let seat = game.to_act().iter().next().expect("someone acts");
            let action = if seat == 0 {
                person(&game)
            } else {
                let view = game.view(Viewer::Seat(seat));
                DaemonBot.choose(&view, &game.legal_actions(seat), &mut chance)
            };
            if seat == 0 {
                boosted |= matches!(action, A::Boost { .. });
                defended |= matches!(action, A::Defend { .. });
                suffered |= matches!(action, A::Suffer { .. });
                set_aside |= matches!(action, A::SetAside { .. });
            }
            game.apply(seat, &action, &mut chance)
                .unwrap_or_else(|e| panic!("{action:?} by seat {seat}: {e}"));
        }
        let outcome = game.outcome().expect("the duel ends");
        assert_eq!(outcome.winners, vec![0], "{}", outcome.summary);
        let view = game.view(Viewer::Spectator);
        assert!(view.turn <= 8, "the duel took {} turns", view.turn);
        assert_eq!(view.daemons[0].dice[3].part, Part::Shell);
        assert!(boosted && defended && suffered && set_aside);
    }
}
