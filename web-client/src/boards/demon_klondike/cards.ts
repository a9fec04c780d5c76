/**
 * Demon's cards on the wire are short names, rank then suit letter ("AS", "10H", "QD"); this
 * reads them into the shared card component's poker faces and into words.
 */
import type { CardFace, PokerRank, PokerSuit } from "../../pieces/faces";
import type { DemonCard } from "../../protocol/demon_klondike/DemonCard";
import type { DemonSuit } from "../../protocol/demon_klondike/DemonSuit";

const SUITS: Record<string, PokerSuit> = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANKS: PokerRank[] = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const RANK_WORDS: Record<string, string> = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };
export const SUIT_GLYPHS: Record<DemonSuit, string> = {
  spades: "♠",
  hearts: "♥",
  diamonds: "♦",
  clubs: "♣",
};

export interface ParsedCard {
  rank: PokerRank;
  /** 1 (Ace) to 13 (King). */
  value: number;
  suit: PokerSuit;
}

export function parseCard(card: DemonCard): ParsedCard {
  const rank = card.slice(0, -1) as PokerRank;
  const suit = SUITS[card.slice(-1)];
  if (!suit || !RANKS.includes(rank)) throw new Error(`not a card: ${card}`);
  return { rank, value: RANKS.indexOf(rank) + 1, suit };
}

export function cardFace(card: DemonCard): CardFace {
  const { rank, suit } = parseCard(card);
  return { kind: "poker", rank, suit };
}

/** "Queen of Hearts". */
export function cardWords(card: DemonCard): string {
  const { rank, suit } = parseCard(card);
  return `${RANK_WORDS[rank] ?? rank} of ${suit[0].toUpperCase()}${suit.slice(1)}`;
}

/** "Q♥". */
export function cardShort(card: DemonCard): string {
  const { rank, suit } = parseCard(card);
  return `${rank}${SUIT_GLYPHS[suit]}`;
}

/** The card a foundation shows: its suit at the rank of its length. */
export function foundationTop(suit: DemonSuit, height: number): DemonCard {
  const letter = { spades: "S", hearts: "H", diamonds: "D", clubs: "C" }[suit];
  return `${RANKS[height - 1]}${letter}` as DemonCard;
}
