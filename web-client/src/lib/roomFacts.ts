/** Words for a room's settings: its options as the game's schema labels them, and durations. */
import type { GameInfo } from "../protocol/GameInfo";
import type { RoomSnapshot } from "../protocol/RoomSnapshot";

export interface OptionFact {
  key: string;
  label: string;
  value: string;
}

/**
 * Options that only mean something at a table of teams (DēmoS's "Team seating" in a team
 * mode), by base game: elsewhere they keep their default and saying it would suggest teams.
 */
const TEAM_ONLY: Record<string, string[]> = { demos: ["seating", "teams"] };

/** Option values that stand for something other than their number, by base game and key. */
const VALUE_WORDS: Record<string, Record<string, Record<string, string>>> = {
  daemon_dice: { max_copies: { "0": "No limit" } },
};

/**
 * How a room's teams are made, if it plays in teams: its seats show them once the options fix
 * them, and a table whose seating is drawn learns them when the match starts.
 */
export function roomTeams(
  game: GameInfo,
  room: Pick<RoomSnapshot, "seats" | "options">,
): "shown" | "drawn" | null {
  if (!game.teams) return null;
  if (room.seats.some((s) => s.team !== null)) return "shown";
  return room.options.seating === "drawn" ? "drawn" : null;
}

/**
 * Each option of `game` with the value `options` gives it, in people's words; the mode first.
 * At a table without teams (`teams` false), the options about teams are left out.
 */
export function optionFacts(
  game: GameInfo,
  options: Record<string, unknown>,
  teams = true,
): OptionFact[] {
  const base = game.board ?? game.id;
  const teamOnly = teams ? [] : (TEAM_ONLY[base] ?? []);
  const facts = game.options
    .filter((spec) => !teamOnly.includes(spec.key))
    .map((spec) => ({
      key: spec.key,
      label: spec.label,
      value:
        VALUE_WORDS[base]?.[spec.key]?.[String(options[spec.key])] ??
        optionValue(spec, options[spec.key]),
    }));
  return facts.sort((a, b) => Number(b.key === "mode") - Number(a.key === "mode"));
}

function optionValue(spec: GameInfo["options"][number], value: unknown): string {
  if (value === undefined || value === null) return "Default";
  switch (spec.kind.type) {
    case "bool":
      return value ? "Yes" : "No";
    case "choice":
      return spec.kind.values.find((v) => v.value === value)?.label ?? String(value);
    default:
      return String(value);
  }
}

/** The mode of a room, as its game labels it (null for a game without one). */
export function modeLabel(
  game: GameInfo | undefined,
  options: Record<string, unknown>,
): string | null {
  const spec = game?.options.find((o) => o.key === "mode");
  if (!spec) return null;
  return optionValue(spec, options.mode);
}

/** "45 s", "2 min", "1 min 30 s". */
export function seconds(total: number): string {
  if (total < 60) return `${total} s`;
  const m = Math.floor(total / 60);
  const s = total % 60;
  return s ? `${m} min ${s} s` : `${m} min`;
}

/** A duration for a screen reader: "45 seconds", "1 minute", "1 minute 5 seconds". */
export function spokenDuration(total: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const m = Math.floor(total / 60);
  const s = total % 60;
  if (m === 0) return unit(s, "second");
  return s ? `${unit(m, "minute")} ${unit(s, "second")}` : unit(m, "minute");
}

/** A countdown as "0:42". */
export function clock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}
