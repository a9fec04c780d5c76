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
import type { SoulitaireDemonOnTop } from "../../protocol/soulitaire/SoulitaireDemonOnTop";
import type { SoulitaireFace } from "../../protocol/soulitaire/SoulitaireFace";
import type { SoulitaireFoundationView } from "../../protocol/soulitaire/SoulitaireFoundationView";
import type { SoulitaireRank } from "../../protocol/soulitaire/SoulitaireRank";
import type { SoulitaireSuit } from "../../protocol/soulitaire/SoulitaireSuit";
import type { SoulitaireSuitView } from "../../protocol/soulitaire/SoulitaireSuitView";
import type { SoulitaireSymbol } from "../../protocol/soulitaire/SoulitaireSymbol";
import type { SoulitaireTitle } from "../../protocol/soulitaire/SoulitaireTitle";
import type { SoulitaireTop } from "../../protocol/soulitaire/SoulitaireTop";
import type { SoulitaireView } from "../../protocol/soulitaire/SoulitaireView";

export const SUIT_IDS: SoulitaireSuit[] = ["s1", "s2", "s3", "s4"];
export const RANKS: SoulitaireRank[] = [
  "A",
  "2",
  "3",
  "4",
  "5",
  "6",
  "7",
  "8",
  "9",
  "10",
  "E",
  "S",
  "K",
];

/** The house set as the engine ships it (`games/soulitaire/src/data.rs`), until a view says. */
const HOUSE_SUITS: SoulitaireSuitView[] = [
  { suit: "s1", name: "Skulls", glyph: "☠" },
  { suit: "s2", name: "Moons", glyph: "☾" },
  { suit: "s3", name: "Tridents", glyph: "♆" },
  { suit: "s4", name: "Pentacles", glyph: "⛤" },
];

let suits: Record<SoulitaireSuit, SoulitaireSuitView> = byId(HOUSE_SUITS);

function byId(list: SoulitaireSuitView[]): Record<SoulitaireSuit, SoulitaireSuitView> {
  const map = Object.fromEntries(HOUSE_SUITS.map((s) => [s.suit, s])) as Record<
    SoulitaireSuit,
    SoulitaireSuitView
  >;
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

const NEXT_TITLE = [
  "an Adept Ritualist",
  "a Dark Savant",
  "a Greater Demon",
  "a Master of the Realm",
];

/**
 * What one more demon kept would have earned, worded for the viewer: "you" for the player,
 * the player's name for a spectator or someone watching a replay.
 */
export function nextTitleWords(demonsLeft: number, player: string | null): string {
  if (demonsLeft >= NEXT_TITLE.length) return "The highest title there is.";
  return `One more demon kept would have made ${player ?? "you"} ${NEXT_TITLE[demonsLeft]}.`;
}

// --- the board's own sentences ----------------------------------------------------------
// Prompts, refusals, labels and confirmations the board shows while a match is played. They
// take what the board already knows (a card's words, a demon's name) so they stay pure.

/** The noun for a count: "card" for one, "cards" otherwise. */
export function noun(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}

/** "1 card", "3 cards": a count with its noun. */
export function counted(n: number, word: string): string {
  return `${n} ${noun(n, word)}`;
}

/** How a card is spoken of in prompts: "the 7 of Skulls", or its column when it is hidden. */
export function cardWords(card: SoulitaireCard | null, column: number): string {
  return card ? `the ${cardName(card)}` : columnName(column);
}

export const noFoundationTakes = (card: string) =>
  `No foundation takes ${card} now: its top must be one rank higher or lower.`;

export const chooseFoundationFor = (card: string) =>
  `Choose a foundation for ${card}; the highlighted stacks take it. Escape cancels.`;

export const demonMatchesNothing = (demon: string) =>
  `${demon} shares no suit or rank with any foundation top: it cannot be sacrificed now.`;

export const chooseFoundationForDemon = (demon: string) =>
  `Choose the foundation to sacrifice ${demon} on; the highlighted stacks share one of its symbols. Escape cancels.`;

/** A foundation clicked with nothing chosen: what to choose first. */
export function chooseFirst(sacrificing: boolean): string {
  return sacrificing
    ? "Pick the cards to offer in the Spellboard."
    : "Pick a visible card (or the top demon) first, then the foundation.";
}

/** The Mimic picker's heading for a move onto foundation `f`. */
export function moveDeclarationHeading(f: number, top: SoulitaireTop): string {
  const rank = top.kind === "wild" ? "of your choice" : "one higher or lower";
  return `Onto ${foundationName(f)}, whose top is ${topName(top)}: a rank ${rank}.`;
}

/** The Mimic picker's heading for a Mimic offered to `demon` for `symbol`. */
export function offerDeclarationHeading(demon: string, symbol: SoulitaireSymbol): string {
  const what = "suit" in symbol ? "suit" : "rank";
  return `Offered to ${demon} for ${symbolName(symbol)}: declare it as a card with that ${what}. If it is placed last, it is the new top.`;
}

export const notVisibleAtSacrifice = (card: SoulitaireCard, demon: string) =>
  `The ${cardName(card)} was not visible when ${demon} was placed, so it cannot be offered.`;

/** Why a card cannot be picked for the sacrifice: no free symbol fits it, or none is free. */
export function noSymbolFor(card: SoulitaireCard, free: SoulitaireSymbol[], demon: string): string {
  return free.length
    ? `The ${cardName(card)} matches none of the symbols still free (${listWords(free.map(symbolName), "or")}).`
    : `Every symbol of ${demon} already has a card.`;
}

/** What the board knows when it words a hint. */
export interface HintContext {
  /** The card of a column in prompt words ("the 7 of Skulls"). */
  card: (column: number) => string;
  /** The top demon's name, if one is face up. */
  demon: string | null;
  /** Whether cards are already picked for the sacrifice under way. */
  picked: boolean;
}

/** A suggested action as the hint line says it (after "Hint: "). */
export function hintWords(a: SoulitaireAction, at: HintContext): string {
  const demon = at.demon ?? "the top demon";
  switch (a.kind) {
    case "move":
      return a.declare
        ? `move the Mimic of ${columnName(a.column)} onto ${foundationName(a.foundation)}, declared the ${faceName(a.declare)}.`
        : `move ${at.card(a.column)} onto ${foundationName(a.foundation)}.`;
    case "sacrifice":
      return `sacrifice ${demon} on ${foundationName(a.foundation)}.`;
    case "offer":
      return `offer ${a.declare ? `the Mimic as the ${faceName(a.declare)}` : at.card(a.column)} for ${symbolName(a.symbol)}.`;
    case "end_sacrifice":
      return at.picked
        ? "place the cards you have chosen; no other card can join them."
        : "offer no more cards.";
    case "discard":
      return `no card can move and ${demon} takes none: discard it.`;
    case "concede":
      return "concede.";
  }
}

/** The hint line: the suggestion, or that there is none. */
export function hintLine(a: SoulitaireAction | null, at: HintContext): string {
  return a ? `Hint: ${hintWords(a, at)}` : "No move to suggest.";
}

export const THINKING = "Thinking…";

/** A Foundation Stack for screen readers: its top, its size, its demons, whether it can take
 * the card or demon chosen. */
export function foundationLabel(
  f: number,
  stack: SoulitaireFoundationView,
  canTake: boolean,
): string {
  const demons = stack.layers.filter((l) => l.kind === "demon").length;
  const parts = [
    `${foundationName(f)}: top ${topName(stack.top)}`,
    counted(stack.layers.length, "card"),
  ];
  if (demons) parts.push(`${counted(demons, "demon")} in it`);
  if (canTake) parts.push("can take it");
  return parts.join(", ");
}

/** A Spellboard column for screen readers: how many cards lie face down, which one shows. */
export function columnLabel(
  c: number,
  size: number,
  down: number,
  showing: SoulitaireCard | null,
): string {
  if (!size) return `Column ${c + 1}: empty`;
  return `Column ${c + 1}: ${down} face down${showing ? `, the ${cardName(showing)} showing` : ""}`;
}

/** Where the card of a column stands in the play, for its button's label. */
export type CardState =
  | { kind: "idle" }
  | { kind: "selected" }
  | { kind: "picked"; symbol: SoulitaireSymbol }
  | { kind: "offerable"; symbols: SoulitaireSymbol[] };

export function cardButtonLabel(c: number, card: SoulitaireCard | null, state: CardState): string {
  if (!card) return columnName(c);
  const words = `${cardName(card)}, ${columnName(c)}`;
  switch (state.kind) {
    case "idle":
      return words;
    case "selected":
      return `${words}, selected`;
    case "picked":
      return `${words}, chosen for ${symbolName(state.symbol)} (take back)`;
    case "offerable":
      return state.symbols.length
        ? `${words}, can be offered for ${listWords(state.symbols.map(symbolName), "or")}`
        : words;
  }
}

/** The face-up top demon's label: what it is, and whether it can be sacrificed now. */
export function demonTopLabel(drawn: string, canSacrifice: boolean): string {
  const what = canSacrifice
    ? "Sacrifice it: choose it, then a foundation."
    : "It matches no foundation top now.";
  return `Top of the Demon Pile: ${drawn}. ${what}`;
}

export const discardQuestion = (demon: string) =>
  `Discard ${demon}? It is lost for the rest of the match, and every demon left counts toward your title.`;

export const CONCEDE_QUESTION = "Concede the match? There is no undo.";

export const bareSacrificeQuestion = (demon: string, f: number) =>
  `No visible card matches ${demon}: it will lie bare on ${foundationName(f)}, and nothing more can go on that stack. Sacrifice it anyway?`;

export const nextInPile = (names: string[]) => `Next in the pile: ${names.join(", ")}.`;
export const discardedWords = (names: string[]) => `Discarded: ${names.join(", ")}.`;

/** The rules reminder under the board; the second sentence follows the table's option. */
export function rulesNote(demonOnTop: SoulitaireDemonOnTop): string {
  const bare =
    demonOnTop === "dead_stack"
      ? "A sacrificed demon left with no card on it kills its stack."
      : "A bare demon lets the card beneath it count.";
  return `Cards go onto a top one rank higher or lower (A 2 … 10 E S K A, suits ignored). There is no undo: cards never leave a foundation. ${bare}`;
}

// --- the guided sacrifice's sentences -----------------------------------------------------

/** A card picked for the sacrifice: a Mimic by its declaration, else the card of its column. */
export function pickName(
  declare: SoulitaireFace | null,
  card: SoulitaireCard | null,
  column: number,
): string {
  if (declare) return `Mimic as the ${faceName(declare)}`;
  return card ? cardName(card) : columnName(column);
}

export const sacrificeHeading = (demon: string, f: number) =>
  `Sacrificing ${demon} on ${foundationName(f)}`;

/** What to do first in a sacrifice: pick cards; how many were offered already, if any. */
export function pickCardsPrompt(offered: number): string {
  const already = offered ? ` (${offered} already offered)` : "";
  return `Pick cards in the Spellboard, one per symbol, among those visible when the demon was placed${already}.`;
}

/** A symbol still wanted and the card chosen for it, if any. */
export const slotWords = (symbol: SoulitaireSymbol, pick: string | null) =>
  `${symbolName(symbol)}: ${pick ?? "no card yet"}`;

/** The question when a card fits several free symbols. */
export const whichSymbol = (card: SoulitaireCard | null) =>
  `Which symbol does the ${card ? cardName(card) : "card"} take?`;
export const offeredFor = (card: SoulitaireCard | null) =>
  `The ${card ? cardName(card) : "card"} is offered for`;

/** Ending with no card picked: "no more" once some were offered. */
export const endSacrificeLabel = (offered: number) =>
  offered ? "Offer no more cards" : "End without offering cards";

export const bareWarning = (demon: string, f: number) =>
  `Ending now leaves ${demon} bare: nothing more can go on ${foundationName(f)}.`;

export const orderExplained = (demon: string, f: number) =>
  `They go onto ${demon} from first to last; the last one becomes the top of ${foundationName(f)}.`;

/** The place button: one card by name, several by number. */
export function placeLabel(picks: string[]): string {
  return picks.length === 1 ? `Place the ${picks[0]}` : `Place the ${picks.length} cards`;
}

export const takeBackLabel = (pick: string) => `Take back the ${pick}`;

/** The order buttons' labels: a card placed one step earlier (`by` < 0) or later. */
export const reorderLabel = (pick: string, by: number) =>
  `Place the ${pick} ${by < 0 ? "earlier" : "later"}`;

export const symbolsWanted = (remaining: SoulitaireSymbol[]) =>
  `Symbols still wanted: ${listWords(remaining.map(symbolName))}.`;

// --- the ending's sentences ---------------------------------------------------------------

export const demonsLeftWords = (n: number) => `${counted(n, "demon")} left in the pile.`;

export const lostWords = (cardsLeft: number) =>
  `No card and no demon can reach a Foundation Stack; ${counted(cardsLeft, "card")} remain on the Spellboard.`;

export const concededWords = (cardsLeft: number) =>
  `${counted(cardsLeft, "card")} remained on the Spellboard.`;

export const setAsideSummary = (n: number) => `The ${n} cards set aside`;
