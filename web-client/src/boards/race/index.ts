/**
 * The board of Race, the platform's real-time test fixture (games/core/src/fixture/race.rs):
 * every seat steps or grabs the next shared token at any moment, first to the goal wins. Only
 * the test server hosts it; this folder is all the client needs to seat, show and play it.
 */
import type { BoardModule, SeatLabel } from "../contract";
import RaceBoard from "./RaceBoard.svelte";

/** Race's `View`, as the fixture serialises it (no bindings are generated for fixtures). */
export interface RaceView {
  moves: number[];
  tokens: number[];
  next_token: number;
  goal: number;
}

export type RaceAction = { type: "step" } | { type: "grab"; token: number };

function seatName(seat: number, seats: SeatLabel[]): string {
  return seats.find((s) => s.seat === seat)?.name ?? `Seat ${seat + 1}`;
}

export function describeAction(action: RaceAction, seat: number, seats: SeatLabel[]): string {
  const who = seatName(seat, seats);
  return action.type === "step" ? `${who} steps` : `${who} grabs token ${action.token}`;
}

export const board: BoardModule<RaceView, RaceAction> = {
  component: RaceBoard,
  describeAction,
  ruleClock: () => null,
};
