/**
 * What the protocol client (`connection.ts`) shows the UI and takes from it: its state as one
 * store value, the notices it raises, the answers to acts and hints, and the parts of a
 * WebSocket it uses (so tests can pass a fake).
 */
import type { ChatLine } from "../protocol/ChatLine";
import type { ErrorCode } from "../protocol/ErrorCode";
import type { GameState } from "../protocol/GameState";
import type { JoinRole } from "../protocol/JoinRole";
import type { RoomSnapshot } from "../protocol/RoomSnapshot";
import type { BackoffOptions } from "./backoff";
import type { IdentityStore } from "./identity";

export type ConnectionStatus =
  /** Not started, or stopped on purpose. */
  | "idle"
  /** The first connection is being made. */
  | "connecting"
  /** Welcomed by the server: commands go through. */
  | "online"
  /** The connection dropped; a retry is scheduled at `retryAt`. */
  | "reconnecting";

/** Why the client is reconnecting, for the words of the banner. */
export type ReconnectReason =
  /** The server closed with 1012: it is restarting, or the room moved to another node. The
   * client reconnects at once (within a second's jitter): nothing is wrong. */
  | "server_restart"
  /** Anything else: the network, a crash, a slow client dropped. Backoff with jitter. */
  | "connection_lost";

/** Why something failed on this side: the client's own codes, never sent by the server. */
export type ClientCode =
  /** A command while not connected. */
  | "offline"
  /** The connection closed for good with acts unanswered. */
  | "connection_lost"
  /** `stop()` was called with acts unanswered. */
  | "stopped"
  /** The room was left with acts unanswered. */
  | "left_room"
  /** A page's own failure (setting up a rematch, copying a link). */
  | "play_again"
  /** Not a failure: a decision clock ran out and the server played for the seat. */
  | "time_ran_out";

export interface Notice {
  id: number;
  /** `reject` for a refused action, `error` for anything else the server refused. */
  kind: "reject" | "error" | "info";
  code: ErrorCode | ClientCode;
  message: string;
}

/** A chat line as shown: `id` is the room's number for it; `at` when this client got it. */
export interface ChatEntry extends ChatLine {
  at: number;
}

export interface ConnectionState {
  status: ConnectionStatus;
  /** Consecutive failed connection attempts (0 while online). */
  attempt: number;
  /** When the next reconnect attempt happens (epoch ms), while reconnecting. */
  retryAt: number | null;
  /** Why the client is reconnecting (null while online or idle). */
  reconnectReason: ReconnectReason | null;
  me: { player_id: string; name: string } | null;
  /** The room this client wants to be in, and as what. */
  target: { room: string; role: JoinRole } | null;
  room: RoomSnapshot | null;
  game: GameState | null;
  /** Why the target room could not be joined (`room_not_found`, `room_full`). */
  joinError: { code: ErrorCode; message: string } | null;
  chat: ChatEntry[];
  notices: Notice[];
  /** Acts sent or queued and not yet answered. */
  pendingActs: number;
  /**
   * The server refused something with `storage_unavailable`: it could not save, so it played
   * nothing, and this client's acts wait to be offered again. Shown as one calm notice, not a
   * toast per click; cleared by the next accepted act or change of state.
   */
  waitingForDatabase: boolean;
}

/** Why an `act()` promise was rejected: the server's reject, or the client's own reason. */
export class ActError extends Error {
  constructor(
    readonly code: ErrorCode | ClientCode,
    message: string,
    readonly seq: number,
    /** With `illegal_action`: the game's own name for the rule broken (`not_adjacent`). */
    readonly rule: string | null = null,
  ) {
    super(message);
    this.name = "ActError";
  }
}

/** The server's answer to a hint request: what the game's bot would do, for that version. */
export interface HintAnswer {
  version: number;
  action: unknown | null;
}

export interface ActResult {
  seq: number;
  version: number;
}

/** The parts of the browser's WebSocket this client uses, so tests can pass a fake. */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason?: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type SocketFactory = (url: string) => SocketLike;

export interface ConnectionOptions {
  url: string;
  identity: IdentityStore;
  /** Name to ask for when there is no token (the server then issues one). */
  name?: () => string | null;
  socket?: SocketFactory;
  random?: () => number;
  now?: () => number;
  backoff?: BackoffOptions;
  /** How many chat lines to keep. */
  chatLimit?: number;
  /** Server error codes that mean "this token is not known here": drop it and start afresh. */
  badTokenCodes?: ErrorCode[];
  /** How long to wait before sending an act refused `rate_limited` again; doubled per retry. */
  rateRetryMs?: number;
  /** How often one act is sent again after `rate_limited` before its refusal is shown. */
  rateRetries?: number;
  /** The spread of reconnects after close 1012 (a restart or a room's move): `[0, ms]`. */
  restartJitterMs?: number;
  /** How long acts refused `storage_unavailable` wait before they are offered again. */
  storageBackoff?: BackoffOptions;
}

export const INITIAL: ConnectionState = {
  status: "idle",
  attempt: 0,
  retryAt: null,
  reconnectReason: null,
  me: null,
  target: null,
  room: null,
  game: null,
  joinError: null,
  chat: [],
  notices: [],
  pendingActs: 0,
  waitingForDatabase: false,
};
