/**
 * The turn prompt's words, from who may act and how the game is played. A turn-based game says
 * whose turn it is and whose clock runs; a real-time game has no turns (every seat may act at
 * any moment), so it says what is going on and what the rules' own clock decides instead.
 */
import { listNames } from "../lib/seats";

export interface PromptInput {
  toAct: number[];
  you: number | null;
  /** A seat's name as the table shows it. */
  nameOf: (seat: number) => string;
  /** The board's words for a pending decision, if any. */
  decision?: string | null;
  finished?: boolean;
  /** Every seat acts at any moment: no turns, and the clock is the rules' own. */
  realTime?: boolean;
  /** A real-time game's clock in words ("until the deal ends with no progress move"). */
  clockMeaning?: string | null;
}

export interface PromptWords {
  /** Whether the person looking is asked to act (the prompt glows). */
  yours: boolean;
  /** What the prompt shows: a muted lead-in, the words in bold, a muted tail. */
  lead: string | null;
  strong: string;
  tail: string | null;
  /** The board's decision, shown beside the prompt (never after the match). */
  decision: string | null;
  /** The clock's meaning beside its time ("for you and Bo"). */
  clockWho: string;
  /** The clock's tooltip. */
  clockTitle: string;
  /** What screen readers hear; without the clock's time, so it changes only with the decision. */
  spoken: (clockRunning: boolean) => string;
}

export function promptWords(input: PromptInput): PromptWords {
  const { toAct, you, nameOf, finished = false, realTime = false } = input;
  const decision = finished ? null : (input.decision ?? null);
  if (finished) {
    return {
      yours: false,
      lead: null,
      strong: "The match is over.",
      tail: null,
      decision: null,
      clockWho: "",
      clockTitle: "",
      spoken: () => "The match is over.",
    };
  }
  if (realTime) {
    const meaning = input.clockMeaning ?? "on the rules' clock";
    const strong = decision ?? "Everyone plays at once";
    return {
      yours: false,
      lead: null,
      strong,
      tail: null,
      decision: null,
      clockWho: meaning,
      clockTitle: `Time left ${meaning}`,
      spoken: (clock) => `${strong}${clock ? `. A clock is running ${meaning}.` : ""}`,
    };
  }
  const yours = you !== null && toAct.includes(you);
  const others = listNames(toAct.filter((s) => s !== you).map(nameOf));
  const clockFor = yours ? (others ? `you and ${others}` : "you") : others;
  const said = yours
    ? `Your turn${others ? ` with ${others}` : ""}`
    : others
      ? `Waiting for ${others}`
      : "Waiting";
  return {
    yours,
    lead: yours ? null : others ? "Waiting for" : "Waiting…",
    strong: yours ? "Your turn" : others,
    tail: yours && others ? `— with ${others}` : null,
    decision,
    clockWho: `for ${clockFor}`,
    clockTitle: `Time left for ${clockFor}`,
    spoken: (clock) =>
      `${said}${decision ? `: ${decision}` : ""}${clock ? ". A clock is running." : ""}`,
  };
}
