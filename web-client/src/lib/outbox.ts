/**
 * The acts a connection has made that the server has not answered yet, by sequence number.
 * Each act's promise is settled exactly once: by the `ack` or `reject` carrying its seq, or by
 * the connection giving up on it (stopped, room left). An act not on the wire (made offline,
 * or on a socket that dropped) waits for `sendUnsent` after the rejoin and goes with the same
 * seq; one refused `rate_limited` goes again by itself after a pause that doubles each time.
 */
import { ActError, type ActResult, type ClientCode } from "./connectionState";

interface PendingAct {
  seq: number;
  action: unknown;
  sent: boolean;
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
}

export interface RateRetry {
  /** The pause before the first resend; doubled for each one after. */
  retryMs: number;
  /** How many resends before the refusal stands. */
  retries: number;
}

export class Outbox {
  private nextSeq = 1;
  private readonly pending = new Map<number, PendingAct>();

  constructor(
    private readonly wire: OutboxWire,
    private readonly rate: RateRetry,
  ) {}

  /** Acts sent or queued and not yet answered. */
  get size(): number {
    return this.pending.size;
  }

  /** Numbers an act, sends it if the room takes acts now (else it waits), and promises its answer. */
  add(action: unknown): Promise<ActResult> {
    const seq = this.nextSeq++;
    return new Promise<ActResult>((resolve, reject) => {
      const entry: PendingAct = {
        seq,
        action,
        sent: false,
        retries: 0,
        retryTimer: null,
        resolve,
        reject,
      };
      this.pending.set(seq, entry);
      if (this.wire.canSend()) this.sendAct(entry);
      this.wire.counted(this.pending.size);
    });
  }

  /** Numbers new acts above `lastSeq`: another tab or an earlier page load acted in this seat. */
  numberAbove(lastSeq: number): void {
    this.nextSeq = Math.max(this.nextSeq, lastSeq + 1);
  }

  /** The connection dropped: every unanswered act goes again after the rejoin. The server
   * answers a seq it has seen with its original answer and never applies it twice. */
  markUnsent(): void {
    for (const entry of this.pending.values()) entry.sent = false;
  }

  /** Sends every act not on the wire, oldest first (once the room has answered a join). */
  sendUnsent(): void {
    const unsent = [...this.pending.values()].filter((e) => !e.sent);
    unsent.sort((a, b) => a.seq - b.seq);
    for (const entry of unsent) this.sendAct(entry);
  }

  acknowledged(seq: number, version: number): void {
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
    if (!entry || entry.retries >= this.rate.retries) return false;
    const delay = this.rate.retryMs * 2 ** entry.retries;
    entry.retries += 1;
    // Unsent: if the connection drops meanwhile, the rejoin sends it with the others.
    entry.sent = false;
    if (entry.retryTimer) clearTimeout(entry.retryTimer);
    entry.retryTimer = setTimeout(() => {
      entry.retryTimer = null;
      if (this.pending.get(seq) === entry && !entry.sent && this.wire.canSend())
        this.sendAct(entry);
    }, delay);
    return true;
  }

  /** Rejects every unanswered act with the client's own `code`; whether there was any. */
  failAll(code: ClientCode, message: string): boolean {
    let failed = false;
    for (const entry of [...this.pending.values()]) {
      this.pending.delete(entry.seq);
      if (entry.retryTimer) clearTimeout(entry.retryTimer);
      entry.reject(new ActError(code, message, entry.seq));
      failed = true;
    }
    return failed;
  }

  private sendAct(entry: PendingAct): void {
    entry.sent = true;
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
