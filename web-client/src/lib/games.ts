/** The lobby's list of games: the client's catalogue, completed by what the server hosts. */
import type { GameInfo } from "../protocol/GameInfo";
import type { OptionSpec } from "../protocol/OptionSpec";
import { CATALOGUE, catalogueGame } from "../rules/catalogue";

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
  const list: LobbyGame[] = CATALOGUE.map((c) => {
    const info = server.find((g) => g.id === c.id) ?? null;
    return {
      id: c.id,
      name: info?.name ?? c.name,
      minSeats: info?.min_seats ?? c.minSeats,
      maxSeats: info?.max_seats ?? c.maxSeats,
      pitch: info?.description || c.pitch,
      glyph: c.glyph,
      hue: c.hue,
      teams: info?.teams ?? c.teams,
      hasRules: true,
      info,
    };
  });
  for (const info of server) {
    if (catalogueGame(info.id)) continue;
    list.push({
      id: info.id,
      name: info.name,
      minSeats: info.min_seats,
      maxSeats: info.max_seats,
      pitch: info.description,
      glyph: "✦",
      hue: 40,
      teams: info.teams,
      hasRules: false,
      info,
    });
  }
  return list;
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

/** What a game's final score counts, for the placements table's column ("Score: …"). */
const SCORE_UNITS: Record<string, string> = {
  demos: "cumulative points from the rounds",
  soulitaire: "demons left in the Demon Stack (fewer is a better title)",
  demon_bound: "treasure (wealth) held at the end",
  demon_klondike: "points summed over the deals",
  daemon_dice: "healthy parts of the daemon",
};

export function scoreUnit(gameId: string | null | undefined): string {
  return SCORE_UNITS[gameId ?? ""] ?? "the game's own score";
}

/**
 * The game a variant plays (its `GameInfo.board`, as the test server's rigged deals name
 * theirs), or the game itself: its rules, its board, its words.
 */
export function baseGame(gameId: string, server: GameInfo[] = []): string {
  return server.find((g) => g.id === gameId)?.board ?? gameId;
}
