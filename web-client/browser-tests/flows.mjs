// UI steps shared by the browser tests.
import { pickName, waitFor, clientState } from "./harness.mjs";

/** Chooses the game the tests play: PANDEMONIUM_TEST_GAME, else one that fits `seats`. */
export async function chooseGame(baseURL, { minSeats = 1 } = {}) {
  const games = await (await fetch(`${baseURL}/api/games`)).json();
  const wanted = process.env.PANDEMONIUM_TEST_GAME;
  if (wanted) return games.find((g) => g.id === wanted) ?? null;
  const fits = games.filter((g) => g.max_seats >= minSeats);
  // Soulitaire first (single seat, finishes fast), then the smallest table.
  return fits.find((g) => g.id === "soulitaire" && minSeats <= 1) ?? fits.sort((a, b) => a.min_seats - b.min_seats)[0] ?? null;
}

/**
 * Creates a room through the lobby's dialog: `seats` seats, seat 1 for the creator, the seats
 * listed in `bots` for bots, the rest for friends. Returns the room code.
 */
export async function createRoomViaUi(page, { game, seats, bots = [], name = "Ada", isPublic = false }) {
  await page.goto("/");
  await page.getByRole("button", { name: `New room for ${game.name}` }).click();
  const dialog = page.getByRole("dialog", { name: "Create a room" });
  await dialog.waitFor();
  if (game.min_seats !== game.max_seats) await dialog.getByLabel("Players at the table").selectOption(String(seats));
  for (const seat of bots) {
    await dialog.getByRole("radiogroup", { name: `Seat ${seat + 1}` }).getByText("Bot").click();
  }
  if (isPublic) await dialog.getByLabel("List this room in the lobby").check();
  await dialog.getByRole("button", { name: "Create room" }).click();
  // First visit: the name dialog opens before the room is created.
  const nameDialog = page.getByRole("dialog", { name: /call you|Change your name/ });
  if (await nameDialog.isVisible().catch(() => false)) await pickName(page, name);
  else {
    await Promise.race([
      page.waitForURL(/\/r\/[A-Z0-9]{6}$/, { timeout: 10_000 }),
      nameDialog.waitFor({ timeout: 10_000 }).then(() => pickName(page, name)),
    ]);
  }
  await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  return new URL(page.url()).pathname.slice(3);
}

/** Waits until the page sits in a seat of the room and returns that seat. */
export async function waitSeated(page) {
  const found = await waitFor(async () => {
    const s = await clientState(page);
    return s.room && s.room.you !== null ? { seat: s.room.you } : null;
  }, { message: "a seat" });
  return found.seat;
}

/** Host: readies up and starts the match from the room page. */
export async function startMatch(page) {
  await page.getByRole("button", { name: "Start the match" }).click();
  await waitFor(async () => (await clientState(page)).game !== null, { message: "the first state" });
}

/**
 * Plays the page's seat through the protocol client until the match ends (boards are not
 * required): whenever the seat has legal actions, it sends the first one. `onStep` runs after
 * each acknowledged action and may return "stop" to pause.
 */
export async function playUntilOver(page, { limit = 5000, onStep } = {}) {
  for (let i = 0; i < limit; i++) {
    const state = await clientState(page);
    if (state.game?.outcome) return state;
    if (state.status === "online" && state.game && state.game.legal.length && state.room?.you !== null) {
      const result = await page.evaluate(async () => {
        const conn = window.pandemonium.connection();
        try {
          await conn.act(conn.state.game.legal[0]);
          return "ok";
        } catch (e) {
          return e.code;
        }
      });
      if (result === "ok" && onStep && (await onStep(i)) === "stop") return clientState(page);
    } else {
      await page.waitForTimeout(50);
    }
  }
  throw new Error(`the match did not end within ${limit} steps`);
}
