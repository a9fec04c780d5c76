/**
 * The protocol client: one WebSocket to `/ws`, spoken in the generated `ClientMsg` /
 * `ServerMsg` types, exposed to the UI as one store.
 *
 * What it guarantees (and what `connection*.test.ts` pin):
 * - The socket names the room it is for in its URL, `/ws?room=CODE`, whenever the client has a
 *   room to be in when the socket opens (plain `/ws` otherwise): in a cluster, a load balancer
 *   routes by that parameter to the node that owns the room, and it sees nothing but the URL.
 *   So joining another room than the one the socket was opened for (or a first room from a
 *   socket opened without one) closes that socket quietly (1000, no reconnect banner) and
 *   opens one on the new room's URL at once, with no backoff; every reconnect uses the URL of
 *   the room the client means to be in. Joining the socket's own room again (in another role,
 *   say) goes on the same socket.
 * - It says `hello` with the stored token first, and keeps a token the server issues.
 * - It rejoins the room it was in after every reconnect, sending the last version it saw, so
 *   the server sends only what it missed; a `state` whose version is not newer than the last
 *   one seen is ignored (a new match in the room starts the count again).
 * - It reconnects by itself with exponential backoff and jitter, and says so in the store
 *   (`status: "reconnecting"`, `retryAt`, `reconnectReason`) so the UI can show a banner. A
 *   server that closes with 1012 is restarting or has handed the room to another node: the
 *   client reconnects at once, within a random second so that a room's clients do not all
 *   arrive in the same millisecond.
 * - `act()` returns a promise settled by exactly the `ack` or `reject` carrying its sequence
 *   number. Acts made while offline wait and are sent after the rejoin; acts already on the
 *   wire when the connection drops are sent again after the rejoin, in order, with the same
 *   sequence numbers: the server applies each seq at most once and answers a resent one with
 *   its original answer, so resending never plays a move twice. Nothing is dropped silently.
 * - An act refused `rate_limited` was not applied: it is sent again (same seq) after a short
 *   pause that doubles each time, and only after several refusals is the promise rejected.
 * - An act refused `storage_unavailable` was not applied either, but its seq is answered: it
 *   is offered again under a fresh seq after a growing pause, while the position it was chosen
 *   against still stands (`outbox.ts`). Meanwhile the store says `waitingForDatabase`, one
 *   calm notice rather than a toast per click, until an act is accepted or the state moves.
 * - Sequence numbers keep increasing per seat across connections and page loads: the room
 *   snapshot says the last seq the server answered for your seat, and new acts go above it.
 * - Chat survives reloads and reconnects: the server tells the room's recent lines again on
 *   every join (`chat_history`), and a line heard twice (live, then in the history) is kept
 *   once, by its id.
 *
 * `connectionState.ts` holds the types the UI sees; `outbox.ts` the acts awaiting an answer.
 */
import type { BotPace } from "../protocol/BotPace";
import type { ChatChannel } from "../protocol/ChatChannel";
import type { ChatLine } from "../protocol/ChatLine";
import type { ClientMsg } from "../protocol/ClientMsg";
import type { ErrorCode } from "../protocol/ErrorCode";
import type { GameState } from "../protocol/GameState";
import type { JoinRole } from "../protocol/JoinRole";
import type { RoomSnapshot } from "../protocol/RoomSnapshot";
import type { ServerMsg } from "../protocol/ServerMsg";
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  RESTART_JITTER_MS,
  retryAfter,
  STORAGE_BACKOFF,
} from "./backoff";
import {
  ActError,
  INITIAL,
  type ActResult,
  type ClientCode,
  type ConnectionOptions,
  type ConnectionState,
  type HintAnswer,
  type Notice,
  type SocketLike,
} from "./connectionState";
import { MOVED_ON, Outbox } from "./outbox";
import { applyStatePatch, PatchMismatch } from "./patch";
import { createStore, type Readable } from "./store";

export {
  ActError,
  type ActResult,
  type ChatEntry,
  type ClientCode,
  type ConnectionOptions,
  type ConnectionState,
  type ConnectionStatus,
  type HintAnswer,
  type Notice,
  type ReconnectReason,
  type SocketFactory,
  type SocketLike,
} from "./connectionState";

const OPEN = 1;
const NOTICE_LIMIT = 5;

export class Connection implements Readable<ConnectionState> {
  private readonly store = createStore<ConnectionState>(INITIAL);
  private readonly opts: Required<Omit<ConnectionOptions, "name">> &
    Pick<ConnectionOptions, "name">;
  private socket: SocketLike | null = null;
  /** The room named in the current socket's URL (null: opened without one). */
  private socketRoom: string | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private welcomed = false;
  /** Whether the target room has answered our latest join with a `room` message. */
  private joined = false;
  /** A join the server could not serve for want of its database, waiting to go again. */
  private joinTimer: ReturnType<typeof setTimeout> | null = null;
  /** Joins refused that way in a row: the next wait grows with it. */
  private joinWaits = 0;
  private nextId = 1;
  private readonly outbox: Outbox;
  /** Callers of `hint()` waiting for the server's answer. */
  private hintWaiters: ((answer: HintAnswer | null) => void)[] = [];
  /** The last state version seen in the current match; null before any. */
  private lastVersion: number | null = null;
  private matchId: string | null = null;

  constructor(options: ConnectionOptions) {
    this.opts = {
      socket: (url) => new WebSocket(url) as unknown as SocketLike,
      random: Math.random,
      now: Date.now,
      backoff: DEFAULT_BACKOFF,
      chatLimit: 200,
      badTokenCodes: ["unknown_token"],
      rateRetryMs: 250,
      rateRetries: 5,
      restartJitterMs: RESTART_JITTER_MS,
      storageBackoff: STORAGE_BACKOFF,
      ...options,
    };
    this.outbox = new Outbox(
      {
        canSend: () => this.canSendRoomCommands(),
        send: (seq, action) => this.send({ type: "act", seq, action }),
        counted: (pendingActs) => this.patch({ pendingActs }),
        position: () => `${this.matchId}@${this.lastVersion}`,
        superseded: () => this.pushNotice("info", "storage_unavailable", MOVED_ON),
      },
      { retryMs: this.opts.rateRetryMs, retries: this.opts.rateRetries },
      { backoff: this.opts.storageBackoff, random: this.opts.random },
    );
  }

  subscribe(run: (value: ConnectionState) => void): () => void {
    return this.store.subscribe(run);
  }

  get state(): ConnectionState {
    return this.store.get();
  }

  /** The last version seen (what a rejoin sends). */
  get version(): number | null {
    return this.lastVersion;
  }

  /** Opens the connection if it is not open or opening. */
  start(): void {
    if (this.socket || this.retryTimer) return;
    this.patch({ status: this.state.attempt > 0 ? "reconnecting" : "connecting" });
    this.open();
  }

  /** Closes for good: no reconnect; pending acts fail. */
  stop(): void {
    this.clearRetry();
    this.clearJoinLater();
    const socket = this.socket;
    this.socket = null;
    this.socketRoom = null;
    this.welcomed = false;
    this.joined = false;
    if (socket) {
      detach(socket);
      socket.close(1000, "bye");
    }
    this.failPending("stopped", "The connection was closed.");
    this.answerHints(null);
    this.patch({
      status: "idle",
      attempt: 0,
      retryAt: null,
      reconnectReason: null,
      waitingForDatabase: false,
    });
  }

  /** Skips the backoff wait and tries to reconnect now. */
  retryNow(): void {
    if (this.state.status !== "reconnecting" || this.socket) return;
    this.clearRetry();
    this.open();
  }

  /**
   * Enters `room` (leaving any other), and re-enters it after every reconnect. A socket opened
   * for another room (or for none) is replaced by one whose URL names this room, so that a
   * balancer in front of a cluster sends it to the room's node.
   */
  join(room: string, role: JoinRole = "player"): void {
    const current = this.state.target;
    if (current && current.room === room && current.role === role) {
      if (this.welcomed && !this.joined) this.sendJoin();
      else if (!this.socket) this.start();
      return;
    }
    this.resetRoom();
    this.patch({ target: { room, role } });
    if (this.socket && this.socketRoom !== room) this.reopen();
    else if (this.welcomed) this.sendJoin();
    else this.start();
  }

  /**
   * Leaves the current room. With `keepSeat`, the client only goes away (the socket closes, as
   * when a tab closes): the server keeps the seat through its grace period, and opening the
   * room again reclaims it. Without, it says `leave`, which frees the seat (or hands it to a bot
   * once the match runs).
   */
  leave({ keepSeat = false }: { keepSeat?: boolean } = {}): void {
    if (keepSeat) {
      this.resetRoom();
      this.patch({ target: null });
      this.stop();
      return;
    }
    if (this.state.target && this.welcomed) this.send({ type: "leave" });
    this.resetRoom();
    this.patch({ target: null });
  }

  takeSeat(seat: number): boolean {
    return this.command({ type: "take_seat", seat });
  }

  leaveSeat(): boolean {
    return this.command({ type: "leave_seat" });
  }

  setBot(seat: number, bot: boolean, pace?: BotPace): boolean {
    return this.command(
      pace ? { type: "set_bot", seat, bot, pace } : { type: "set_bot", seat, bot },
    );
  }

  ready(ready: boolean): boolean {
    return this.command({ type: "ready", ready });
  }

  startMatch(): boolean {
    return this.command({ type: "start" });
  }

  /** Once the match is over: play again at this table (or, with `false`, withdraw). */
  rematch(accept = true): boolean {
    return this.command({ type: "rematch", accept });
  }

  chat(channel: ChatChannel, text: string): boolean {
    const trimmed = text.trim();
    if (!trimmed) return false;
    return this.command({ type: "chat", channel, text: trimmed });
  }

  /**
   * Sends a game action. Resolves with the `ack`, rejects with an {@link ActError} carrying
   * the server's reject code, or `connection_lost` / `stopped` / `left_room`.
   */
  act(action: unknown): Promise<ActResult> {
    return this.outbox.add(action);
  }

  /**
   * Asks the game's bot what it would do in your seat now ("is there a move?"), from your
   * view alone. Resolves with the server's answer (the action, or null when you have nothing
   * to do, and the version it is for), or null when it cannot be asked or no answer comes.
   */
  hint(timeoutMs = 4000): Promise<HintAnswer | null> {
    if (!this.command({ type: "hint" })) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter = (answer: HintAnswer | null) => {
        clearTimeout(timer);
        resolve(answer);
      };
      const timer = setTimeout(() => {
        this.hintWaiters = this.hintWaiters.filter((w) => w !== waiter);
        resolve(null);
      }, timeoutMs);
      this.hintWaiters.push(waiter);
    });
  }

  dismiss(noticeId: number): void {
    this.patch({ notices: this.state.notices.filter((n) => n.id !== noticeId) });
  }

  /** Adds a notice of the client's own (a failed HTTP call, a copy to the clipboard). */
  notify(kind: Notice["kind"], code: ClientCode, message: string): void {
    this.pushNotice(kind, code, message);
  }

  // --- internals -------------------------------------------------------------------------

  private open(): void {
    const room = this.state.target?.room ?? null;
    let socket: SocketLike;
    try {
      socket = this.opts.socket(room === null ? this.opts.url : roomSocketUrl(this.opts.url, room));
    } catch {
      this.scheduleRetry(null, false);
      return;
    }
    this.socket = socket;
    this.socketRoom = room;
    // Events of a socket this client has already replaced are ignored.
    socket.onopen = () => {
      if (socket === this.socket) this.sayHello();
    };
    socket.onmessage = (ev) => {
      if (socket === this.socket) this.receive(ev.data);
    };
    socket.onerror = () => {
      /* a close event follows; that is where we act */
    };
    socket.onclose = (ev) => this.dropped(socket, ev.code);
  }

  private sayHello(): void {
    const identity = this.opts.identity.load();
    const name = identity ? null : (this.opts.name?.() ?? null);
    this.hello(identity?.token ?? null, name);
  }

  /** Patches rather than whole states: fewer bytes a move, for some of the server's CPU
   * (docs/performance.md weighs the two). */
  private hello(token: string | null, name: string | null): void {
    this.send({ type: "hello", token, name, patches: true, products: true });
  }

  private dropped(socket: SocketLike, code: number): void {
    if (socket !== this.socket) return;
    const wasWelcomed = this.welcomed;
    this.forget(socket);
    this.scheduleRetry(code, wasWelcomed);
  }

  /**
   * Moves to a socket whose URL names the target room: the old one is closed as a tab closes
   * (1000; the server keeps a seat through its grace period, as when a join leaves a room), and
   * the new one opens at once. Nothing went wrong, so there is no backoff and no banner; acts
   * still unanswered go after the rejoin, as after any reconnect.
   */
  private reopen(): void {
    const socket = this.socket;
    if (socket) {
      this.forget(socket);
      socket.close(1000, "another room");
    }
    this.clearRetry();
    this.patch({ status: "connecting", attempt: 0, retryAt: null, reconnectReason: null });
    this.open();
  }

  /** Lets go of `socket`: its events are no longer heard, and what was on it is owed again. */
  private forget(socket: SocketLike): void {
    detach(socket);
    this.socket = null;
    this.socketRoom = null;
    this.welcomed = false;
    this.joined = false;
    this.outbox.markUnsent();
    this.clearJoinLater();
    // Nobody will answer a hint asked on this socket.
    this.answerHints(null);
  }

  /** Schedules the next attempt after a close with `code` (null: no socket could be made). */
  private scheduleRetry(code: number | null, welcomed: boolean): void {
    const { attempt, reconnectReason } = this.state;
    const { wait, reason } = retryAfter(
      { code, welcomed, attempt, reason: reconnectReason },
      this.opts.random,
      this.opts,
    );
    this.clearRetry();
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.open();
    }, wait);
    this.patch({
      status: "reconnecting",
      attempt: attempt + 1,
      retryAt: this.opts.now() + wait,
      reconnectReason: reason,
    });
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** Sends the join again after a pause that grows while the database stays away. */
  private joinLater(): void {
    if (this.joinTimer) return;
    const delay = backoffDelay(this.joinWaits, this.opts.random, this.opts.storageBackoff);
    this.joinWaits += 1;
    this.joinTimer = setTimeout(() => {
      this.joinTimer = null;
      if (this.welcomed && !this.joined) this.sendJoin();
    }, delay);
  }

  private clearJoinLater(): void {
    if (this.joinTimer) clearTimeout(this.joinTimer);
    this.joinTimer = null;
  }

  private receive(data: unknown): void {
    if (typeof data !== "string") return;
    let msg: ServerMsg;
    try {
      msg = JSON.parse(data) as ServerMsg;
    } catch {
      return;
    }
    switch (msg.type) {
      case "welcome":
        return this.onWelcome(msg);
      case "room":
        return this.onRoom(msg);
      case "state":
        return this.onState(msg);
      case "patch":
        return this.onPatch(msg);
      case "ack":
        this.patch({ waitingForDatabase: false });
        return this.outbox.acknowledged(msg.seq, msg.version);
      case "reject":
        // Too fast: the act was not applied. It goes again after a pause, as the same seq.
        if (msg.code === "rate_limited" && this.outbox.resendLater(msg.seq)) return;
        // Not saved, so not played: it is offered again, under a new seq, while it still fits.
        if (msg.code === "storage_unavailable" && this.outbox.heldForStorage(msg.seq))
          return this.patch({ waitingForDatabase: true });
        this.pushNotice("reject", msg.code, msg.message);
        return this.outbox.refused(new ActError(msg.code, msg.message, msg.seq, msg.rule ?? null));
      case "chat":
        return this.addChat([msg]);
      case "chat_history":
        return this.addChat(msg.lines);
      case "hint":
        return this.answerHints({ version: msg.version, action: msg.action ?? null });
      case "error":
        return this.onError(msg.code, msg.message);
    }
  }

  private onWelcome(msg: Extract<ServerMsg, { type: "welcome" }>): void {
    const stored = this.opts.identity.load();
    const token = msg.token ?? stored?.token;
    if (token) this.opts.identity.save({ token, name: msg.name, player_id: msg.player_id });
    this.welcomed = true;
    this.patch({
      status: "online",
      attempt: 0,
      retryAt: null,
      reconnectReason: null,
      me: { player_id: msg.player_id, name: msg.name },
    });
    if (this.state.target) this.sendJoin();
  }

  private onRoom(snapshot: RoomSnapshot): void {
    const target = this.state.target;
    if (!target || snapshot.code !== target.room) return;
    this.clearJoinLater();
    this.joinWaits = 0;
    if (snapshot.match_id !== this.matchId) {
      // A new match (a rematch, or the first one we see) counts versions afresh. Its first
      // state follows this snapshot at once; until it does, the last position stays rather
      // than none, so a page showing a game never sees it vanish under it while the room stays.
      this.matchId = snapshot.match_id;
      this.lastVersion = null;
      this.outbox.moved();
    }
    const firstAnswer = !this.joined;
    this.joined = true;
    if (snapshot.you !== null && snapshot.last_seq !== null) {
      // Another tab or an earlier page load of ours acted in this seat: number above it.
      this.outbox.numberAbove(snapshot.last_seq);
    }
    this.patch({ room: snapshot, joinError: null });
    if (firstAnswer) this.outbox.sendUnsent();
  }

  private onState(state: GameState): void {
    if (!this.state.target) return;
    if (this.lastVersion !== null && state.version <= this.lastVersion) return;
    this.lastVersion = state.version;
    this.patch({ game: state, waitingForDatabase: false });
    this.outbox.moved();
  }

  /** A version as the changes to the state before it (for a `hello` that asked for patches). */
  private onPatch(msg: Extract<ServerMsg, { type: "patch" }>): void {
    const game = this.state.game;
    if (!this.state.target || !game) return;
    if (this.lastVersion !== null && msg.version <= this.lastVersion) return;
    let next: GameState;
    try {
      next = applyStatePatch(game, msg.version, msg.base, msg.ops);
    } catch (e) {
      if (!(e instanceof PatchMismatch)) throw e;
      // Out of step with the server (it never should be): join again from the version we
      // do hold, and the server sends the states from there whole.
      this.lastVersion = game.version;
      this.sendJoin();
      return;
    }
    this.onState(next);
  }

  /** Adds lines the room told us, live or again on a join: each line once, in the room's order. */
  private addChat(lines: ChatLine[]): void {
    const known = new Set(this.state.chat.map((l) => l.id));
    const fresh = lines.filter((l) => !known.has(l.id)).map((l) => ({ ...l, at: this.opts.now() }));
    if (!fresh.length) return;
    const chat = [...this.state.chat, ...fresh]
      .sort((a, b) => a.id - b.id)
      .slice(-this.opts.chatLimit);
    this.patch({ chat });
  }

  private answerHints(answer: HintAnswer | null): void {
    const waiters = this.hintWaiters;
    this.hintWaiters = [];
    for (const w of waiters) w(answer);
  }

  private onError(code: ErrorCode, message: string): void {
    // A refused hint ("no_hint") answers the hint, not the room.
    if (code === "no_hint" && this.hintWaiters.length) return this.answerHints(null);
    if (!this.welcomed && this.opts.badTokenCodes.includes(code)) {
      // The server does not know this token (a wiped database): start a new identity under
      // the same name rather than failing forever.
      const old = this.opts.identity.load();
      this.opts.identity.clear();
      const name = old?.name ?? this.opts.name?.() ?? null;
      this.hello(null, name);
      return;
    }
    if (!this.joined && this.state.target && isJoinError(code)) {
      this.patch({ joinError: { code, message } });
      return;
    }
    if (code === "storage_unavailable") {
      // The same calm notice as for acts, not an error toast. Before the room has answered,
      // it was the join the server could not serve (a room it would resume from the log):
      // that goes again by itself. A command (a match not created, say) is the player's to
      // try again.
      this.patch({ waitingForDatabase: true });
      if (!this.joined && this.state.target) this.joinLater();
      return;
    }
    this.pushNotice("error", code, message);
  }

  private sendJoin(): void {
    const target = this.state.target;
    if (!target) return;
    this.joined = false;
    this.send({ type: "join", room: target.room, role: target.role, version: this.lastVersion });
  }

  private canSendRoomCommands(): boolean {
    return this.welcomed && this.joined && this.socket?.readyState === OPEN;
  }

  private command(msg: ClientMsg): boolean {
    if (!this.canSendRoomCommands()) {
      this.pushNotice("info", "offline", "Not connected right now — try again in a moment.");
      return false;
    }
    this.send(msg);
    return true;
  }

  private send(msg: ClientMsg): void {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify(msg));
  }

  private failPending(code: ClientCode, message: string): void {
    if (!this.outbox.failAll(code, message)) return;
    if (code === "connection_lost") this.pushNotice("error", code, message);
    this.patch({ pendingActs: this.outbox.size });
  }

  private resetRoom(): void {
    this.failPending("left_room", "You left the room before the server answered.");
    this.clearJoinLater();
    this.joinWaits = 0;
    this.joined = false;
    this.lastVersion = null;
    this.matchId = null;
    this.patch({ room: null, game: null, chat: [], joinError: null, waitingForDatabase: false });
  }

  private pushNotice(kind: Notice["kind"], code: Notice["code"], message: string): void {
    const notice: Notice = { id: this.nextId++, kind, code, message };
    this.patch({ notices: [...this.state.notices, notice].slice(-NOTICE_LIMIT) });
  }

  private patch(change: Partial<ConnectionState>): void {
    this.store.set({ ...this.store.get(), ...change });
  }
}

function detach(socket: SocketLike): void {
  socket.onopen = null;
  socket.onmessage = null;
  socket.onclose = null;
  socket.onerror = null;
}

/** Error codes that answer a join (the room page shows them instead of a toast). */
const JOIN_ERRORS: readonly ErrorCode[] = ["room_not_found", "room_full"];

function isJoinError(code: ErrorCode): boolean {
  return JOIN_ERRORS.includes(code);
}

/**
 * The URL of a socket for `room`: `base` with `room=CODE` in its query, which is what a load
 * balancer in front of a cluster hashes on to reach the room's node.
 */
export function roomSocketUrl(base: string, room: string): string {
  const separator = base.includes("?") ? "&" : "?";
  return `${base}${separator}room=${encodeURIComponent(room)}`;
}

/** The WebSocket URL of the server that served this page (without a room: see `roomSocketUrl`). */
export function defaultSocketUrl(location: Location = window.location): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}
