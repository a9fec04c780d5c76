import type { RoomSnapshot } from "../protocol/RoomSnapshot";
import type { SeatLabel } from "../boards/contract";

/** Seats as boards name them: the player's name, "Bot 2", or "Empty seat 3". */
export function seatLabels(room: RoomSnapshot | null): SeatLabel[] {
  if (!room) return [];
  return room.seats.map((s) => ({
    seat: s.seat,
    name: s.player?.name ?? (s.presence === "bot" ? `Bot ${s.seat + 1}` : `Empty seat ${s.seat + 1}`),
    kind: s.presence === "bot" && !s.player ? "bot" : s.player ? "person" : s.presence === "bot" ? "bot" : "empty",
    team: s.team,
  }));
}

/** Seat labels from a match record's player names (history and replays). */
export function seatLabelsFromNames(names: string[]): SeatLabel[] {
  return names.map((name, seat) => ({ seat, name, kind: /\bbot\b/i.test(name) ? "bot" : "person", team: null }));
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
