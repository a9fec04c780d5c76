/**
 * DēmoS cards as the board draws and says them. The wire names are short strings (`"7S"`,
 * `"10H"`, `"EJ"`… see `games/demos/src/cards.rs`); these turn them into `CardFace`s for the
 * shared Card piece and into words.
 */
import type { Card } from "../../protocol/demos/Card";
import type { Figure } from "../../protocol/demos/Figure";
import type { Suit } from "../../protocol/demos/Suit";
import type { Take } from "../../protocol/demos/Take";
import type { CardFace } from "../../pieces/faces";
import type { CardItem } from "../../pieces/types";

export const SUITS: Suit[] = ["spades", "hearts", "diamonds", "clubs"];

const LETTER: Record<string, Suit> = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

export const SUIT_SYMBOL: Record<Suit, string> = {
  spades: "♠",
  hearts: "♥",
  diamonds: "♦",
  clubs: "♣",
};
export const SUIT_NAME: Record<Suit, string> = {
  spades: "Spades",
  hearts: "Hearts",
  diamonds: "Diamonds",
  clubs: "Clubs",
};

export const POWER_NAME = { E: "Executive", L: "Legislative", J: "Judicial" } as const;
export type Power = keyof typeof POWER_NAME;

export function parseCard(card: Card): { rank: number; suit: Suit } {
  const suit = LETTER[card.slice(-1).toUpperCase()] ?? "spades";
  return { rank: Number(card.slice(0, -1)), suit };
}

export function parseFigure(figure: Figure): { power: Power; suit: Suit } | "media" {
  if (figure.toUpperCase() === "M") return "media";
  return {
    power: figure[0].toUpperCase() as Power,
    suit: LETTER[figure[1].toUpperCase()] ?? "spades",
  };
}

export function cardFace(card: Card): CardFace {
  const { rank, suit } = parseCard(card);
  return { kind: "demos", number: rank, suit };
}

export function figureFace(figure: Figure, media: Suit | null = null): CardFace {
  const parsed = parseFigure(figure);
  if (parsed === "media") return { kind: "demos_media" };
  return { kind: "demos_figure", figure: parsed.power, suit: parsed.suit, media };
}

/** "7♠" */
export function cardShort(card: Card): string {
  const { rank, suit } = parseCard(card);
  return `${rank}${SUIT_SYMBOL[suit]}`;
}

/** "7 of Spades" */
export function cardWords(card: Card): string {
  const { rank, suit } = parseCard(card);
  return `${rank} of ${SUIT_NAME[suit]}`;
}

/** "Executive of Hearts", "Media" */
export function figureWords(figure: Figure): string {
  const parsed = parseFigure(figure);
  if (parsed === "media") return "Media";
  return `${POWER_NAME[parsed.power]} of ${SUIT_NAME[parsed.suit]}`;
}

/** "E♥", "M" */
export function figureShort(figure: Figure): string {
  const parsed = parseFigure(figure);
  if (parsed === "media") return "M";
  return `${parsed.power}${SUIT_SYMBOL[parsed.suit]}`;
}

export function takeWords(take: Take): string {
  return take === "pack" ? "the top card of the People's Pack" : `the ${cardWords(take.discard)}`;
}

export function sameTake(a: Take, b: Take): boolean {
  return a === "pack" ? b === "pack" : b !== "pack" && a.discard === b.discard;
}

/** A card of the People's Pack as a shared `CardItem`; `id` keeps it stable across renders. */
export function cardItem(card: Card, extra: Partial<CardItem> = {}): CardItem {
  return { id: card, face: cardFace(card), code: card, ...extra };
}

/** Sorts a hand by rank, then suit: sequences of any suits read left to right. */
export function sortHand(cards: Card[]): Card[] {
  return [...cards].sort((a, b) => {
    const x = parseCard(a);
    const y = parseCard(b);
    return x.rank - y.rank || SUITS.indexOf(x.suit) - SUITS.indexOf(y.suit);
  });
}
