/**
 * Soulitaire in words: cards, symbols, actions (for the replay timeline and the action log),
 * the decision a sacrifice under way waits on, and why a move is refused. Suit names and glyphs
 * come from the engine's view (its house set); the board hands them over with `useSuits`, and
 * until a view has been seen the house defaults below stand in.
 */
import type { SeatLabel } from "../contract";
import { seatName } from "../describe";
import type { SoulitaireAction } from "../../protocol/soulitaire/SoulitaireAction";
import type { SoulitaireCard } from "../../protocol/soulitaire/SoulitaireCard";
import type { SoulitaireDemon } from "../../protocol/soulitaire/SoulitaireDemon";
import type { SoulitaireFace } from "../../protocol/soulitaire/SoulitaireFace";
import type { SoulitaireRank } from "../../protocol/soulitaire/SoulitaireRank";
import type { SoulitaireSuit } from "../../protocol/soulitaire/SoulitaireSuit";
import type { SoulitaireSuitView } from "../../protocol/soulitaire/SoulitaireSuitView";
import type { SoulitaireSymbol } from "../../protocol/soulitaire/SoulitaireSymbol";
import type { SoulitaireTitle } from "../../protocol/soulitaire/SoulitaireTitle";
import type { SoulitaireTop } from "../../protocol/soulitaire/SoulitaireTop";
import type { SoulitaireView } from "../../protocol/soulitaire/SoulitaireView";

export const SUIT_IDS: SoulitaireSuit[] = ["s1", "s2", "s3", "s4"];
export const RANKS: SoulitaireRank[] = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "E", "S", "K"];

/** The house set as the engine ships it (`games/soulitaire/src/data.rs`), until a view says. */
const HOUSE_SUITS: SoulitaireSuitView[] = [
  { suit: "s1", name: "Skulls", glyph: "☠" },
  { suit: "s2", name: "Moons", glyph: "☾" },
  { suit: "s3", name: "Tridents", glyph: "♆" },
  { suit: "s4", name: "Pentacles", glyph: "⛤" },
];

let suits: Record<SoulitaireSuit, SoulitaireSuitView> = byId(HOUSE_SUITS);

function byId(list: SoulitaireSuitView[]): Record<SoulitaireSuit, SoulitaireSuitView> {
  const map = Object.fromEntries(HOUSE_SUITS.map((s) => [s.suit, s])) as Record<SoulitaireSuit, SoulitaireSuitView>;
  for (const s of list) map[s.suit] = s;
  return map;
}

/** Takes the suit names and glyphs of the view being shown. */
export function useSuits(list: SoulitaireSuitView[]): void {
  if (list.length) suits = byId(list);
}

export function suitName(suit: SoulitaireSuit): string {
  return suits[suit].name;
}

export function suitGlyph(suit: SoulitaireSuit): string {
  return suits[suit].glyph;
}

/** Inks that read on the cream card face; the suits' names and glyphs are the engine's. */
export const SUIT_COLOUR: Record<SoulitaireSuit, string> = {
  s1: "#2b2330",
  s2: "#2458a6",
  s3: "#1f7a4d",
  s4: "#c0223b",
};

const RANK_WORDS: Partial<Record<SoulitaireRank, string>> = { A: "Ace", K: "Keeper" };

export function rankName(rank: SoulitaireRank): string {
  return RANK_WORDS[rank] ?? rank;
}

export function faceName(face: SoulitaireFace): string {
  return `${rankName(face.rank)} of ${suitName(face.suit)}`;
}

/** Short form for tight places: "7☠". */
export function faceShort(face: SoulitaireFace): string {
  return `${face.rank}${suitGlyph(face.suit)}`;
}

export function cardName(card: SoulitaireCard): string {
  return card.kind === "mimic" ? "Mimic" : faceName(card);
}

export function symbolName(symbol: SoulitaireSymbol): string {
  return "suit" in symbol ? suitName(symbol.suit) : rankName(symbol.rank);
}

export function symbolKey(symbol: SoulitaireSymbol): string {
  return "suit" in symbol ? `suit:${symbol.suit}` : `rank:${symbol.rank}`;
}

export function sameSymbol(a: SoulitaireSymbol, b: SoulitaireSymbol): boolean {
  return symbolKey(a) === symbolKey(b);
}

export function demonName(demon: SoulitaireDemon): string {
  return `${demon.name} (${demon.symbols.map(symbolName).join(", ")})`;
}

export function listWords(items: string[], last = "and"): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${last} ${items[items.length - 1]}`;
}

export const foundationName = (f: number) => `Foundation ${f + 1}`;
export const columnName = (c: number) => `column ${c + 1}`;

export const TITLE_NAME: Record<SoulitaireTitle, string> = {
  wanderer_of_the_realms: "Wanderer of the Realms",
  adept_ritualist: "Adept Ritualist",
  dark_savant: "Dark Savant",
  greater_demon: "Greater Demon",
  master_of_the_realm: "Master of the Realm",
};

/** What a foundation's top accepts, in words. */
export function topName(top: SoulitaireTop): string {
  switch (top.kind) {
    case "face":
      return faceName(top);
    case "wild":
      return "a starting Mimic (any rank, no suit)";
    case "dead":
      return "a bare demon (dead)";
  }
}

/**
 * An action in words. Actions name columns and foundations only, so without the position the
 * card itself is not known; a Mimic's declaration is.
 */
export function describeAction(action: SoulitaireAction, seat: number, seats: SeatLabel[]): string {
  const who = seatName(seat, seats);
  switch (action.kind) {
    case "move":
      return action.declare
        ? `${who} moves the Mimic from ${columnName(action.column)} onto ${foundationName(action.foundation)}, declared the ${faceName(action.declare)}`
        : `${who} moves the card of ${columnName(action.column)} onto ${foundationName(action.foundation)}`;
    case "sacrifice":
      return `${who} sacrifices the top demon onto ${foundationName(action.foundation)}`;
    case "offer":
      return action.declare
        ? `${who} offers the Mimic from ${columnName(action.column)} for ${symbolName(action.symbol)}, declared the ${faceName(action.declare)}`
        : `${who} offers the card of ${columnName(action.column)} for ${symbolName(action.symbol)}`;
    case "end_sacrifice":
      return `${who} ends the sacrifice`;
    case "discard":
      return `${who} discards the top demon`;
    case "concede":
      return `${who} concedes`;
  }
}

/** The decision a sacrifice under way waits on, for the turn prompt. */
export function pendingDecision(view: SoulitaireView, _seats: SeatLabel[]): string | null {
  const s = view.sacrifice;
  if (!s || view.status.kind !== "playing") return null;
  const wanted = listWords(s.remaining.map(symbolName), "or");
  return `Sacrificing ${s.demon.name} on ${foundationName(s.foundation)}: offer a card for ${wanted}, or end the sacrifice.`;
}

const NEXT_TITLE = ["an Adept Ritualist", "a Dark Savant", "a Greater Demon", "a Master of the Realm"];

/**
 * What one more demon kept would have earned, worded for the viewer: "you" for the player,
 * the player's name for a spectator or someone watching a replay.
 */
export function nextTitleWords(demonsLeft: number, player: string | null): string {
  if (demonsLeft >= NEXT_TITLE.length) return "The highest title there is.";
  return `One more demon kept would have made ${player ?? "you"} ${NEXT_TITLE[demonsLeft]}.`;
}
