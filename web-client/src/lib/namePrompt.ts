/**
 * "Pick a display name once": any page that needs an identity awaits `ensureIdentity()`, which
 * opens the name dialog (rendered by App) only when the browser has no saved identity.
 */
import type { Identity } from "./identity";
import { identity } from "./session";
import { createStore, type Readable } from "./store";

interface PromptState {
  open: boolean;
  /** Why the dialog opened (shown under its title). */
  reason: string | null;
}

const promptValue = createStore<PromptState>({ open: false, reason: null });
export const namePrompt: Readable<PromptState> = promptValue;

let waiters: ((id: Identity | null) => void)[] = [];

function current(): Identity | null {
  let value: Identity | null = null;
  identity.subscribe((v) => (value = v))();
  return value;
}

export function ensureIdentity(reason: string | null = null): Promise<Identity | null> {
  const existing = current();
  if (existing) return Promise.resolve(existing);
  return openNamePrompt(reason);
}

export function openNamePrompt(reason: string | null = null): Promise<Identity | null> {
  promptValue.set({ open: true, reason });
  return new Promise((resolve) => waiters.push(resolve));
}

/** Called by the dialog when it closes: with the new identity, or null if dismissed. */
export function closeNamePrompt(result: Identity | null): void {
  promptValue.set({ open: false, reason: null });
  const pending = waiters;
  waiters = [];
  for (const resolve of pending) resolve(result ?? current());
}
