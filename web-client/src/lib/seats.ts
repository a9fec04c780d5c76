import type { RoomSnapshot } from "../protocol/RoomSnapshot";
import type { SeatInfo } from "../protocol/SeatInfo";
import type { SeatLabel } from "../boards/contract";

/**
 * A seat's one name, everywhere (board, sidebar, seat list, results): the player's name, "Bot 2"
 * (the name the server records for a bot in the match history too), or "Empty seat 3".
 */
export function seatDisplayName(seat: Pick<SeatInfo, "seat" | "player" | "presence">): string {
  return (
    seat.player?.name ??
    (seat.presence === "bot" ? `Bot ${seat.seat + 1}` : `Empty seat ${seat.seat + 1}`)
  );
}

/** Seats as boards name them: the player's name, "Bot 2", or "Empty seat 3". */
export function seatLabels(room: RoomSnapshot | null): SeatLabel[] {
  if (!room) return [];
  return room.seats.map((s) => ({
    seat: s.seat,
    name: seatDisplayName(s),
    kind:
      s.presence === "bot" && !s.player
        ? "bot"
        : s.player
          ? "person"
          : s.presence === "bot"
            ? "bot"
            : "empty",
    team: s.team,
  }));
}

/** Seat labels from a match record's player names (history and replays). */
export function seatLabelsFromNames(names: string[]): SeatLabel[] {
  return names.map((name, seat) => ({
    seat,
    name,
    kind: /\bbot\b/i.test(name) ? "bot" : "person",
    team: null,
  }));
}

/** "Ada", "Ada and Bo", "Ada, Bo and Cy". */
export function listNames(names: string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

export function ordinal(n: number): string {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

/**
 * An outcome's sentence with people's names: engines only know seats, so their summaries say
 * "Seat 2 wins the Election"; the client knows who sat there ("Alice wins the Election").
 */
export function namedSummary(summary: string, names: (string | undefined)[]): string {
  return summary.replace(/\b[Ss]eat (\d+)\b/g, (match, n: string) => names[Number(n) - 1] ?? match);
}

/**
 * A seat's side as the seat list names it: "Team 1", or, in DēmoS's 2 vs 2 + 1, "The
 * Independent" for the player who plays alone (team 2). `game` is the base game (see
 * `baseGame`), `options` the room's.
 */
export function teamDisplayName(
  game: string,
  options: Record<string, unknown>,
  team: number | null,
): string | null {
  if (team === null) return null;
  if (game === "demos" && options.mode === "team_2v2_plus_1" && team === 2)
    return "The Independent";
  return `Team ${team + 1}`;
}
