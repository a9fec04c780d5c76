/** What a card slot shows, and its words for screen readers. */
import type { SoulitaireCard } from "../../protocol/soulitaire/SoulitaireCard";
import type { SoulitaireDemon } from "../../protocol/soulitaire/SoulitaireDemon";
import type { SoulitaireFace } from "../../protocol/soulitaire/SoulitaireFace";
import type { SoulitaireLayer } from "../../protocol/soulitaire/SoulitaireLayer";
import type { SoulitaireSymbol } from "../../protocol/soulitaire/SoulitaireSymbol";
import { demonName, faceName } from "./words";

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
