/**
 * Your-turn signals: what tells a player, who may be looking at another tab, that the table is
 * waiting for them. The tab title and the favicon always change; a sound and a browser
 * notification (only while the tab is hidden) are optional and off by default, kept per
 * browser. The logic here is plain functions so it can be tested without a browser.
 */
import { writable } from "svelte/store";

export interface AttentionSettings {
  /** A short chime when a decision becomes yours. */
  sound: boolean;
  /** A browser notification when a decision becomes yours while the tab is hidden. */
  notify: boolean;
}

export const DEFAULT_SETTINGS: AttentionSettings = { sound: false, notify: false };

const KEY = "pandemonium.attention";

export function loadSettings(
  storage: Storage | undefined = globalThis.localStorage,
): AttentionSettings {
  try {
    const raw = storage?.getItem(KEY);
    if (!raw) return { ...DEFAULT_SETTINGS };
    const parsed = JSON.parse(raw) as Partial<AttentionSettings>;
    return { sound: parsed.sound === true, notify: parsed.notify === true };
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

export function saveSettings(
  settings: AttentionSettings,
  storage: Storage | undefined = globalThis.localStorage,
): void {
  try {
    storage?.setItem(KEY, JSON.stringify(settings));
  } catch {
    /* private mode: the setting lasts for this page only */
  }
}

export const attentionSettings = writable<AttentionSettings>(
  typeof window === "undefined" ? { ...DEFAULT_SETTINGS } : loadSettings(),
);
attentionSettings.subscribe((s) => {
  if (typeof window !== "undefined") saveSettings(s);
});

/** True while a decision is yours: the app's title and favicon follow it. */
export const yourTurn = writable(false);

/** The document title, marked while a decision waits for you. */
export function pageTitle(base: string, yours: boolean): string {
  return yours ? `● Your turn · ${base}` : base;
}

/**
 * A key naming one decision: null while nothing is yours, the board's words for it otherwise.
 * It changes when a decision becomes yours or when one decision follows another, and stays
 * put while the same decision is carried across several states (a solo game where every move
 * is yours, a clock tick), so the signals fire once per decision.
 */
export function decisionKey(yours: boolean, decision: string | null): string | null {
  if (!yours) return null;
  return decision ?? "your turn";
}

/**
 * Whether to announce a decision: only when it became yours (the key changed to a non-null
 * one). The same decision carried across several states is announced once.
 */
export function isNewDecision(previous: string | null, next: string | null): boolean {
  return next !== null && next !== previous;
}

const MARK =
  "%3Ccircle cx='50' cy='14' r='12' fill='%23ffc94a' stroke='%23120b10' stroke-width='3'/%3E";
const ICON_BODY =
  "%3Crect width='64' height='64' rx='14' fill='%23120b10'/%3E%3Cpath d='M14 50 L22 14 L32 30 L42 14 L50 50 Z' fill='none' stroke='%23ff5a3c' stroke-width='5' stroke-linejoin='round'/%3E";

/** The favicon, with a gold dot while a decision waits for you. */
export function faviconHref(yours: boolean): string {
  return `data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 64'%3E${ICON_BODY}${yours ? MARK : ""}%3C/svg%3E`;
}

/** Sets the favicon of the document (creating the link element if the page has none). */
export function setFavicon(yours: boolean, doc: Document = document): void {
  let link = doc.querySelector<HTMLLinkElement>("link[rel~='icon']");
  if (!link) {
    link = doc.createElement("link");
    link.rel = "icon";
    doc.head.appendChild(link);
  }
  const href = faviconHref(yours);
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
}

/** A short two-note chime through Web Audio; silent where audio is unavailable or blocked. */
export function chime(): void {
  const Ctx = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!Ctx) return;
  try {
    const ctx = new Ctx();
    const now = ctx.currentTime;
    [660, 880].forEach((freq, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.14);
      gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.14 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.14 + 0.25);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + i * 0.14);
      osc.stop(now + i * 0.14 + 0.3);
    });
    setTimeout(() => void ctx.close(), 800);
  } catch {
    /* autoplay policy or no device: the title and favicon still say it */
  }
}

/** Whether this browser can show notifications at all. */
export function notificationsSupported(): boolean {
  return typeof globalThis.Notification === "function";
}

/**
 * Asks for permission to notify, once: only when the player turns the setting on (a user
 * gesture), never on page load. Resolves to whether notifications may be shown.
 */
export async function askNotificationPermission(): Promise<boolean> {
  if (!notificationsSupported()) return false;
  if (Notification.permission === "granted") return true;
  if (Notification.permission === "denied") return false;
  return (await Notification.requestPermission()) === "granted";
}

/** A notification for a decision, shown only when the tab is hidden and permission is given. */
export function notifyTurn(body: string, doc: Document = document): void {
  if (!notificationsSupported() || Notification.permission !== "granted" || !doc.hidden) return;
  try {
    const note = new Notification("Your turn · Pandemonium", { body, tag: "pandemonium-turn" });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  } catch {
    /* some browsers only allow notifications from a service worker */
  }
}
