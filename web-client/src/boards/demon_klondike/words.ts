/** Demon in words: actions for the log and the replay timeline, deal endings, scores. */
import type { SeatLabel } from "../contract";
import type { DemonAction } from "../../protocol/demon_klondike/DemonAction";
import type { DemonEnding } from "../../protocol/demon_klondike/DemonEnding";
import type { DemonView } from "../../protocol/demon_klondike/DemonView";
import { cardWords } from "./cards";

function name(seat: number, seats: SeatLabel[]): string {
  return seats.find((s) => s.seat === seat)?.name ?? `Seat ${seat + 1}`;
}

export function describeAction(action: DemonAction, seat: number, seats: SeatLabel[]): string {
  const who = name(seat, seats);
  switch (action.type) {
    case "draw":
      return `${who} turns three from the stock`;
    case "recycle":
      return `${who} turns the waste over`;
    case "to_foundation":
      return action.foundation === null
        ? `${who} starts a foundation with the ${cardWords(action.card)}`
        : `${who} plays the ${cardWords(action.card)} on foundation ${action.foundation + 1}`;
    case "to_pile":
      return `${who} moves the ${cardWords(action.card)} to pile ${action.pile + 1}`;
    case "stuck":
      return `${who} is stuck`;
    case "ready":
      return `${who} is ready for the next deal`;
  }
}

export function endingWords(ending: DemonEnding, seats: SeatLabel[]): string {
  switch (ending.kind) {
    case "demon":
      return `Demon! ${name(ending.seat, seats)} went out.`;
    case "stalemate":
      return "Nobody could play any more.";
    case "all_stuck":
      return "Everyone was stuck.";
    case "stalled":
      return "No progress for too long.";
  }
}

/**
 * What is going on, for the prompt: Demon has no turns, so between deals it says what the table
 * waits for rather than whose turn it is; during a deal the prompt's own words stand.
 */
export function pendingDecision(view: DemonView): string | null {
  return view.phase === "between_deals"
    ? "The scores are up until everyone is ready for the next deal"
    : null;
}

/** What the rules' clock decides (the rules page's idle time and the wait between deals). */
export function ruleClock(view: DemonView): string | null {
  switch (view.phase) {
    case "racing":
      return "until the deal ends if nobody makes a progress move";
    case "between_deals":
      return "until the next deal starts";
    case "over":
      return null;
  }
}
