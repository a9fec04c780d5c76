/**
 * What a click, a double-click or a drop means, worked out from `legal` alone: the board never
 * offers a move the server did not list.
 */
import { ruleOf } from "../../rules/ruleNames";
import type { DemonAction } from "../../protocol/demon_klondike/DemonAction";
import type { DemonCard } from "../../protocol/demon_klondike/DemonCard";
import type { DemonFoundationView } from "../../protocol/demon_klondike/DemonFoundationView";
import type { DemonPileView } from "../../protocol/demon_klondike/DemonPileView";
import { cardWords, foundationTop, parseCard } from "./cards";

export type Target = { kind: "foundation"; index: number | null } | { kind: "pile"; pile: number };

/** Every legal move of `card`. */
export function movesOf(card: DemonCard, legal: DemonAction[]): DemonAction[] {
  return legal.filter(
    (a) => (a.type === "to_foundation" || a.type === "to_pile") && a.card === card,
  );
}

/** Whether `card` can move at all now. */
export function canMove(card: DemonCard, legal: DemonAction[]): boolean {
  return movesOf(card, legal).length > 0;
}

/** The move of `card` onto `target`, if legal. An Ace dropped anywhere on the foundations
 * starts a new one. */
export function moveTo(card: DemonCard, target: Target, legal: DemonAction[]): DemonAction | null {
  for (const action of movesOf(card, legal)) {
    if (target.kind === "pile" && action.type === "to_pile" && action.pile === target.pile)
      return action;
    if (target.kind === "foundation" && action.type === "to_foundation") {
      if (action.foundation === null || action.foundation === target.index) return action;
    }
  }
  return null;
}

/** A double-click sends the card to a foundation that takes it: the first listed (a new one
 * for an Ace). */
export function toAnyFoundation(card: DemonCard, legal: DemonAction[]): DemonAction | null {
  return movesOf(card, legal).find((a) => a.type === "to_foundation") ?? null;
}

/** The stock button: draw, or turn the waste over when the stock is empty. */
export function stockAction(legal: DemonAction[]): DemonAction | null {
  return legal.find((a) => a.type === "draw" || a.type === "recycle") ?? null;
}

/** Why a move came back, in words for the card that snaps home: from the refusal's code, and
 * for `illegal_action` the game's rule. */
export function refusalWords(refusal: { code?: string; rule?: string | null }): string {
  if (refusal.code === "match_over") return "The deal is over.";
  switch (ruleOf("demon_klondike", refusal.rule)) {
    case "foundation_moved":
      return "Too slow — someone got there first.";
    case "stopped":
      return "You said you are stuck: you sit out the rest of this deal.";
    case "between_deals":
      return "The deal is over.";
    default:
      return "That move is no longer possible.";
  }
}

const RED = new Set(["hearts", "diamonds"]);
const RANK_NAMES = ["Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King"];
/** Said when the card fits by the rules but the move is not listed (a stop, a run rule). */
const NOT_NOW = "That move is not open to you now.";

/** Why `card` may not be dropped on `target`, from the rules of Demon's piles and
 * foundations (a drop never says nothing). `piles` and `foundations` are as the board shows
 * them. */
export function dropRefusal(
  card: DemonCard,
  target: Target,
  piles: DemonPileView[],
  foundations: DemonFoundationView[],
): string {
  const moving = parseCard(card);
  const name = cardWords(card);
  if (target.kind === "pile") {
    const pile = piles[target.pile];
    const top = pile?.up.at(-1);
    if (!pile || (!top && pile.down === 0))
      return moving.value === 13
        ? NOT_NOW
        : `Pile ${target.pile + 1} is empty: only a King, or a run headed by one, fills it.`;
    if (!top) return NOT_NOW;
    if (top === card) return "The card is already there.";
    const under = parseCard(top);
    const colour = RED.has(under.suit) ? "black" : "red";
    if (under.value === 1) return `Nothing is built on an Ace in a pile.`;
    if (under.value === moving.value + 1 && RED.has(under.suit) !== RED.has(moving.suit))
      return NOT_NOW;
    return `The ${cardWords(top)} takes a ${colour} ${RANK_NAMES[under.value - 2]}, not the ${name}: piles build down in alternating colours.`;
  }
  if (target.index === null)
    return moving.value === 1 ? NOT_NOW : `Only an Ace starts a foundation.`;
  const foundation = foundations[target.index];
  if (!foundation) return NOT_NOW;
  const height = foundation.owners.length;
  if (height >= 13) return `Foundation ${target.index + 1} is complete.`;
  const next = foundationTop(foundation.suit, height + 1);
  if (next === card) return NOT_NOW;
  if (moving.value === 1) return "An Ace starts a new foundation: drop it on “Ace here”.";
  return `Foundation ${target.index + 1} takes the ${cardWords(next)} next, not the ${name}.`;
}
