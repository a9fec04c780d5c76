/**
 * When the clock acted. The server plays a default for a seat whose decision clock runs out
 * (principle 1: a timeout is an action), and the state that follows looks like any other: the
 * client tells it from the deadline the state before carried. A new version that arrives once
 * that deadline is (nearly) past was the clock's doing for everyone the table still waited for.
 */
import type { GameState } from "../protocol/GameState";
import { listNames } from "./seats";

export interface ClockWatch {
  version: number;
  toAct: number[];
  /** When the clock acts (this client's epoch ms), or null when none runs. */
  deadlineAt: number | null;
}

/** How early a new version may come and still be the clock's: the frames' travel time. */
export const CLOCK_SLACK_MS = 400;

export function watchClock(
  state: Pick<GameState, "version" | "to_act" | "deadline_ms">,
  now: number,
): ClockWatch {
  return {
    version: state.version,
    toAct: [...state.to_act],
    deadlineAt: state.deadline_ms === null ? null : now + state.deadline_ms,
  };
}

/** The seats the clock acted for between `before` and `state`, which arrived at `now`. */
export function clockActedFor(
  before: ClockWatch | null,
  state: Pick<GameState, "version">,
  now: number,
): number[] {
  if (!before || before.deadlineAt === null || state.version <= before.version) return [];
  return now >= before.deadlineAt - CLOCK_SLACK_MS ? before.toAct : [];
}

/** "Time ran out for you and Bo, so the clock played instead." */
export function clockWords(
  seats: number[],
  you: number | null,
  name: (seat: number) => string,
): string {
  const yours = you !== null && seats.includes(you);
  const names = [...(yours ? ["you"] : []), ...seats.filter((s) => s !== you).map(name)];
  return `Time ran out for ${listNames(names)}, so the clock played instead.`;
}
