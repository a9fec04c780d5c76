// The boards as people found them in issue 43, in Chromium against the test server's rigged
// games (tests/src/rigged.rs): a drag flicked at full speed lands, a refused drop says why,
// Demon's stock is tappable on a phone, Demon's prompt speaks of no turns, and the end screens
// say plainly how a match ended (DēmoS with nobody elected: no "Defeat" for everyone).
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
import {
  createRoomViaUi,
  gameInfo,
  playDemosViaBoard,
  startMatch,
  waitSeated,
  watchActs,
} from "./flows.mjs";

// Bots take a second per move, so the page's own moves are not raced away under the mouse.
let server;
let browser;
before(async () => {
  server = await startServer({ binary: "pandemonium-test-server", botDelayMs: 1000 });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A drag the way a quick hand does it: press, one jump to the target, release. */
async function flick(page, from, to) {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.mouse.up();
}

/** The page's last act: `{ version }` once acknowledged, `{ error }` when refused. */
function lastAct(page) {
  return waitFor(() => page.evaluate(() => window.__lastAct), {
    message: "the act to be answered",
  });
}

/** A Demon race against one bot on the rigged twin deck, started; the page's seat. */
async function demonRace(page) {
  const game = await gameInfo(server.url, "demon_klondike_rigged");
  await createRoomViaUi(page, { game, seats: 2, bots: [1], options: { Deals: 1 }, name: "Ada" });
  const seat = await waitSeated(page);
  await startMatch(page);
  await page.getByTestId("demon-board").waitFor();
  return seat;
}

test("a drag flicked at full speed lands its move, and a refused drop says why", async () => {
  const ada = await newPerson(browser, server.url);
  const seat = await demonRace(ada.page);
  const board = ada.page.getByTestId("demon-board");
  const mine = board.getByRole("region", { name: "Your layout" });
  // The rigged deal opens with the Ace of spades on the waste.
  await mine.locator('[data-card="AS"]').waitFor();
  await watchActs(ada.page);
  await flick(
    ada.page,
    mine.locator('[data-card="AS"]'),
    board.getByRole("button", { name: "Start a new foundation with an Ace" }),
  );
  const played = await lastAct(ada.page);
  assert.ok(played.version, `the flicked Ace starts a foundation (${JSON.stringify(played)})`);
  // Your own running score shows during the deal: the Ace is a point.
  await waitFor(
    async () => (await board.getByTestId("demon-running").innerText()).endsWith(": 1"),
    { message: "the running score to count the Ace" },
  );

  // The two of spades is next on the waste; a pile that does not take it refuses the drop,
  // and the board says why where the card was let go.
  await mine.locator('[data-card="2S"]').waitFor();
  const { game } = await clientState(ada.page);
  const pile = game.view.players[seat].piles.findIndex(
    (_, p) => !game.legal.some((a) => a.type === "to_pile" && a.card === "2S" && a.pile === p),
  );
  await watchActs(ada.page);
  const sent = await ada.page.evaluate(() => window.__actsSent ?? 0);
  await flick(ada.page, mine.locator('[data-card="2S"]'), mine.locator(`[data-pile="${pile}"]`));
  const refusal = ada.page.getByTestId("drop-refusal");
  await refusal.waitFor();
  assert.match(await refusal.innerText(), /2 of Spades|King/);
  assert.equal(await ada.page.evaluate(() => window.__actsSent ?? 0), sent, "nothing was sent");
  await screenshot(ada.page, "demon_klondike-refused-drop-1280");
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

test("on a phone, Demon's tableau leaves the stock tappable", async () => {
  const ada = await newPerson(browser, server.url, { width: 390, height: 844 });
  await demonRace(ada.page);
  const stock = ada.page.getByTestId("demon-stock");
  await stock.waitFor();
  const box = await stock.boundingBox();
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const onTop = await ada.page.evaluate(
    ({ x, y }) => !!document.elementFromPoint(x, y)?.closest("[data-testid=demon-stock]"),
    centre,
  );
  assert.ok(onTop, "nothing of the tableau lies over the stock's centre");
  await watchActs(ada.page);
  await ada.page.mouse.click(centre.x, centre.y);
  const drawn = await lastAct(ada.page);
  assert.ok(drawn.version, `a tap on the stock draws (${JSON.stringify(drawn)})`);
  await screenshot(ada.page, "demon_klondike-mid-390");
  const width = await ada.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the page fits 390 px (it is ${width} px wide)`);
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

test("Demon's prompt speaks of no turns: everyone plays at once, against the rules' idle clock", async () => {
  const ada = await newPerson(browser, server.url);
  await demonRace(ada.page);
  const prompt = ada.page.getByTestId("turn-prompt");
  await prompt.getByTestId("turn-clock").waitFor();
  const shown = await prompt.innerText();
  assert.doesNotMatch(shown, /turn|waiting/i, `nothing turn-like: ${shown}`);
  assert.match(shown, /Everyone plays at once/);
  assert.match(shown, /\d:\d\d until the deal ends if nobody makes a progress move/);
  const spoken = await prompt.getByTestId("turn-announcement").textContent();
  assert.doesNotMatch(spoken, /turn/i, `nothing turn-like is announced: ${spoken}`);
  assert.equal(
    await ada.page.evaluate(() => document.title.includes("Your turn")),
    false,
    "the tab title does not call for a turn",
  );
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

test('a DēmoS match nobody wins says so plainly: places within the seats, no Defeat, and no second "match is over" under it', async () => {
  const game = await gameInfo(server.url, "demos_rigged_no_winner");
  const ada = await newPerson(browser, server.url);
  const { page } = ada;
  await createRoomViaUi(page, {
    game,
    seats: 4,
    bots: [1, 2, 3],
    options: { Mode: "simplified" },
    name: "Ada",
  });
  assert.equal(await waitSeated(page), 0);
  await startMatch(page);
  await page.getByTestId("demos-board").waitFor();
  const { game: state } = await playDemosViaBoard(page);
  assert.deepEqual(state.outcome.winners, [], "the rigged deal leaves nobody a trio");

  const end = page.getByTestId("end-of-match");
  await end.waitFor();
  assert.equal(await end.getByRole("heading", { level: 2 }).innerText(), "Nobody won the Election");
  assert.match(await end.getByTestId("outcome-summary").innerText(), /nobody presents/i);
  assert.equal(await page.getByText("Defeat").count(), 0, "nobody is told they were defeated");
  const places = await end.locator("tbody tr td:first-child").allInnerTexts();
  assert.equal(places.length, 4);
  const numbers = places.map((p) => Number.parseInt(p, 10));
  assert.ok(numbers.includes(1), `someone is placed first (${places.join(", ")})`);
  assert.ok(
    numbers.every((n) => n >= 1 && n <= 4),
    `no place passes the table's four seats (${places.join(", ")})`,
  );
  // The end screen says the match is over; the turn prompt does not say it a second time
  // beneath it, but does once the end screen is put away to look at the board.
  assert.equal(await page.getByTestId("turn-prompt").count(), 0, "no prompt under the end screen");
  await screenshot(page, "demos-no-winner-end-1280");
  await end.getByRole("button", { name: "Look at the board" }).click();
  const prompt = page.getByTestId("turn-prompt");
  assert.equal(await prompt.locator(".shown").innerText(), "The match is over.");
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

test("a newcomer to Demon Bound! gets a table for company, a bot's pace, and a reason for every dimmed card", async () => {
  const plain = await gameInfo(server.url, "demon_bound");
  const game = await gameInfo(server.url, "demon_bound_rigged");
  const ada = await newPerson(browser, server.url);
  const { page } = ada;
  // "New room" opens at two seats: playing alone is the game card's own quick start.
  await page.goto("/");
  await page.getByRole("button", { name: `New room for ${plain.name}`, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Create a room" });
  assert.equal(await dialog.getByLabel("Players at the table").inputValue(), "2");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });

  await createRoomViaUi(page, { game, seats: 2, bots: [1], name: "Ada" });
  assert.equal(await waitSeated(page), 0);
  // The host picks the bot's pace in the seat list.
  const pace = page.getByLabel("Pace of the bot in seat 2");
  assert.equal(await pace.inputValue(), "normal");
  await pace.selectOption("slow");
  await waitFor(async () => (await clientState(page)).room.seats[1].pace === "slow", {
    message: "the bot's pace to change",
  });
  await startMatch(page);
  const board = page.getByTestId("demon-bound-board");
  await board.waitFor();

  // Setup: only a numbered heart opens; the dimmed 2 of clubs says so when tapped.
  await waitFor(async () => (await clientState(page)).game?.legal.length > 0, {
    message: "the setup choice",
  });
  // A dimmed card is aria-disabled (playwright would wait for it to be enabled); a person's
  // tap reaches it all the same.
  await board.locator('[data-zone=hand] button:has([data-card="2C"])').click({ force: true });
  assert.equal(
    await board.getByTestId("why-not").innerText(),
    "2♣: the opening sacrifice must be a numbered heart.",
  );
  const mine = board.getByRole("article", { name: "Your side of the table" });
  await mine.getByText("Your sacrifice").waitFor();
  assert.match(
    await mine.getByTestId("stain-cost").innerText(),
    /each turn you discard at least 1 card/,
  );
  assert.equal(await board.getByText("Ada's sacrifice").count(), 0, "your own area is yours");
  await screenshot(page, "demon_bound-setup-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "demon_bound-setup-390");
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});
