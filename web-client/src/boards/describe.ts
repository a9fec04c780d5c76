/**
 * Words for an action when no board can describe it (a game whose board has not landed yet):
 * the action's own field names read as a sentence, e.g. `{"type":"move_card","from":3}`
 * becomes "move card — from 3". Never a JSON dump.
 */
import type { SeatLabel } from "./contract";

function words(key: string): string {
  return key
    .replace(/[_-]+/g, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .trim();
}

function value(v: unknown, depth: number): string {
  if (v === null || v === undefined) return "none";
  if (typeof v === "string") return words(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return v.length ? v.map((x) => value(x, depth + 1)).join(", ") : "nothing";
  if (typeof v === "object") {
    if (depth > 1) return "…";
    return phrase(v as Record<string, unknown>, depth + 1);
  }
  return "";
}

function phrase(obj: Record<string, unknown>, depth: number): string {
  const entries = Object.entries(obj);
  const tag = entries.find(([k, v]) => (k === "type" || k === "kind") && typeof v === "string");
  const rest = entries.filter((e) => e !== tag);
  const head = tag ? words(String(tag[1])) : "";
  const parts = rest.map(([k, v]) => `${words(k)} ${value(v, depth)}`);
  if (!head) return parts.join(", ");
  return parts.length ? `${head} (${parts.join(", ")})` : head;
}

export function genericActionWords(action: unknown): string {
  if (typeof action === "string") return words(action);
  if (action && typeof action === "object" && !Array.isArray(action)) {
    const entries = Object.entries(action as Record<string, unknown>);
    // serde's externally tagged enums: {"MoveCard": {...}} or {"move_card": {...}}
    if (entries.length === 1 && !["type", "kind"].includes(entries[0][0])) {
      const [k, v] = entries[0];
      const inner =
        v && typeof v === "object" ? phrase(v as Record<string, unknown>, 1) : value(v, 1);
      return inner ? `${words(k)} (${inner})` : words(k);
    }
    return phrase(action as Record<string, unknown>, 0);
  }
  return value(action, 0);
}

export function seatName(seat: number | null, seats: SeatLabel[]): string {
  if (seat === null) return "Someone";
  return seats.find((s) => s.seat === seat)?.name ?? `Seat ${seat + 1}`;
}

export function describeWith(
  describe: ((action: unknown, seat: number, seats: SeatLabel[]) => string) | undefined,
  action: unknown,
  seat: number,
  seats: SeatLabel[],
): string {
  if (describe) return describe(action, seat, seats);
  return `${seatName(seat, seats)}: ${genericActionWords(action)}`;
}
