/**
 * Quick starts: a solo game (one seat) and "Play against bots now" skip the waiting room. The
 * client creates the room, sits, and starts in one flow; rooms it created for a quick start
 * are remembered for this tab so the room page starts them once everyone (the host and the
 * bots) is seated.
 */
import type { GameInfo } from "../protocol/GameInfo";
import type { CreateRoom } from "../protocol/CreateRoom";
import type { RoomSnapshot } from "../protocol/RoomSnapshot";
import { allowedSeatCounts } from "./seatCounts";
import { defaultOptions } from "./games";

const marked = new Set<string>();

export function markQuickStart(code: string): void {
  marked.add(code);
}

export function isQuickStart(code: string): boolean {
  return marked.has(code);
}

/** A room of one seat: nobody to wait for, nobody to invite. */
export const isSolo = (room: Pick<RoomSnapshot, "seats">) => room.seats.length === 1;

/**
 * Whether the room page should start the match by itself now: the viewer hosts a waiting
 * room in which they sit, every seat is taken, and the room is solo or a quick start.
 */
export function shouldAutoStart(room: RoomSnapshot, myId: string | null, quick: boolean): boolean {
  return (
    room.status === "waiting" &&
    room.you !== null &&
    myId !== null &&
    room.host === myId &&
    (isSolo(room) || quick) &&
    room.seats.every((s) => s.presence !== "empty")
  );
}

/**
 * The room a quick start creates: the smallest table with at least one bot the game allows
 * (a game that also has solo rules, such as Demon Bound!, is played against a bot), or the
 * solo table of a one-player game.
 */
export function quickRoom(info: GameInfo): CreateRoom {
  const options = defaultOptions(info.options);
  const allowed = allowedSeatCounts(info, options);
  const seats = allowed.find((n) => n >= 2) ?? allowed[0];
  return {
    game: info.id,
    options,
    seats,
    bots: Array.from({ length: seats - 1 }, (_, i) => i + 1),
    public: false,
    turn_seconds: null,
    grace_seconds: null,
  };
}
