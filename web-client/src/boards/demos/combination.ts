/**
 * The best combination in a hand, as the engine scores it at a round's resolution
 * (`games/demos/src/scoring.rs`): shown to the player while they choose, so they can see what
 * their hand is worth now and what a discard would do to it. It reads only the player's own
 * hand (and their declared favourite suit), never anyone else's.
 */
import type { Card } from "../../protocol/demos/Card";
import type { Combination } from "../../protocol/demos/Combination";
import type { CombinationKind } from "../../protocol/demos/CombinationKind";
import type { Suit } from "../../protocol/demos/Suit";
import { parseCard, SUITS } from "./cards";

/** The bonus the Creator's Suggestion gives a one-suit sequence in the favourite suit. */
export const FAVOURITE_SUIT_BONUS = 10;

const BASE: Record<Exclude<CombinationKind, "harmonious_square">, number> = {
  one_suit_sequence: 12,
  two_suit_sequence: 8,
  three_suit_sequence: 4,
};

function sequence(
  cards: Card[],
  favourite: Suit | null,
): { kind: CombinationKind; points: number } | null {
  const [a, b, c] = cards.map(parseCard);
  if (b.rank !== a.rank + 1 || c.rank !== b.rank + 1) return null;
  const suits = new Set([a.suit, b.suit, c.suit]).size;
  const kind: CombinationKind =
    suits === 1 ? "one_suit_sequence" : suits === 2 ? "two_suit_sequence" : "three_suit_sequence";
  const bonus = kind === "one_suit_sequence" && favourite === a.suit ? FAVOURITE_SUIT_BONUS : 0;
  return { kind, points: BASE[kind as keyof typeof BASE] + a.rank + bonus };
}

/**
 * The combination the hand would reveal: the most points, then the highest total left
 * unplayed; between equal choices the lowest cards. Null when the hand forfeits.
 */
export function bestCombination(
  hand: Card[],
  squares: boolean,
  favourite: Suit | null = null,
): Combination | null {
  const sorted = [...hand].sort((x, y) => {
    const a = parseCard(x);
    const b = parseCard(y);
    return a.rank - b.rank || SUITS.indexOf(a.suit) - SUITS.indexOf(b.suit);
  });
  const total = sorted.reduce((n, c) => n + parseCard(c).rank, 0);
  let best: { points: number; unplayed: number; cards: Card[]; kind: CombinationKind } | null =
    null;
  const consider = (points: number, cards: Card[], kind: CombinationKind) => {
    const unplayed = total - cards.reduce((n, c) => n + parseCard(c).rank, 0);
    if (!best || points > best.points || (points === best.points && unplayed > best.unplayed))
      best = { points, unplayed, cards, kind };
  };
  if (squares) {
    for (let rank = 1; rank <= 10; rank++) {
      const four = sorted.filter((c) => parseCard(c).rank === rank);
      if (four.length === 4) consider(30, four, "harmonious_square");
    }
  }
  for (let i = 0; i < sorted.length; i++)
    for (let j = i + 1; j < sorted.length; j++)
      for (let k = j + 1; k < sorted.length; k++) {
        const cards = [sorted[i], sorted[j], sorted[k]];
        const s = sequence(cards, favourite);
        if (s) consider(s.points, cards, s.kind);
      }
  const found = best as { points: number; cards: Card[]; kind: CombinationKind } | null;
  return found ? { kind: found.kind, cards: found.cards, points: found.points } : null;
}
