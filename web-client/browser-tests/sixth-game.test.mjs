// A sixth game from its own pieces alone: Race, the platform's real-time test fixture
// (games/core/src/fixture/race.rs), is registered by the test server only (one line in
// tests/src/lib.rs) and drawn by one board folder (src/boards/race/). Nothing else in the client
// names it: the lobby lists it from what the server says of it, the room finds its board by
// its folder, and the end table says what its score counts in the server's words. The real
// server does not offer it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  clientState,
  launchBrowser,
  newPerson,
  screenshot,
  startServer,
  waitFor,
} from "./harness.mjs";
import { createRoomViaUi, gameInfo, startMatch, waitSeated } from "./flows.mjs";

let server;
let browser;
before(async () => {
  // The bot steps every 150 ms: the race lasts long enough (100 moves) for a person to play.
  server = await startServer({ binary: "pandemonium-test-server", botDelayMs: 150 });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The page's seat's moves and tokens, from its state. */
async function mine(page, seat) {
  const view = (await clientState(page)).game?.view;
  return view ? { moves: view.moves[seat], tokens: view.tokens[seat] } : null;
}

test("the real server does not offer the test-only sixth game", async () => {
  const real = await startServer();
  try {
    const games = await (await fetch(`${real.url}/api/games`)).json();
    assert.ok(games.length > 0);
    assert.ok(!games.some((g) => g.id === "race"), games.map((g) => g.id).join(", "));
  } finally {
    await real.stop();
  }
});

test("a sixth game reaches the lobby and is played through its board to the end", async () => {
  const race = await gameInfo(server.url, "race");
  const { page, errors } = await newPerson(browser, server.url);
  await page.goto("/");
  const card = page.getByRole("article", { name: race.name });
  await card.waitFor();
  assert.match(await card.innerText(), new RegExp(race.glyph));
  assert.match(await card.innerText(), /1–8 players/i);

  await createRoomViaUi(page, { game: race, seats: 2, bots: [1], name: "Ada" });
  const seat = await waitSeated(page);
  await startMatch(page);
  const board = page.getByRole("region", { name: "Race" });
  await board.waitFor();
  assert.equal(await page.getByTestId("no-board").count(), 0, "drawn by its own board");

  // Steps always land; a grab may lose its token to the bot, and is then refused by name.
  const before = await mine(page, seat);
  for (let i = 0; i < 3; i++) await board.getByRole("button", { name: "Step" }).click();
  await waitFor(async () => (await mine(page, seat)).moves >= before.moves + 3, {
    message: "three steps to land",
  });
  await board.getByRole("button", { name: /^Grab token \d+$/ }).click();
  await waitFor(
    async () =>
      (await mine(page, seat)).tokens > 0 ||
      (await page.evaluate(() => window.pandemonium.connection().state.pendingActs === 0)),
    { message: "the grab to be answered" },
  );
  await screenshot(page, "sixth-game-race");

  // The bot reaches the goal first; the end table says what a score counts.
  const end = page.getByTestId("end-of-match");
  await end.waitFor({ timeout: 60_000 });
  assert.match(await end.getByTestId("placements-legend").innerText(), /moves made/);
  const outcome = (await clientState(page)).game.outcome;
  assert.equal(outcome.scores.length, 2);
  assert.ok(outcome.scores[seat] >= before.moves + 3, "the person's steps count");
  await screenshot(page, "sixth-game-race-end");
  assert.deepEqual(errors, []);
});
