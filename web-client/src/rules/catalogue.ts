/**
 * The five games as the client knows them without asking the server: their names, accents
 * and player-facing rules (from shared/rules/, house choices included). The lobby prefers
 * the server's `GameInfo` for anything both have.
 */
import { daemonDice } from "./daemon_dice";
import { demonBound } from "./demon_bound";
import { demonKlondike } from "./demon_klondike";
import { demos } from "./demos";
import { soulitaire } from "./soulitaire";
import type { CatalogueGame } from "./types";

export type { CatalogueGame } from "./types";

export const CATALOGUE: CatalogueGame[] = [
  soulitaire,
  demonKlondike,
  demonBound,
  demos,
  daemonDice,
];

export function catalogueGame(id: string): CatalogueGame | undefined {
  return CATALOGUE.find((g) => g.id === id);
}

export function seatsText(min: number, max: number): string {
  if (min === max) return min === 1 ? "1 player" : `${min} players`;
  return `${min}–${max} players`;
}

/** The rules page of a game (give a variant's base game, see `baseGame`), or null without one. */
export function rulesHref(gameId: string): string | null {
  return catalogueGame(gameId) ? `/rules/${gameId}` : null;
}
