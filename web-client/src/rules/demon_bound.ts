import type { CatalogueGame } from "./types";

export const demonBound: CatalogueGame = {
  id: "demon_bound",
  name: "Demon Bound!",
  shortName: "Demon Bound!",
  minSeats: 1,
  maxSeats: 4,
  pitch:
    "Sacrifice hearts, summon spades on your rivals, bind demons with clubs and trade them for diamonds.",
  glyph: "♠",
  hue: 350,
  teams: false,
  rules: `
## The goal
Be the **richest survivor**: collect diamonds in your treasury by paying for them with demons you have bound, without being dragged to hell by your own stains.

## The cards
A poker deck with Jokers. **Aces count as 1.** Numbered cards (A–10) act by suit; Jacks, Queens and Kings are spells with a strength of 1, 2 and 3.
- **Hearts** are sacrifices.
- **Spades** are demons, with a strength equal to their number.
- **Clubs** are binding spells.
- **Diamonds** are treasure.

## Setting up
- Everyone starts with **one stain** and six cards. One card is turned up to start the discard pile.
- Everyone secretly chooses either to **sacrifice** a numbered heart or to **discard a random card** from their own hand; the choices are shown together. The highest sacrifice goes first, then play runs clockwise. (A tie, or no sacrifice at all, is settled at random.)

## Your turn
1. **Refresh** your hand to six cards (the discards are reshuffled when the draw pile runs out).
2. **Play one card** if you wish.
3. **Discard** as many cards as your stain (you may discard more). If your hand is empty, you are dragged to **hell** and out of the game: your bound demons attack opponents you choose.

## What the cards do
- **Heart:** add it to your sacrifice. If a demon is before you and your sacrifice now totals at least its strength, the demon is **appeased**: it attacks an opponent of your choice, and your whole sacrifice is discarded.
- **Spade:** summon it onto any player's sacrifice (yours included) that holds at least one heart. If that sacrifice already totals at least the demon's strength, it is appeased at once — the owner of the sacrifice chooses whom it attacks — and the sacrifice is discarded. Otherwise it stays before that player.
- **Club:** bind a demon before you whose strength is no more than the club. The demon goes to your right as a bound demon; your sacrifice and the club are discarded.
- **Diamond:** put it in your treasury by releasing bound demons whose strengths total at least its value. The released demons are discarded.
- **Banish** (not a card play): release one of your bound demons to discard one demon before you, both at once. You may banish several.
- **Stain:** after your card play, if the strongest demon before you is still there, you take a **stain** and that demon is discarded. The new stain counts in this turn's discard.
- **Mobbed:** with several demons before you, only the strongest threatens you each turn (the earliest arrival on a tie); the others wait their turn.

## Spells (face cards)
Each uses your card play and is then discarded. A Jack does 1, a Queen 2, a King 3.
- **♠ Demonic Visage:** banish up to that many demons anywhere, bound or not.
- **♥ Royal Sacrifice:** set up to that many spades from your hand before any players, yourself included, as attackers.
- **♣ Master's Voice:** bind up to that many demons of any strength from anywhere, even other players' bound demons. Your sacrifice stays.
- **♦ Treasure Scrying:** look at a player's hand and take up to that many numbered diamonds into your hand; if they had too few, go on to another player. Others learn only how many you took.

## Jokers — Hell's Maw
A Joker can never be played, only discarded. When anyone discards one, **every player throws all numbered spades from their hand** into the middle; they are shuffled and dealt face up, one per player starting at the discarder's left, as attacking demons.

## The end
- The game ends **at once** when all ten numbered diamonds are in the treasuries of players still in the game, or when only one player is left.
- The richest survivor (sum of diamond values) wins; a tie goes to fewer stains, then is shared.

## Solitaire mode
Play as if there were three players. After each of your turns, turn up two cards: a numbered spade attacks you, a Joker sets every spade in your hand against you, anything else is discarded. There is no reshuffle: after the draw pile runs out, the game ends at the start of your next discard step. Win with **20 or more** in your treasury. Treasure Scrying takes diamonds from the discard pile; your ♥ spells can only target yourself.

## House choices
- **Deck:** 52 cards and **2 Jokers** (room option: 0–2). With the *Origins 2008* option, the **Marcus King** is added: a special Joker that, when discarded (or turned up in solitaire), takes every numbered spade **from the discard pile** and deals them out as attackers.
- **Aces** are numbered cards worth 1 in every suit. Face cards are only spells — never demons, sacrifices, bindings or treasure.
- **Appeasing needs a fresh heart:** an existing sacrifice only appeases a demon at the moment it is summoned onto it. To appease an attacker you must play a heart this turn.
- **You may always decline** to deal with a demon and take the stain instead.
- **Only demons present when your turn starts** can be bound, appeased or banished that turn, or stain you.
- **Elimination** is checked only at the end of your own discard step. A hand emptied by theft on someone else's turn is refilled at your next refresh.
- **No hand limit:** refreshing draws *up to* six; a hand grown by theft may hold more.
- A Joker turned up to start the discard pile does nothing; a Joker thrown away at setup triggers Hell's Maw.
- **Off-turn choices** (whom an appeased demon attacks; where an eliminated player's demons go) default to the first eligible opponent clockwise when the clock runs out.
- **Paying for treasure** releases only demons that are needed: leaving out any one of them would fall short of the diamond's value.
- **Hell's Maw in your own discard step** also takes the spades left in your hand: if that empties it, you are carried away to hell.
- **Non-termination caps** (room options, off by default): end the game after a number of rounds, or instead of reshuffling the draw pile once too often; the richest survivor then wins.
`,
};
