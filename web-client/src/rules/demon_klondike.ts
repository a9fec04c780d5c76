import type { CatalogueGame } from "./types";

export const demonKlondike: CatalogueGame = {
  id: "demon_klondike",
  name: "Demon",
  shortName: "Demon",
  minSeats: 2,
  maxSeats: 8,
  pitch: "Racing Klondike: everyone plays at once onto shared foundations — first card there wins.",
  glyph: "⚡",
  hue: 8,
  teams: false,
  rules: `
## The goal
Everyone plays a game of Klondike **at the same time**, each from their own deck, building on **shared foundations** in the middle. Score the most points over the agreed number of deals.

## Your layout
- Seven piles of 1 to 7 cards; only the top card of each pile is face up. The other 24 cards are your **stock**.
- At the start signal, three stock cards are turned onto your **waste** for you: you begin with 21 in the stock and 3 in the waste.

## Playing — no turns
Play as fast as you can; the server takes moves in the order they arrive.
- **Foundations** are shared. Any Ace you play starts a new foundation in the middle. Anyone may build any foundation **up by suit**, Ace to King.
- **Your piles** build **down in alternating colours** (a red 10 on a black Jack). You only ever build on your own piles.
- **Playable cards:** the top card of your waste, the top card of any of your piles, and any face-up run of cards in a pile, which moves as a unit ("the 8 onto the 9, and both onto the 10").
- **Empty piles** take only a King, or a run headed by a King.
- When a face-down card is uncovered, it turns up by itself.
- **Stock:** turn three cards at a time onto the waste (fewer if fewer remain). When the stock is empty, turn the waste over to make a new stock, in the same order — as often as you like.

## Collisions
If two players play the same card onto the same foundation, the first to arrive stays; the other card goes back where it came from. Cards never leave the foundations.

## End of a deal
- The deal ends **the instant** one player's 52nd card reaches the foundations — "Demon!" is called for them.
- It also ends when **nobody** can make progress any more.

## Scoring
- The player who went out scores **62** (52 + 10).
- Everyone else scores **1 point per card of theirs** on the foundations (each deck has its own back, so every card is credited to its owner).
- After the last deal, the highest total wins; ties are shared.

## House choices
- **Part of a run may move:** you may move any face-up run from a pile, not only the whole run. (Room option: strict "whole run only".)
- **Every Ace starts its own foundation,** so several foundations of one suit can exist. When you play onto a foundation you choose which one.
- **"Nobody can play"** means no player has a *progress move* left, however often they cycle their stock: a card to a foundation, a waste card to a pile, a move that turns up a face-down card, or a King (or King run) moved to an empty pile from a pile with face-down cards. Shuffling cards between piles or cycling the stock does not count. A stalled deal gives nobody the +10.
- **"We're stuck":** press it when you see no play. You stop racing for the rest of the deal (your cards on the foundations still count); the deal ends when everyone has pressed it. If nobody makes a progress move for the idle time (60 s by default, room option), everyone still racing is counted as stuck. As a last safeguard (for machines that never give up) a deal also ends once every player still racing has made 500 actions with no progress move by anyone, or the table 5,000 per player.
- **Between deals** everything is revealed and the scores stay up until everyone is ready (at most 30 s).
- **Number of deals:** 3 by default (room option).
- **What others see:** your face-up cards, your top waste card and the two beneath it from your last draw, and the size of your stock and waste. Nobody — not even you — sees your face-down cards or your stock order.
`,
};
