/**
 * Which seat counts a room may have with the options chosen so far: the game's range, narrowed
 * by any choice that fixes it (DēmoS's 2 vs 2 is played by four). A choice may carry its seat
 * counts in the game's options schema (`seats` on a choice value); for servers that do not
 * send them yet, the client knows the games it ships rules for.
 */
import type { GameInfo } from "../protocol/GameInfo";
import type { ChoiceValue } from "../protocol/ChoiceValue";

/** Seat counts per game, option and value, for choices whose schema does not say. */
const KNOWN: Record<string, Record<string, Record<string, number[]>>> = {
  demos: {
    mode: {
      simplified: [3, 4, 5],
      complete: [3, 4, 5],
      team_2v2: [4],
      team_2v3: [5],
      team_2v2_plus_1: [5],
    },
  },
};

/** A variant (the test server's rigged deals) is played as its base game. */
const baseOf = (info: GameInfo) => info.board ?? info.id;

function seatsOf(gameId: string, key: string, choice: ChoiceValue): number[] | null {
  const sent = (choice as ChoiceValue & { seats?: number[] | null }).seats;
  if (Array.isArray(sent) && sent.length) return sent;
  return KNOWN[gameId]?.[key]?.[choice.value] ?? null;
}

/** The seat counts allowed by the game and by every choice made in `options`. */
export function allowedSeatCounts(info: GameInfo, options: Record<string, unknown>): number[] {
  let counts = Array.from(
    { length: info.max_seats - info.min_seats + 1 },
    (_, i) => info.min_seats + i,
  );
  for (const option of info.options) {
    if (option.kind.type !== "choice") continue;
    const chosen = option.kind.values.find(
      (v) => v.value === (options[option.key] ?? option.default),
    );
    const fits = chosen ? seatsOf(baseOf(info), option.key, chosen) : null;
    if (fits) counts = counts.filter((n) => fits.includes(n));
  }
  return counts.length ? counts : [info.min_seats];
}

/** The allowed count nearest to `wanted` (the smaller one on a tie). */
export function nearestSeatCount(allowed: number[], wanted: number): number {
  return allowed.reduce(
    (best, n) => (Math.abs(n - wanted) < Math.abs(best - wanted) ? n : best),
    allowed[0],
  );
}

/** The seat counts a choice is played with, in words for its label ("4 players"), if fixed. */
export function choiceSeatsWords(info: GameInfo, key: string, choice: ChoiceValue): string | null {
  const fits = seatsOf(baseOf(info), key, choice);
  if (!fits) return null;
  const all = Array.from(
    { length: info.max_seats - info.min_seats + 1 },
    (_, i) => info.min_seats + i,
  );
  if (all.every((n) => fits.includes(n))) return null;
  if (fits.length === 1) return `${fits[0]} players`;
  return `${fits[0]}–${fits[fits.length - 1]} players`;
}
