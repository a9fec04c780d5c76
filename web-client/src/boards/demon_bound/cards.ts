/**
 * Demon Bound! cards as the board draws and says them. Wire names are short strings (`"AS"`,
 * `"10H"`, `"QD"`, `"Joker"`, `"MK"`; see `games/demon_bound/src/cards.rs`).
 */
import type { Card } from "../../protocol/demon_bound/Card";
import type { CardFace, PokerRank, PokerSuit } from "../../pieces/faces";
import type { CardItem } from "../../pieces/types";

const LETTER: Record<string, PokerSuit> = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
export const SUIT_SYMBOL: Record<PokerSuit, string> = {
  spades: "♠",
  hearts: "♥",
  diamonds: "♦",
  clubs: "♣",
};
const SUIT_WORD: Record<PokerSuit, string> = {
  spades: "Spades",
  hearts: "Hearts",
  diamonds: "Diamonds",
  clubs: "Clubs",
};
const RANK_WORD: Record<string, string> = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };
/** The face-card spells, by suit. */
export const SPELL_NAME: Record<PokerSuit, string> = {
  spades: "Demonic Visage",
  hearts: "Royal Sacrifice",
  clubs: "The Master's Voice",
  diamonds: "Treasure Scrying",
};

export interface Parsed {
  rank: PokerRank;
  suit: PokerSuit;
}

/** Rank and suit, or null for a Joker or the Marcus King. */
export function parseCard(card: Card): Parsed | null {
  if (card === "Joker" || card === "MK") return null;
  return { rank: card.slice(0, -1) as PokerRank, suit: LETTER[card.slice(-1)] ?? "spades" };
}

/** Ace 1 … 10; 0 for face cards and Jokers. */
export function cardValue(card: Card): number {
  const p = parseCard(card);
  if (!p) return 0;
  if (p.rank === "A") return 1;
  const n = Number(p.rank);
  return Number.isNaN(n) ? 0 : n;
}

export function isFace(card: Card): boolean {
  const p = parseCard(card);
  return !!p && ["J", "Q", "K"].includes(p.rank);
}

export function cardFace(card: Card): CardFace {
  if (card === "Joker") return { kind: "joker" };
  if (card === "MK") return { kind: "joker", label: "Marcus King", red: true };
  const p = parseCard(card)!;
  return { kind: "poker", rank: p.rank, suit: p.suit };
}

/** "9♠", "Joker", "Marcus King" */
export function cardShort(card: Card): string {
  if (card === "Joker") return "Joker";
  if (card === "MK") return "Marcus King";
  const p = parseCard(card)!;
  return `${p.rank}${SUIT_SYMBOL[p.suit]}`;
}

/** "Nine of Spades" style words for screen readers. */
export function cardWords(card: Card): string {
  const p = parseCard(card);
  if (!p) return cardShort(card);
  return `${RANK_WORD[p.rank] ?? p.rank} of ${SUIT_WORD[p.suit]}`;
}

/** Deck order, as the engine sorts card sets: spades, hearts, diamonds, clubs; Ace to King. */
export function deckIndex(card: Card): number {
  if (card === "Joker") return 52;
  if (card === "MK") return 53;
  const p = parseCard(card)!;
  const ranks: PokerRank[] = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  return ["spades", "hearts", "diamonds", "clubs"].indexOf(p.suit) * 13 + ranks.indexOf(p.rank);
}

export function sortCards(cards: Card[]): Card[] {
  return [...cards].sort((a, b) => deckIndex(a) - deckIndex(b));
}

/** Hand items with a stable id per card (two Jokers get two ids). */
export function cardItems(
  cards: Card[],
  disabled: (card: Card) => boolean = () => false,
): CardItem[] {
  const seen = new Map<string, number>();
  return cards.map((card) => {
    const n = seen.get(card) ?? 0;
    seen.set(card, n + 1);
    return {
      id: `${card}#${n}`,
      face: cardFace(card),
      code: card,
      label: cardWords(card),
      disabled: disabled(card),
    };
  });
}
