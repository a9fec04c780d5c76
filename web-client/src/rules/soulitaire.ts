import type { CatalogueGame } from "./types";

export const soulitaire: CatalogueGame = {
  id: "soulitaire",
  name: "Pixel Demon's Realm: Soulitaire",
  shortName: "Soulitaire",
  minSeats: 1,
  maxSeats: 1,
  pitch:
    "Clear a six-by-six Spellboard onto rising and falling stacks, and feed demons to make room.",
  glyph: "☥",
  hue: 275,
  teams: false,
  rules: `
## The goal
Empty the **Spellboard** — 36 cards dealt in six columns — by moving its cards onto four **Foundation Stacks**. You win the moment the Spellboard is empty; your title depends on how many **Demon cards** are still waiting in your Demon Pile.

## The cards
- **Ritual cards:** four suits, thirteen ranks each, plus **two Mimics** — 54 in all.
- The ranks run in a circle: **A 2 3 4 5 6 7 8 9 10 E S K**, and then A again. E and S are Realm Wardens, K is the Keeper. An Ace goes on a Keeper or a 2.
- **Demon cards** carry one to four **symbols**; each symbol is a suit or a rank.

## Setting up
- The Spellboard: six columns of six cards. Only the bottom card of each column is face up.
- Four cards are dealt face up to start the four Foundation Stacks.
- The 14 cards left over are set aside unseen and are not used.
- Six Demon cards, drawn at random, form your face-up **Demon Pile**.

## Playing
- **Move a card:** move the exposed card of any column onto a foundation whose top card is exactly **one rank higher or lower**. Suits do not matter. Cards never leave a foundation.
- **Uncover:** when a column's bottom card leaves, the card above it turns face up by itself.
- **Sacrifice a demon** (at any time): place the **top** Demon card on a foundation whose top card matches one of its symbols (its suit or its rank). Then, for each of the demon's symbols, you may move one exposed Spellboard card that matches that symbol onto the demon, in the order you like. The last card placed is the new top of that stack.
  - Choose all the cards first, from those exposed when the demon lands; a card uncovered during the sacrifice cannot join it.
  - A demon with a repeated symbol takes that many matching cards.
- **Discard a demon:** you may throw away the top Demon card at any time to reach the one below. It is lost.

## Mimics
- A Mimic moved onto a foundation becomes a card of your choice: a rank next to the current top, and any suit. That choice is fixed for good.
- A Mimic used in a sacrifice becomes a full card (rank and suit) that matches the symbol it was taken for.
- A Mimic dealt to start a foundation is **wild**: any Ritual card may go on it, and any demon with a **rank** symbol may be sacrificed onto it (it has no suit, so suit symbols cannot match it).

## Winning and losing
- You **win** when the Spellboard is empty. Your title counts the demons still in the pile:
  - 0: Wanderer of the Realms
  - 1: Adept Ritualist
  - 2: Dark Savant
  - 3: Greater Demon
  - 4 or more: Master of the Realm
- You **lose** when no Spellboard card can move to a foundation and no demon left in the pile (even after discarding the ones above it) matches any foundation top. You may also concede.

## House choices
The printed rules leave some gaps; Pandemonium settles them like this.
- **Geometry:** the Spellboard is six straight columns; each card is covered only by the card directly below it.
- **Turning up** an uncovered card is automatic.
- **A bare demon blocks its stack:** a demon left on top of a foundation with no Ritual cards on it has no rank or suit, so nothing more can be played on that stack. The board warns you before you do it. (The room option *demon-on-top rule* can let the card beneath keep counting instead.)
- **Only the top demon is visible;** the ones below appear as you sacrifice or discard. (The room option *Demon Pile visibility* can spread the whole pile face up.)
- **A sacrifice that moves no cards** still counts as a move.
- The 14 unused cards may be shown after the game.
> **House set.** The real suit names and demon roster have never been published. Pandemonium ships a clearly labelled house set: four house suits with their own glyphs, and a roster of named demons (including *Bosche the Plague Doctor*, who bears one symbol of each suit) mixing four-suit, two-suit-plus-rank and rank-only demons. Real data can replace it without changing the rules.
`,
};
