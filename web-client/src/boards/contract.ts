/**
 * The board contract: what a game's board gets and what it may do. Each game's issue
 * delivers one board module and registers it in `registry.ts`; the room, the spectator view
 * and the replay viewer all render boards through this one interface.
 *
 * A board is a Svelte 5 component taking {@link BoardProps}; it renders only from `view`
 * (the server's filtered view for this seat, a spectator or a replay frame), offers only
 * actions found in `legal`, and sends them with `act` — never anything else.
 */
import type { Component } from "svelte";
import type { Outcome } from "../protocol/Outcome";
import type { ActResult } from "../lib/connection";

/** Who sits where, as boards name players. */
export interface SeatLabel {
  seat: number;
  name: string;
  kind: "person" | "bot" | "empty";
  team: number | null;
}

export interface BoardProps<View = unknown, Action = unknown> {
  /** The game's own `View` JSON for this viewer. */
  view: View;
  /** The seat whose view this is (yours when playing, the chosen seat in a replay); null for
   * a spectator or a fully revealed replay. */
  seat: number | null;
  /** Seats that may act now (several at simultaneous steps, or a seat answering a pending
   * decision out of turn). */
  toAct: number[];
  /** Your legal actions now, complete: offer these and nothing else. Empty when it is not
   * your move, when watching, and in replays. */
  legal: Action[];
  /** Milliseconds until the clock decides for whoever has not acted, if a clock runs. */
  deadlineMs: number | null;
  outcome: Outcome | null;
  seats: SeatLabel[];
  /** The room's options (the game's `Config` with every default filled in, when known). */
  options: Record<string, unknown>;
  /** False for spectators and replays: render, never offer moves. */
  interactive: boolean;
  mode: "live" | "replay";
  /** Sends an action. Resolves on the server's ack; rejects with an `ActError` whose
   * message is already shown to the player as a toast, so a board only needs to undo any
   * optimistic highlight. */
  act: (action: Action) => Promise<ActResult>;
  /** Asks the server what its bot would play in this seat now, from this seat's view (the
   * protocol's `hint` message): the action, or null when there is none or no answer came.
   * Absent where nobody can be asked (spectators, replays). */
  hint?: () => Promise<Action | null>;
}

export interface LogEntry {
  id: string | number;
  seat: number | null;
  text: string;
}

export interface BoardModule<View = unknown, Action = unknown> {
  component: Component<BoardProps<View, Action>>;
  /** An action in words for the action log and the replay timeline ("Ada moves the 7 of
   * Skulls onto the 8"). */
  describeAction(action: Action, seat: number, seats: SeatLabel[]): string;
  /** Words for a pending decision the view holds ("Bo chooses whom the ♠9 attacks"), shown in
   * the turn prompt; null when there is none. */
  pendingDecision?(view: View, seats: SeatLabel[]): string | null;
  /** A real-time game's rule clock in words: what happens when it runs out ("until the deal
   * ends if nobody makes a progress move"), shown beside its time in the prompt. */
  ruleClock?(view: View): string | null;
  /** The public history the view carries, for the action log during live play (actions are
   * not echoed to other seats; what a seat may know of them is in its view). */
  log?(view: View, seats: SeatLabel[]): LogEntry[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- boards of every game share one registry
export type BoardLoader = () => Promise<BoardModule<any, any>>;
