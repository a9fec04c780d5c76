/**
 * What a click, a double-click or a drop means, worked out from `legal` alone: the board never
 * offers a move the server did not list.
 */
import type { DemonAction } from "../../protocol/demon_klondike/DemonAction";
import type { DemonCard } from "../../protocol/demon_klondike/DemonCard";

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
  switch (refusal.rule) {
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
