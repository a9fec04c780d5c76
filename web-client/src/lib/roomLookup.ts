/**
 * Whether a room code names a room, asked before anything else is asked of the person: a
 * wrong code (mistyped, or a room long gone) says so at once rather than after a name dialog.
 * Only a clear "no such room" counts; a network error or a busy server lets the page go on
 * (the join itself will then say what is wrong).
 */
import { ApiFailure } from "./api";

export type RoomCheck = "found" | "missing" | "unknown";

export async function checkRoom(
  lookup: (code: string) => Promise<unknown>,
  code: string,
): Promise<RoomCheck> {
  try {
    await lookup(code);
    return "found";
  } catch (e) {
    return e instanceof ApiFailure && e.status === 404 ? "missing" : "unknown";
  }
}

export const missingRoomWords = (code: string) =>
  `No room has the code ${code}. Check the code or the link you were given: rooms close once everyone has left.`;
