// Where a finished match's rematch stands, as the room page says it: who has said yes (bots
// always do), and who the table still waits for.

import type { RoomSnapshot } from "../protocol/RoomSnapshot";
import { listNames } from "./seats";

/** Whether the person looking (`room.you`) has asked for the rematch. */
export function rematchAccepted(room: RoomSnapshot | null): boolean {
  return !!room && room.you !== null && room.rematch.includes(room.you);
}

/** The people other than `room.you` who have not said yes yet. */
function pending(room: RoomSnapshot): string[] {
  return room.seats
    .filter((s) => s.player && !room.rematch.includes(s.seat) && s.seat !== room.you)
    .map((s) => s.player!.name);
}

/** The people other than `room.you` who have asked (a bot's yes is no news). */
function askers(room: RoomSnapshot): string[] {
  return room.seats
    .filter(
      (s) =>
        s.player && s.presence !== "bot" && room.rematch.includes(s.seat) && s.seat !== room.you,
    )
    .map((s) => s.player!.name);
}

/** The rematch's line under a finished match, or null when there is nothing to say. */
export function rematchWords(room: RoomSnapshot | null): string | null {
  if (!room || room.status !== "finished") return null;
  if (rematchAccepted(room)) {
    const waiting = pending(room);
    return waiting.length
      ? `Rematch: waiting for ${listNames(waiting)} to accept.`
      : "Rematch: starting…";
  }
  const asked = askers(room);
  if (asked.length)
    return `${listNames(asked)} ${asked.length === 1 ? "wants" : "want"} a rematch.`;
  return null;
}
