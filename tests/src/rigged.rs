//! Rigged deals for end-to-end tests.

use pandemonium_demos::Rigging;

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
