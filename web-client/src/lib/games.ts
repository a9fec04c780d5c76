/**
 * The lobby's list of games: the client's catalogue (the server's registry, generated), with
 * what this server hosts preferred, and games the catalogue does not know (a server's own)
 * after them.
 */
import type { GameInfo } from "../protocol/GameInfo";
import type { OptionSpec } from "../protocol/OptionSpec";
import { CATALOGUE, catalogueGame, describe } from "../rules/catalogue";

export interface LobbyGame {
  id: string;
  name: string;
  minSeats: number;
  maxSeats: number;
  pitch: string;
  glyph: string;
  hue: number;
  teams: boolean;
  hasRules: boolean;
  /** The server's description, when this server hosts the game. */
  info: GameInfo | null;
}

export function lobbyGames(server: GameInfo[]): LobbyGame[] {
  const known = CATALOGUE.map((c) => ({ c, info: server.find((g) => g.id === c.id) ?? null }));
  const others = server
    .filter((info) => !catalogueGame(info.id))
    .map((info) => ({ c: describe(info), info }));
  return [...known, ...others].map(({ c, info }) => {
    const game = info ? describe(info, c.rules) : c;
    return {
      id: game.id,
      name: game.name,
      minSeats: game.minSeats,
      maxSeats: game.maxSeats,
      pitch: game.pitch,
      glyph: game.glyph,
      hue: game.hue,
      teams: game.teams,
      hasRules: game.rules !== "",
      info,
    };
  });
}

export function gameName(id: string, server: GameInfo[] = []): string {
  return server.find((g) => g.id === id)?.name ?? catalogueGame(id)?.shortName ?? id;
}

/** The option values a new room starts with: every option's default. */
export function defaultOptions(options: OptionSpec[]): Record<string, unknown> {
  return Object.fromEntries(options.map((o) => [o.key, o.default]));
}

/** Only the options that differ from their defaults (what a room summary shows). */
export function changedOptions(
  options: OptionSpec[],
  values: Record<string, unknown>,
): OptionSpec[] {
  return options.filter(
    (o) => o.key in values && JSON.stringify(values[o.key]) !== JSON.stringify(o.default),
  );
}

export function optionValueLabel(option: OptionSpec, value: unknown): string {
  switch (option.kind.type) {
    case "bool":
      return value ? "on" : "off";
    case "int":
      return value === null || value === undefined ? "game default" : String(value);
    case "choice":
      return option.kind.values.find((v) => v.value === value)?.label ?? String(value);
  }
}

/** What a game's final score counts, for the placements table's column ("Score: …"): the
 * server's word for it (`GameInfo.score_unit`), a variant's from the game it plays. */
export function scoreUnit(gameId: string | null | undefined, server: GameInfo[] = []): string {
  const id = gameId ?? "";
  const info = server.find((g) => g.id === id);
  return info?.score_unit || catalogueGame(info?.board ?? id)?.scoreUnit || "the game's own score";
}

/**
 * The game a variant plays (its `GameInfo.board`, as the test server's rigged deals name
 * theirs), or the game itself: its rules, its board, its words.
 */
export function baseGame(gameId: string, server: GameInfo[] = []): string {
  return server.find((g) => g.id === gameId)?.board ?? gameId;
}
