/**
 * The acts a connection has made that the server has not answered yet, by sequence number.
 * Each act's promise is settled exactly once: by the `ack` or `reject` carrying its seq, or by
 * the connection giving up on it (stopped, room left). An act not on the wire (made offline,
 * or on a socket that dropped) waits for `sendUnsent` after the rejoin and goes with the same
 * seq; one refused `rate_limited` goes again by itself after a pause that doubles each time.
 *
 * An act refused `storage_unavailable` was not played (the server could not save it), but its
 * seq is answered: the server keeps that answer and would give it again to the same seq. So it
 * is *held*, and offered again under a fresh seq once a pause has passed (growing while the
 * refusals go on), but only while the position it was chosen against is still the one the
 * player sees: once the game has moved on, the player's choice may mean something else, and
 * the act is given up. Acts made during that wait are held with it, so they keep their order.
 */
import { backoffDelay, type BackoffOptions } from "./backoff";
import { ActError, type ActResult, type ClientCode } from "./connectionState";

interface PendingAct {
  seq: number;
  action: unknown;
  sent: boolean;
  /** Whether the act ever went on the wire: until then its seq is only this page's count. */
  everSent: boolean;
  /** The position (`OutboxWire.position`) the player saw when making the act. */
  chosenAt: string;
  /** Waiting out the database: it goes, under a fresh seq, when the wait is over. */
  held: boolean;
  /** Times this act was refused `rate_limited` and sent again. */
  retries: number;
  /** The resend waiting out a `rate_limited` refusal. */
  retryTimer: ReturnType<typeof setTimeout> | null;
  resolve: (result: ActResult) => void;
  reject: (error: ActError) => void;
}

/** What the outbox needs of the connection around it. */
export interface OutboxWire {
  /** Whether the room takes acts now (welcomed, joined, the socket open). */
  canSend(): boolean;
  /** Puts one act on the wire. */
  send(seq: number, action: unknown): void;
  /** The number of unanswered acts changed to `pending`. */
  counted(pending: number): void;
  /** The position acts are chosen against now (the match and the version the player sees). */
  position(): string;
  /** `count` held acts were given up: the game moved on while they waited. */
  superseded(count: number): void;
}

export interface RateRetry {
  /** The pause before the first resend; doubled for each one after. */
  retryMs: number;
  /** How many resends before the refusal stands. */
  retries: number;
}

export interface StorageWait {
  /** The pause before held acts are offered again, by how many waits in a row there were. */
  backoff: BackoffOptions;
  random: () => number;
}

/** Why a held act was given up. */
export const MOVED_ON =
  "Your move was not saved, and the game has moved on since: choose again if it still fits.";

export class Outbox {
  private nextSeq = 1;
  private readonly pending = new Map<number, PendingAct>();
  /** While set, the database wait is on: held acts (and new ones) go when it fires. */
  private holdTimer: ReturnType<typeof setTimeout> | null = null;
  /** Waits in a row without an ack: the next pause grows with it. */
  private holds = 0;

  constructor(
    private readonly wire: OutboxWire,
    private readonly rate: RateRetry,
    private readonly storage: StorageWait,
  ) {}

  /** Acts sent or queued and not yet answered. */
  get size(): number {
    return this.pending.size;
  }

  /** Whether acts are waiting out the database. */
  get holding(): boolean {
    return this.holdTimer !== null;
  }

  /** Numbers an act, sends it if the room takes acts now (else it waits), and promises its answer. */
  add(action: unknown): Promise<ActResult> {
    const seq = this.nextSeq++;
    return new Promise<ActResult>((resolve, reject) => {
      const entry: PendingAct = {
        seq,
        action,
        sent: false,
        everSent: false,
        chosenAt: this.wire.position(),
        held: this.holding,
        retries: 0,
        retryTimer: null,
        resolve,
        reject,
      };
      this.pending.set(seq, entry);
      if (!entry.held && this.wire.canSend()) this.sendAct(entry);
      this.wire.counted(this.pending.size);
    });
  }

  /**
   * Numbers new acts above `lastSeq`: another tab or an earlier page load acted in this seat.
   * Acts made before the room said so and never sent are numbered again, oldest first: under
   * a seq the seat has used, the server would answer them with that seq's old answer, unplayed.
   * An act that went on the wire keeps its seq (the server may have applied it).
   */
  numberAbove(lastSeq: number): void {
    this.nextSeq = Math.max(this.nextSeq, lastSeq + 1);
    const stale = [...this.pending.values()]
      .filter((e) => !e.everSent && e.seq <= lastSeq)
      .sort((a, b) => a.seq - b.seq);
    for (const entry of stale) {
      this.pending.delete(entry.seq);
      entry.seq = this.nextSeq++;
      this.pending.set(entry.seq, entry);
    }
  }

  /** The connection dropped: every unanswered act goes again after the rejoin. The server
   * answers a seq it has seen with its original answer and never applies it twice. */
  markUnsent(): void {
    for (const entry of this.pending.values()) entry.sent = false;
  }

  /** Sends every act not on the wire, oldest first (once the room has answered a join). Held
   * acts are not among them: they go when the database wait is over, after the states that
   * follow the join have said whether their position still stands. */
  sendUnsent(): void {
    const unsent = [...this.pending.values()].filter((e) => !e.sent && !e.held);
    unsent.sort((a, b) => a.seq - b.seq);
    for (const entry of unsent) this.sendAct(entry);
  }

  acknowledged(seq: number, version: number): void {
    if (!this.pending.has(seq)) return;
    this.holds = 0;
    this.settle(seq, (p) => p.resolve({ seq, version }));
  }

  refused(error: ActError): void {
    this.settle(error.seq, (p) => p.reject(error));
  }

  /**
   * Schedules an act the server refused as `rate_limited` to go again, with the same seq, after
   * a pause that doubles each time. False when it has been retried enough (the refusal is then
   * shown like any other).
   */
  resendLater(seq: number): boolean {
    const entry = this.pending.get(seq);
    if (!entry || entry.held || entry.retries >= this.rate.retries) return false;
    const delay = this.rate.retryMs * 2 ** entry.retries;
    entry.retries += 1;
    // Unsent: if the connection drops meanwhile, the rejoin sends it with the others.
    entry.sent = false;
    if (entry.retryTimer) clearTimeout(entry.retryTimer);
    entry.retryTimer = setTimeout(() => {
      entry.retryTimer = null;
      if (
        this.pending.get(entry.seq) === entry &&
        !entry.sent &&
        !entry.held &&
        this.wire.canSend()
      )
        this.sendAct(entry);
    }, delay);
    return true;
  }

  /**
   * The server could not save the act with this seq and played nothing: hold it, to be offered
   * again under a fresh seq after the database wait (or given up if the game moves on first).
   * False for a seq this outbox is not waiting on.
   */
  heldForStorage(seq: number): boolean {
    const entry = this.pending.get(seq);
    if (!entry) return false;
    if (entry.retryTimer) clearTimeout(entry.retryTimer);
    entry.retryTimer = null;
    entry.sent = false;
    entry.held = true;
    if (entry.chosenAt !== this.wire.position()) this.giveUpOutdated();
    else this.hold();
    return true;
  }

  /**
   * The position changed (a new version or a new match): the server saved an action, so the
   * database is answering. Held acts chosen against the old position are given up; any held
   * since then go now.
   */
  moved(): void {
    this.giveUpOutdated();
    if (!this.holdTimer) return;
    clearTimeout(this.holdTimer);
    this.holdTimer = null;
    this.holds = 0;
    this.release();
  }

  /** Rejects every unanswered act with the client's own `code`; whether there was any. */
  failAll(code: ClientCode, message: string): boolean {
    this.endHold();
    let failed = false;
    for (const entry of [...this.pending.values()]) {
      this.pending.delete(entry.seq);
      if (entry.retryTimer) clearTimeout(entry.retryTimer);
      entry.reject(new ActError(code, message, entry.seq));
      failed = true;
    }
    return failed;
  }

  /** Starts the database wait, unless one is on (acts refused together wait together). */
  private hold(): void {
    if (this.holdTimer) return;
    const delay = backoffDelay(this.holds, this.storage.random, this.storage.backoff);
    this.holds += 1;
    this.holdTimer = setTimeout(() => {
      this.holdTimer = null;
      this.release();
    }, delay);
  }

  /** The wait is over: held acts still current go, oldest first, each under a fresh seq. If
   * the room does not take acts now (a reconnect), they wait for another round. */
  private release(): void {
    this.giveUpOutdated();
    const held = [...this.pending.values()].filter((e) => e.held).sort((a, b) => a.seq - b.seq);
    if (!held.length) return;
    if (!this.wire.canSend()) return this.hold();
    for (const entry of held) {
      this.pending.delete(entry.seq);
      entry.seq = this.nextSeq++;
      entry.held = false;
      this.pending.set(entry.seq, entry);
      this.sendAct(entry);
    }
  }

  private giveUpOutdated(): void {
    const now = this.wire.position();
    const outdated = [...this.pending.values()].filter((e) => e.held && e.chosenAt !== now);
    for (const entry of outdated) {
      this.pending.delete(entry.seq);
      entry.reject(new ActError("storage_unavailable", MOVED_ON, entry.seq));
    }
    if (!outdated.length) return;
    this.wire.counted(this.pending.size);
    this.wire.superseded(outdated.length);
  }

  private endHold(): void {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    this.holds = 0;
  }

  private sendAct(entry: PendingAct): void {
    entry.sent = true;
    entry.everSent = true;
    this.wire.send(entry.seq, entry.action);
  }

  private settle(seq: number, how: (p: PendingAct) => void): void {
    const entry = this.pending.get(seq);
    if (!entry) return;
    this.pending.delete(seq);
    if (entry.retryTimer) clearTimeout(entry.retryTimer);
    how(entry);
    this.wire.counted(this.pending.size);
  }
}
