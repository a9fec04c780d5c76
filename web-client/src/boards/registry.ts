/**
 * Which games have a board: every folder here with an `index.ts` exporting `board:
 * BoardModule<View, Action>` (typed with the generated `src/protocol/<game>/` types), named by
 * the game's id. Boards are loaded lazily so each game's code is its own chunk. A game without a
 * board shows its rules page and a notice in the room — never a raw dump. A variant of a game
 * names its board in its `GameInfo.board` instead.
 */
import type { BoardLoader, BoardModule } from "./contract";
import type { GameInfo } from "../protocol/GameInfo";

const FOLDERS = import.meta.glob<{ board: BoardModule }>("./*/index.ts");

const BOARDS: Record<string, BoardLoader> = Object.fromEntries(
  Object.entries(FOLDERS).map(([path, load]) => [
    path.split("/")[1],
    () => load().then((m) => m.board),
  ]),
);

/**
 * The board a game is drawn with: its own, or the one its `GameInfo.board` names (a variant of
 * a game, such as the test server's rigged deals, draws with the game's board; the variants
 * are the server's business and are not listed here).
 */
export function boardId(gameId: string, info?: Pick<GameInfo, "board"> | null): string {
  return info?.board ?? gameId;
}

export function hasBoard(gameId: string, info?: Pick<GameInfo, "board"> | null): boolean {
  return Object.hasOwn(BOARDS, boardId(gameId, info));
}

/** The board of `gameId`, or null when the game has none yet. */
export async function boardFor(
  gameId: string,
  info?: Pick<GameInfo, "board"> | null,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- boards of every game share one registry
): Promise<BoardModule<any, any> | null> {
  const id = boardId(gameId, info);
  const loader = Object.hasOwn(BOARDS, id) ? BOARDS[id] : undefined;
  return loader ? loader() : null;
}
