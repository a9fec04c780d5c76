/**
 * Reading the engine's legal list (`state.legal`, complete) into the choices the board offers.
 * The board never builds an action the list does not hold: every control is derived from here
 * and every send goes through {@link findLegal}.
 */
import type { Card } from "../../protocol/demos/Card";
import type { DemosAction } from "../../protocol/demos/DemosAction";
import type { Suit } from "../../protocol/demos/Suit";
import type { Take } from "../../protocol/demos/Take";
import { sameTake } from "./cards";

type Of<T extends DemosAction["type"]> = Extract<DemosAction, { type: T }>;

export function ofType<T extends DemosAction["type"]>(legal: DemosAction[], type: T): Of<T>[] {
  return legal.filter((a): a is Of<T> => a.type === type);
}

export function has(legal: DemosAction[], type: DemosAction["type"]): boolean {
  return legal.some((a) => a.type === type);
}

/** The action of `legal` equal to `wanted`, or null: what is actually sent. */
export function findLegal(legal: DemosAction[], wanted: DemosAction): DemosAction | null {
  const key = JSON.stringify(canonical(wanted));
  return legal.find((a) => JSON.stringify(canonical(a)) === key) ?? null;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export interface DiscardChoices {
  kind: "public_discard" | "secret_discard" | "unanimous_discard" | null;
  keepHand: boolean;
  /** Each card that may be discarded, with the replacements open to it (empty for a public discard). */
  cards: Map<Card, Take[]>;
}

export function discardChoices(legal: DemosAction[]): DiscardChoices {
  const cards = new Map<Card, Take[]>();
  let kind: DiscardChoices["kind"] = null;
  for (const a of legal) {
    if (a.type === "public_discard") {
      kind = a.type;
      if (!cards.has(a.card)) cards.set(a.card, []);
    } else if (a.type === "secret_discard" || a.type === "unanimous_discard") {
      kind = a.type;
      const takes = cards.get(a.card) ?? [];
      if (!takes.some((t) => sameTake(t, a.take))) takes.push(a.take);
      cards.set(a.card, takes);
    }
  }
  return { kind, keepHand: has(legal, "keep_hand"), cards };
}

export interface MediaChoices {
  /** Target seat → face-down positions → the suits that may be named. */
  targets: Map<number, Map<number, Suit[]>>;
}

export function mediaChoices(legal: DemosAction[]): MediaChoices {
  const targets = new Map<number, Map<number, Suit[]>>();
  for (const a of ofType(legal, "media")) {
    const positions = targets.get(a.target) ?? new Map<number, Suit[]>();
    const suits = positions.get(a.position) ?? [];
    if (!suits.includes(a.suit)) suits.push(a.suit);
    positions.set(a.position, suits);
    targets.set(a.target, positions);
  }
  return { targets };
}

/** The members each drawn figure may go to (by position in drawing order), and the default. */
export function allocationChoices(legal: DemosAction[]): {
  members: number[][];
  fallback: number[] | null;
} {
  const all = ofType(legal, "allocate").map((a) => a.to);
  const members: number[][] = [];
  for (const to of all) {
    to.forEach((seat, i) => {
      members[i] ??= [];
      if (!members[i].includes(seat)) members[i].push(seat);
    });
  }
  return { members, fallback: all[0] ?? null };
}
