import { describe, expect, it } from "vitest";
import {
  decisionKey,
  DEFAULT_SETTINGS,
  faviconHref,
  isNewDecision,
  loadSettings,
  pageTitle,
  saveSettings,
} from "./attention";

function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, v),
  };
}

describe("your-turn signals", () => {
  it("marks the tab title only while a decision is yours", () => {
    expect(pageTitle("Room ABCDEF · Pandemonium", true)).toBe(
      "● Your turn · Room ABCDEF · Pandemonium",
    );
    expect(pageTitle("Room ABCDEF · Pandemonium", false)).toBe("Room ABCDEF · Pandemonium");
  });

  it("adds a dot to the favicon while a decision is yours", () => {
    expect(faviconHref(true)).not.toBe(faviconHref(false));
    expect(faviconHref(true)).toContain("circle");
    expect(faviconHref(false)).not.toContain("circle");
  });

  it("announces a decision once, not on every state that keeps it yours", () => {
    const first = decisionKey(true, "Everyone discards a card face up");
    expect(isNewDecision(null, first)).toBe(true);
    expect(isNewDecision(first, decisionKey(true, "Everyone discards a card face up"))).toBe(false);
    // A solo game: every move is yours and the board names no decision.
    expect(isNewDecision(decisionKey(true, null), decisionKey(true, null))).toBe(false);
  });

  it("announces the next decision when one follows another, or when it becomes yours again", () => {
    const a = decisionKey(true, "Everyone discards a card face up");
    const b = decisionKey(true, "Everyone discards a card face down");
    expect(isNewDecision(a, b)).toBe(true);
    expect(isNewDecision(b, decisionKey(false, "Everyone discards a card face down"))).toBe(false);
    expect(isNewDecision(null, b)).toBe(true);
  });

  it("keeps sound and notifications off by default and remembers the choice", () => {
    const storage = memoryStorage();
    expect(loadSettings(storage)).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toEqual({ sound: false, notify: false });
    saveSettings({ sound: true, notify: false }, storage);
    expect(loadSettings(storage)).toEqual({ sound: true, notify: false });
    storage.setItem("pandemonium.attention", "not json");
    expect(loadSettings(storage)).toEqual(DEFAULT_SETTINGS);
  });
});
