/**
 * The games as the client knows them without asking the server: the server's registry, as
 * `make typescript` writes it into `src/protocol/` (every game's `GameInfo` and the rules page
 * beside its crate). The lobby prefers the server's `GameInfo` for anything both have.
 */
import { CATALOGUE as REGISTRY } from "../protocol/catalogue";
import type { GameInfo } from "../protocol/GameInfo";
import { RULES_PAGES } from "../protocol/rulesPages";
import type { CatalogueGame } from "./types";

export type { CatalogueGame } from "./types";

/** A game as the client shows it, from the server's description and its rules page. */
export function describe(info: GameInfo, rules = ""): CatalogueGame {
  return {
    id: info.id,
    name: info.name,
    shortName: info.short_name,
    minSeats: info.min_seats,
    maxSeats: info.max_seats,
    pitch: info.description,
    glyph: info.glyph,
    hue: info.hue,
    teams: info.teams,
    scoreUnit: info.score_unit,
    rules,
  };
}

export const CATALOGUE: CatalogueGame[] = REGISTRY.map((info) =>
  describe(info, RULES_PAGES[info.id] ?? ""),
);

export function catalogueGame(id: string): CatalogueGame | undefined {
  return CATALOGUE.find((g) => g.id === id);
}

export function seatsText(min: number, max: number): string {
  if (min === max) return min === 1 ? "1 player" : `${min} players`;
  return `${min}–${max} players`;
}

/** The rules page of a game (give a variant's base game, see `baseGame`), or null without one. */
export function rulesHref(gameId: string): string | null {
  return catalogueGame(gameId)?.rules ? `/rules/${gameId}` : null;
}
