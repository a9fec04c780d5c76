/**
 * Which games have a board. Boards are loaded lazily so each game's code is its own chunk.
 * A game without a board shows its rules page and a notice in the room — never a raw dump.
 *
 * To add a board: create `src/boards/<game>/index.ts` exporting `board: BoardModule<View,
 * Action>` (typed with the generated `src/protocol/<game>/` types) and add a line here:
 *
 *     soulitaire: () => import("./soulitaire").then((m) => m.board),
 */
import type { BoardLoader, BoardModule } from "./contract";

const BOARDS: Record<string, BoardLoader> = {
  demos: () => import("./demos").then((m) => m.board), demos_rigged: () => import("./demos").then((m) => m.board),
  soulitaire: () => import("./soulitaire").then((m) => m.board), soulitaire_rigged: () => import("./soulitaire").then((m) => m.board),
  demon_klondike: () => import("./demon_klondike").then((m) => m.board), demon_klondike_rigged: () => import("./demon_klondike").then((m) => m.board),
  demon_bound: () => import("./demon_bound").then((m) => m.board), demon_bound_rigged: () => import("./demon_bound").then((m) => m.board),
  daemon_dice: () => import("./daemon_dice").then((m) => m.board), daemon_dice_rigged: () => import("./daemon_dice").then((m) => m.board),
};

export function hasBoard(gameId: string): boolean {
  return Object.hasOwn(BOARDS, gameId);
}

/** The board of `gameId`, or null when the game has none yet. */
export async function boardFor(gameId: string): Promise<BoardModule<any, any> | null> {
  const loader = BOARDS[gameId];
  return loader ? loader() : null;
}
