/**
 * Reading the engine's legal list (complete) into what the board offers. The board never builds
 * an action the list does not hold: every button is a legal action, and a discard is sent only
 * when the chosen cards match one.
 */
import type { Card } from "../../protocol/demon_bound/Card";
import type { DemonBoundAction } from "../../protocol/demon_bound/DemonBoundAction";
import { sortCards } from "./cards";

/** The hand card an action plays, if any. */
export function cardOf(action: DemonBoundAction): Card | null {
  switch (action.type) {
    case "setup_sacrifice":
    case "sacrifice":
    case "appease":
    case "summon":
    case "bind":
    case "treasure":
    case "cast":
    case "spell_summon":
      return action.card;
    default:
      return null;
  }
}

/** Legal actions that play `card` from the hand. */
export function actionsFor(legal: DemonBoundAction[], card: Card): DemonBoundAction[] {
  return legal.filter((a) => cardOf(a) === card);
}

/** Hand cards some legal action plays. */
export function playableCards(legal: DemonBoundAction[]): Set<Card> {
  return new Set(legal.map(cardOf).filter((c): c is Card => c !== null));
}

/** Actions that play no hand card: banishes, spell effects on the table, decisions, ending. */
export function tableActions(legal: DemonBoundAction[]): DemonBoundAction[] {
  return legal.filter((a) => cardOf(a) === null && a.type !== "discard");
}

export interface DiscardRule {
  /** The fewest cards to discard; null when it is not the discard step. */
  atLeast: number | null;
  /** Every legal discard, as sorted card lists. */
  sets: Card[][];
}

export function discardRule(legal: DemonBoundAction[]): DiscardRule {
  const sets = legal.filter((a) => a.type === "discard").map((a) => (a as { cards: Card[] }).cards);
  if (!sets.length) return { atLeast: null, sets };
  return { atLeast: Math.min(...sets.map((s) => s.length)), sets };
}

/** The legal discard of exactly `chosen` (in any order), or null. */
export function discardOf(legal: DemonBoundAction[], chosen: Card[]): DemonBoundAction | null {
  const key = sortCards(chosen).join(" ");
  return legal.find((a) => a.type === "discard" && sortCards(a.cards).join(" ") === key) ?? null;
}
