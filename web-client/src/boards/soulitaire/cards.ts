/** What a card slot shows, and its words for screen readers. */
import type { SoulitaireCard } from "../../protocol/soulitaire/SoulitaireCard";
import type { SoulitaireDemon } from "../../protocol/soulitaire/SoulitaireDemon";
import type { SoulitaireFace } from "../../protocol/soulitaire/SoulitaireFace";
import type { SoulitaireLayer } from "../../protocol/soulitaire/SoulitaireLayer";
import type { SoulitaireSymbol } from "../../protocol/soulitaire/SoulitaireSymbol";
import type { SoulitaireSuit } from "../../protocol/soulitaire/SoulitaireSuit";
import type { CardFace, SoulSuit } from "../../pieces/faces";
import { demonName, faceName, SUIT_COLOUR, suitGlyph, suitName } from "./words";

export type Drawn =
  | ({ kind: "ritual" } & SoulitaireFace)
  | { kind: "mimic"; declared: SoulitaireFace | null }
  | { kind: "demon"; name: string; symbols: SoulitaireSymbol[] }
  | { kind: "back" };

export function drawCard(card: SoulitaireCard | null): Drawn {
  if (!card) return { kind: "back" };
  return card.kind === "mimic" ? { kind: "mimic", declared: null } : card;
}

export function drawLayer(layer: SoulitaireLayer): Drawn {
  return layer;
}

export function drawDemon(demon: SoulitaireDemon | null): Drawn {
  return demon ? { kind: "demon", name: demon.name, symbols: demon.symbols } : { kind: "back" };
}

export function drawnLabel(d: Drawn): string {
  switch (d.kind) {
    case "back":
      return "Face-down card";
    case "ritual":
      return faceName(d);
    case "mimic":
      return d.declared ? `Mimic declared the ${faceName(d.declared)}` : "Mimic";
    case "demon":
      return `Demon: ${demonName(d)}`;
  }
}

/** A suit as the shared card draws it: the view's name and glyph, the board's ink. */
function suitLook(suit: SoulitaireSuit): SoulSuit {
  return { name: suitName(suit), glyph: suitGlyph(suit), colour: SUIT_COLOUR[suit] };
}

/** What the shared card component draws for a slot. */
export function cardFace(d: Drawn): CardFace {
  switch (d.kind) {
    case "back":
      return { kind: "back" };
    case "ritual":
      return { kind: "soul", rank: d.rank, suit: suitLook(d.suit) };
    case "mimic":
      return {
        kind: "mimic",
        declared: d.declared && { rank: d.declared.rank, suit: suitLook(d.declared.suit) },
      };
    case "demon":
      return {
        kind: "demon",
        name: d.name,
        symbols: d.symbols.map((s) => ("suit" in s ? { suit: suitLook(s.suit) } : s)),
      };
  }
}
