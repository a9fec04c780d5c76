/**
 * Card faces the shared card component draws: a poker deck (Demon Bound!, Demon), DēmoS's
 * numbers, figures and Media, and Soulitaire's Ritual, Mimic and Demon cards. Boards map their
 * game's view types onto these.
 */
export type PokerSuit = "spades" | "hearts" | "diamonds" | "clubs";
export type PokerRank =
  "A" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "10" | "J" | "Q" | "K";

/**
 * A Soulitaire suit as the game's view names it (its house set; the real names were never
 * published): its name, its glyph and the ink it is printed in.
 */
export interface SoulSuit {
  name: string;
  glyph: string;
  colour: string;
}
export type SoulRank = "A" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "10" | "E" | "S" | "K";
export type SoulSymbol = { suit: SoulSuit } | { rank: SoulRank };

export type CardFace =
  | { kind: "poker"; rank: PokerRank; suit: PokerSuit }
  | { kind: "joker"; label?: string; red?: boolean }
  | { kind: "demos"; number: number; suit: PokerSuit }
  | { kind: "demos_figure"; figure: "E" | "L" | "J"; suit: PokerSuit; media?: PokerSuit | null }
  | { kind: "demos_media" }
  | { kind: "soul"; rank: SoulRank; suit: SoulSuit }
  | { kind: "mimic"; declared?: { rank: SoulRank; suit: SoulSuit | null } | null }
  | { kind: "demon"; name: string; symbols: SoulSymbol[] }
  | { kind: "back"; tone?: "ember" | "violet" | "teal" | "gold" };

export const POKER_SUIT_NAMES: Record<PokerSuit, string> = {
  spades: "Spades",
  hearts: "Hearts",
  diamonds: "Diamonds",
  clubs: "Clubs",
};

export const DEMOS_FIGURES = { E: "Executive", L: "Legislative", J: "Judicial" } as const;

const RANK_WORDS: Record<string, string> = {
  A: "Ace",
  J: "Jack",
  Q: "Queen",
  K: "King",
  E: "E (Realm Warden)",
  S: "S (Realm Warden)",
};

/** The card in words, for screen readers and tooltips. */
export function cardLabel(face: CardFace): string {
  switch (face.kind) {
    case "poker":
      return `${RANK_WORDS[face.rank] ?? face.rank} of ${POKER_SUIT_NAMES[face.suit]}`;
    case "joker":
      return face.label ?? "Joker";
    case "demos":
      return `${face.number} of ${POKER_SUIT_NAMES[face.suit]}`;
    case "demos_figure": {
      const base = `${DEMOS_FIGURES[face.figure]} of ${POKER_SUIT_NAMES[face.suit]}`;
      return face.media ? `${base}, marked by the Media as ${POKER_SUIT_NAMES[face.media]}` : base;
    }
    case "demos_media":
      return "Media";
    case "soul":
      return `${face.rank === "K" ? "Keeper" : (RANK_WORDS[face.rank] ?? face.rank)} of ${face.suit.name}`;
    case "mimic":
      return face.declared
        ? `Mimic, declared ${face.declared.rank}${face.declared.suit ? ` of ${face.declared.suit.name}` : ""}`
        : "Mimic";
    case "demon":
      return `Demon: ${face.name} (${face.symbols.map(symbolLabel).join(", ")})`;
    case "back":
      return "Face-down card";
  }
}

export function symbolLabel(symbol: SoulSymbol): string {
  return "suit" in symbol ? symbol.suit.name : `rank ${symbol.rank}`;
}

export function isRed(suit: PokerSuit): boolean {
  return suit === "hearts" || suit === "diamonds";
}

/** Four-colour deck colours (DēmoS counts suits, so each gets its own colour). */
export const FOUR_COLOUR: Record<PokerSuit, string> = {
  spades: "#1d1a22",
  hearts: "#c0223b",
  diamonds: "#2458a6",
  clubs: "#1f7a4d",
};

export const TWO_COLOUR: Record<PokerSuit, string> = {
  spades: "#1d1a22",
  hearts: "#c0223b",
  diamonds: "#c0223b",
  clubs: "#1d1a22",
};
