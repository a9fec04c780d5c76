/**
 * What the board needs to know about the rules, read from the view and the legal list only:
 * which moves a card or a foundation takes part in, why a move is refused (the engine's
 * sentences, so an illegal drop can say why before anything is sent), and a hint.
 *
 * The hint here is a small heuristic of the client's own, for when the server's solver (asked
 * with the protocol's `hint` message) cannot answer.
 */
import type { SoulitaireAction } from "../../protocol/soulitaire/SoulitaireAction";
import type { SoulitaireCard } from "../../protocol/soulitaire/SoulitaireCard";
import type { SoulitaireFace } from "../../protocol/soulitaire/SoulitaireFace";
import type { SoulitaireRank } from "../../protocol/soulitaire/SoulitaireRank";
import type { SoulitaireSymbol } from "../../protocol/soulitaire/SoulitaireSymbol";
import type { SoulitaireTop } from "../../protocol/soulitaire/SoulitaireTop";
import type { SoulitaireView } from "../../protocol/soulitaire/SoulitaireView";
import { foundationName, RANKS, sameSymbol, symbolKey } from "./words";

export type Move = Extract<SoulitaireAction, { kind: "move" }>;
export type Offer = Extract<SoulitaireAction, { kind: "offer" }>;
export type SacrificeAction = Extract<SoulitaireAction, { kind: "sacrifice" }>;

export function sameFace(a: SoulitaireFace | null, b: SoulitaireFace | null): boolean {
  return a === b || (!!a && !!b && a.suit === b.suit && a.rank === b.rank);
}

/** Structural equality of two actions (key order does not matter). */
export function sameAction(a: SoulitaireAction, b: SoulitaireAction): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case "move": {
      const m = b as Move;
      return (
        a.column === m.column && a.foundation === m.foundation && sameFace(a.declare, m.declare)
      );
    }
    case "sacrifice":
      return a.foundation === (b as SacrificeAction).foundation;
    case "offer": {
      const o = b as Offer;
      return (
        a.column === o.column && sameSymbol(a.symbol, o.symbol) && sameFace(a.declare, o.declare)
      );
    }
    default:
      return true;
  }
}

export function isLegal(legal: SoulitaireAction[], action: SoulitaireAction): boolean {
  return legal.some((l) => sameAction(l, action));
}

/** The visible card of a column (face up: not uncovered during a sacrifice under way). */
export function exposedCard(view: SoulitaireView, column: number): SoulitaireCard | null {
  const col = view.spellboard[column] ?? [];
  const last = col[col.length - 1];
  return last && last.face_up && last.card ? last.card : null;
}

export function faceDownCount(view: SoulitaireView, column: number): number {
  return (view.spellboard[column] ?? []).filter((c) => !c.face_up).length;
}

export const moves = (legal: SoulitaireAction[]) =>
  legal.filter((a): a is Move => a.kind === "move");
export const offers = (legal: SoulitaireAction[]) =>
  legal.filter((a): a is Offer => a.kind === "offer");

export function movesFrom(legal: SoulitaireAction[], column: number): Move[] {
  return moves(legal).filter((m) => m.column === column);
}

export function movesBetween(
  legal: SoulitaireAction[],
  column: number,
  foundation: number,
): Move[] {
  return moves(legal).filter((m) => m.column === column && m.foundation === foundation);
}

export function sacrificeFoundations(legal: SoulitaireAction[]): number[] {
  return legal.filter((a): a is SacrificeAction => a.kind === "sacrifice").map((a) => a.foundation);
}

export function offersFrom(legal: SoulitaireAction[], column: number): Offer[] {
  return offers(legal).filter((o) => o.column === column);
}

/** The distinct symbols a column's card may be offered for now. */
export function offerSymbols(legal: SoulitaireAction[], column: number): SoulitaireSymbol[] {
  const seen = new Map<string, SoulitaireSymbol>();
  for (const o of offersFrom(legal, column)) seen.set(symbolKey(o.symbol), o.symbol);
  return [...seen.values()];
}

export function rankIndex(rank: SoulitaireRank): number {
  return RANKS.indexOf(rank);
}

export function adjacent(a: SoulitaireRank, b: SoulitaireRank): boolean {
  const d = (rankIndex(a) - rankIndex(b) + 13) % 13;
  return d === 1 || d === 12;
}

function accepts(top: SoulitaireTop, rank: SoulitaireRank): boolean {
  return top.kind === "wild" || (top.kind === "face" && adjacent(top.rank, rank));
}

/** What is being dropped on a foundation: the visible card of a column, or the top demon. */
export type Dragged = { kind: "card"; column: number } | { kind: "demon" };

/**
 * Why `dragged` cannot go onto `foundation` now, in the engine's words; null when it can.
 * Only the legal list decides what is allowed; this only explains a refusal.
 */
export function refusal(
  view: SoulitaireView,
  legal: SoulitaireAction[],
  dragged: Dragged,
  foundation: number,
): string | null {
  if (
    dragged.kind === "card"
      ? movesBetween(legal, dragged.column, foundation).length
      : sacrificeFoundations(legal).includes(foundation)
  )
    return null;
  if (view.status.kind !== "playing") return "The match is over.";
  if (!legal.length) return "It is not your move.";
  if (view.sacrifice)
    return "A sacrifice is under way: offer a card to the demon or end the sacrifice first.";
  const top = view.foundations[foundation]?.top;
  if (!top) return "There is no such Foundation Stack.";
  if (top.kind === "dead")
    return `${foundationName(foundation)} is dead: a demon lies on top of it with no Ritual cards.`;
  if (dragged.kind === "demon") {
    const demon = view.demon_pile[0];
    if (!demon) return "The Demon Pile is empty.";
    if (top.kind === "wild")
      return `${demon.name} has no rank symbol, and a starting Mimic has no suit to match.`;
    return `${demon.name} shares no suit or rank with the top of ${foundationName(foundation)}.`;
  }
  const card = exposedCard(view, dragged.column);
  if (!card) return "That column has no visible card.";
  if (card.kind === "ritual" && top.kind === "face") {
    return `A card of rank ${card.rank} cannot go onto a ${top.rank}: the ranks must be one apart (A 2 … 10 E S K A).`;
  }
  return "That move is not allowed now.";
}

// --- the hint ----------------------------------------------------------------------------

interface Visible {
  column: number;
  card: SoulitaireCard;
}

function visibleCards(view: SoulitaireView): Visible[] {
  const out: Visible[] = [];
  view.spellboard.forEach((_, column) => {
    const card = exposedCard(view, column);
    if (card) out.push({ column, card });
  });
  return out;
}

/** How many of `others` could follow onto the tops once `rank` is on `foundation`. */
function followUps(
  view: SoulitaireView,
  others: Visible[],
  foundation: number,
  rank: SoulitaireRank,
): number {
  const tops = view.foundations.map((f, i): SoulitaireTop =>
    i === foundation ? { kind: "face", suit: "s1", rank } : f.top,
  );
  return others.filter((v) =>
    v.card.kind === "mimic"
      ? tops.some((t) => t.kind !== "dead")
      : tops.some((t) => accepts(t, (v.card as { rank: SoulitaireRank }).rank)),
  ).length;
}

/** The suit a Mimic is best declared in: one the visible demons can use. */
function favouriteSuit(view: SoulitaireView): SoulitaireFace["suit"] | null {
  for (const demon of view.demon_pile) {
    for (const s of demon?.symbols ?? []) if ("suit" in s) return s.suit;
  }
  return null;
}

function bestMove(view: SoulitaireView, candidates: Move[]): Move | null {
  const visible = visibleCards(view);
  const suit = favouriteSuit(view);
  let best: Move | null = null;
  let bestScore = -Infinity;
  for (const m of candidates) {
    const card = exposedCard(view, m.column);
    if (!card) continue;
    const rank = m.declare ? m.declare.rank : (card as { rank: SoulitaireRank }).rank;
    const others = visible.filter((v) => v.column !== m.column);
    // Dig deep columns first; keep Mimics for when nothing else moves; favour moves that
    // leave something to play next; a Mimic takes a suit the demons can use.
    let score =
      faceDownCount(view, m.column) * 10 + followUps(view, others, m.foundation, rank) * 4;
    if (card.kind === "mimic") score -= 30;
    if (m.declare && suit && m.declare.suit === suit) score += 1;
    if (score > bestScore) {
      best = m;
      bestScore = score;
    }
  }
  return best;
}

interface Pick {
  column: number;
  card: SoulitaireCard;
  symbol: SoulitaireSymbol;
}

/** A largest matching of cards to symbols (one card per symbol), Ritual cards before Mimics. */
export function matchCards(
  cards: { column: number; card: SoulitaireCard; symbols: SoulitaireSymbol[] }[],
  symbols: SoulitaireSymbol[],
): Pick[] {
  const order = [...cards].sort(
    (a, b) =>
      Number(a.card.kind === "mimic") - Number(b.card.kind === "mimic") ||
      a.symbols.length - b.symbols.length,
  );
  let best: Pick[] = [];
  const taken = symbols.map(() => false);
  const go = (i: number, picked: Pick[]) => {
    if (picked.length > best.length) best = [...picked];
    if (i === order.length || best.length === symbols.length) return;
    const c = order[i];
    for (let s = 0; s < symbols.length; s++) {
      if (taken[s] || !c.symbols.some((x) => sameSymbol(x, symbols[s]))) continue;
      taken[s] = true;
      picked.push({ column: c.column, card: c.card, symbol: symbols[s] });
      go(i + 1, picked);
      picked.pop();
      taken[s] = false;
    }
    go(i + 1, picked);
  };
  go(0, []);
  return best;
}

function symbolsOfCard(card: SoulitaireCard, symbols: SoulitaireSymbol[]): SoulitaireSymbol[] {
  if (card.kind === "mimic") return symbols;
  return symbols.filter((s) => ("suit" in s ? s.suit === card.suit : s.rank === card.rank));
}

/**
 * The offers of the sacrifice under way the hint suggests, in placing order: as many cards as
 * can each take a symbol, the one leaving the most to play next placed last (the new top).
 */
export function planOffers(view: SoulitaireView, legal: SoulitaireAction[]): Offer[] {
  const s = view.sacrifice;
  if (!s) return [];
  const cards = s.eligible
    .map((column) => ({ column, card: exposedCard(view, column) }))
    .filter((c): c is Visible => !!c.card)
    .map((c) => ({ ...c, symbols: offerSymbols(legal, c.column) }))
    .filter((c) => c.symbols.length);
  const picks = matchCards(cards, s.remaining);
  if (!picks.length) return [];
  const visible = visibleCards(view);
  const rest = visible.filter((v) => !picks.some((p) => p.column === v.column));
  let last = 0;
  let lastOffer: Offer | null = null;
  let bestFollow = -1;
  picks.forEach((p, i) => {
    const options = offersFrom(legal, p.column).filter((o) => sameSymbol(o.symbol, p.symbol));
    for (const o of options) {
      const rank = o.declare ? o.declare.rank : (p.card as { rank: SoulitaireRank }).rank;
      const f = followUps(view, rest, s.foundation, rank);
      if (f > bestFollow) {
        bestFollow = f;
        last = i;
        lastOffer = o;
      }
    }
  });
  const ordered: Offer[] = [];
  picks.forEach((p, i) => {
    if (i === last) return;
    const o = offersFrom(legal, p.column).find((x) => sameSymbol(x.symbol, p.symbol));
    if (o) ordered.push(o);
  });
  if (lastOffer) ordered.push(lastOffer);
  return ordered;
}

/**
 * The board's hint: a Ritual move if there is one (deep columns first, Mimics last), else
 * the sacrifice that takes the most cards, else discarding the top demon; during a sacrifice,
 * the next card to offer or ending it. Null when there is nothing to suggest.
 */
export function hint(view: SoulitaireView, legal: SoulitaireAction[]): SoulitaireAction | null {
  if (!legal.length || view.status.kind !== "playing") return null;
  if (view.sacrifice) {
    const plan = planOffers(view, legal);
    return plan[0] ?? legal.find((a) => a.kind === "end_sacrifice") ?? null;
  }
  const move = bestMove(view, moves(legal));
  if (move) return move;
  const demon = view.demon_pile[0];
  let best: SacrificeAction | null = null;
  let bestCount = 0;
  if (demon) {
    const cards = visibleCards(view).map((v) => ({
      ...v,
      symbols: symbolsOfCard(v.card, demon.symbols),
    }));
    const count = matchCards(cards, demon.symbols).length;
    for (const f of sacrificeFoundations(legal)) {
      if (count > bestCount) {
        best = { kind: "sacrifice", foundation: f };
        bestCount = count;
      }
    }
  }
  if (best) return best;
  return (
    legal.find((a) => a.kind === "discard") ?? legal.find((a) => a.kind === "sacrifice") ?? null
  );
}

/** Ranks a Mimic could be declared as among `faces`, in cycle order. */
export function declaredRanks(faces: SoulitaireFace[]): SoulitaireRank[] {
  return RANKS.filter((r) => faces.some((f) => f.rank === r));
}

/** Whether some visible card could be offered to the top demon (a bare sacrifice asks first). */
export function anyCardFits(view: SoulitaireView): boolean {
  const demon = view.demon_pile[0];
  if (!demon) return false;
  return view.spellboard.some((_, c) => {
    const card = exposedCard(view, c);
    if (!card) return false;
    return (
      card.kind === "mimic" ||
      demon.symbols.some((s) => ("suit" in s ? s.suit === card.suit : s.rank === card.rank))
    );
  });
}

/** What a hinted action points at: a card's column, a foundation, the demon, a button. */
export type HintSpot =
  | { at: "card"; column: number }
  | { at: "foundation"; foundation: number }
  | { at: "demon" | "discard" | "end" };

/** Whether the hint `h` points at `spot` (the board rings it). */
export function hintedAt(h: SoulitaireAction | null, spot: HintSpot): boolean {
  if (!h) return false;
  switch (spot.at) {
    case "card":
      return (h.kind === "move" || h.kind === "offer") && h.column === spot.column;
    case "foundation":
      return (h.kind === "move" || h.kind === "sacrifice") && h.foundation === spot.foundation;
    case "demon":
      return h.kind === "sacrifice";
    case "discard":
      return h.kind === "discard";
    case "end":
      return h.kind === "end_sacrifice";
  }
}
