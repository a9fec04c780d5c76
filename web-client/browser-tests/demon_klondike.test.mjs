// Demon through its board, in Chromium, against a bot: the test server's
// `demon_klondike_rigged` gives both players the same deck in the same order (see
// tests/src/rigged.rs), so they race for every foundation card. The page plays by double-click
// (to a foundation), drag and drop (to a pile) and the stock button, like a person, until the
// deal ends. For a lost race the test holds back the server's frames to the page until the bot
// has played its two of spades, so the page drops its own onto a foundation that has already
// moved on; the server refuses it and the board snaps the card back with the reason.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  clientState,
  launchBrowser,
  newPerson,
  screenshot,
  startServer,
  statesAfter,
  waitFor,
} from "./harness.mjs";
import { createRoomViaUi, gameInfo, startMatch, waitSeated, watchActs } from "./flows.mjs";

// The bot takes a second per move, so the page can catch it at the same card.
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

/** Routes the page's WebSocket through the test so frames from the server can be held. */
async function holdableSocket(page) {
  const gate = { holding: false, held: [], toPage: null };
  await page.routeWebSocket(/\/ws(\?|$)/, (ws) => {
    const upstream = ws.connectToServer();
    gate.toPage = (m) => ws.send(m);
    upstream.onMessage((m) => (gate.holding ? gate.held.push(m) : ws.send(m)));
    ws.onMessage((m) => upstream.send(m));
  });
  gate.release = () => {
    gate.holding = false;
    for (const m of gate.held.splice(0)) gate.toPage(m);
  };
  return gate;
}

async function drag(page, from, to) {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 10, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}

/** The page's last act: `{ version }` once acknowledged, `{ error }` when refused. */
async function lastAct(page) {
  return waitFor(() => page.evaluate(() => window.__lastAct), {
    message: "the act to be answered",
  });
}

test("a person races a bot through a whole Demon deal on the board, loses a race, and sees the scores", async () => {
  const game = await gameInfo(server.url, "demon_klondike_rigged");
  const ada = await newPerson(browser, server.url);
  const gate = await holdableSocket(ada.page);
  // A real-time game offers no clock per decision, and its table says so.
  await ada.page.goto("/");
  await ada.page.getByRole("button", { name: `New room for ${game.name}` }).click();
  const dialog = ada.page.getByRole("dialog", { name: "Create a room" });
  await dialog.getByText("is played in real time").waitFor();
  assert.equal(await dialog.getByLabel("Time per decision").count(), 0);
  await ada.page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  await createRoomViaUi(ada.page, {
    game,
    seats: 2,
    bots: [1],
    options: { Deals: 1 },
    name: "Ada",
  });
  const seat = await waitSeated(ada.page);
  await ada.page.getByTestId("room-facts").getByText("played in real time").waitFor();
  await startMatch(ada.page);
  const board = ada.page.getByTestId("demon-board");
  await board.waitFor();
  const mine = board.getByRole("region", { name: "Your layout" });
  await screenshot(ada.page, "demon-klondike-1280");

  // A lost race, made certain: once the bot has started a spade foundation and the page its
  // own, both have the two of spades on top of the waste. The test holds the server's frames,
  // waits until the bot's two of spades has landed on one of the two foundations, and drops
  // the page's two of spades (still playable there on the stale board) on that same one.
  const spadeFoundations = (view) =>
    view.foundations.map((f, i) => ({ ...f, i })).filter((f) => f.suit === "spades");
  await waitFor(
    async () => spadeFoundations((await clientState(ada.page)).game.view).length === 1,
    { message: "the bot's Ace of spades" },
  );
  await watchActs(ada.page);
  await mine.locator('[data-card="AS"]').dblclick();
  assert.ok((await lastAct(ada.page)).version, "the page's Ace of spades starts a foundation");
  gate.holding = true;
  // What the page holds now; the held frames (whole states or patches) follow it.
  const held = (await clientState(ada.page)).game;
  const contested = await waitFor(
    () => {
      for (const state of statesAfter(held, gate.held)) {
        const two = spadeFoundations(state.view).find((f) => f.owners.length === 2);
        if (two) return { index: two.i };
      }
      return null;
    },
    { message: "the bot's two of spades" },
  );
  await watchActs(ada.page);
  await drag(
    ada.page,
    mine.locator('[data-card="2S"]'),
    board.locator(`[data-foundation="${contested.index}"]`),
  );
  await waitFor(() => gate.held.some((m) => String(m).includes('"type":"reject"')), {
    message: "the refusal",
  });
  gate.release();
  assert.deepEqual(await lastAct(ada.page), { error: "illegal_action", rule: "foundation_moved" });
  await board
    .getByTestId("demon-bounce")
    .getByText(/got there first/)
    .waitFor();
  await screenshot(ada.page, "demon-klondike-lost-race");
  await screenshot(ada.page, "demon_klondike-mid-1280");
  // The card stayed home: it is still on the page's waste, playable on the other foundation.
  await mine.locator('[data-card="2S"]').waitFor();

  let dragged = false;
  let missedClicks = 0;
  let actsSent = await ada.page.evaluate(() => window.__actsSent ?? 0);
  for (let step = 0; step < 300; step++) {
    const { game: state } = await clientState(ada.page);
    if (state.outcome) break;
    const legal = state.legal;
    if (!state.to_act.includes(seat)) {
      await ada.page.waitForTimeout(100);
      continue;
    }
    await watchActs(ada.page);
    const toFoundation = legal.find((a) => a.type === "to_foundation");
    // Moves between piles only from the waste (after one drag of anything): shuffling runs
    // between piles, as a King between empty piles, would never end.
    const wasteTop = state.view.players[seat].fan.at(-1);
    const toPile = legal.find((a) => a.type === "to_pile" && (!dragged || a.card === wasteTop));
    if (toFoundation) {
      await mine.locator(`[data-card="${toFoundation.card}"]`).dblclick();
    } else if (toPile && !dragged) {
      await drag(
        ada.page,
        mine.locator(`[data-card="${toPile.card}"]`),
        mine.locator(`[data-pile="${toPile.pile}"]`),
      );
      dragged = true;
    } else if (toPile) {
      await mine.locator(`[data-card="${toPile.card}"]`).click();
      await mine.locator(`[data-pile="${toPile.pile}"] .pile-slot`).click({ force: true });
    } else if (
      legal.some((a) => a.type === "draw" || a.type === "recycle") &&
      state.view.players[seat].idle_passes < 2
    ) {
      await board.getByTestId("demon-stock").click();
    } else {
      await board.getByRole("button", { name: "We're stuck" }).click();
    }
    const result = await lastAct(ada.page).catch(async (e) => {
      // The bot plays at the same time: a card it moved can leave the table under a click,
      // and then no act is sent at all. Look at the table again (a few times at most); an
      // act that was sent must be answered.
      const sent = await ada.page.evaluate(() => window.__actsSent ?? 0);
      if (sent === actsSent && ++missedClicks <= 5) return null;
      await screenshot(ada.page, "demon-klondike-stuck-step");
      throw new Error(`${e.message} at step ${step}: legal ${JSON.stringify(legal)}`);
    });
    actsSent = await ada.page.evaluate(() => window.__actsSent ?? 0);
    if (result?.error) assert.equal(result.rule, "foundation_moved", "only a lost race is refused");
  }

  const end = await waitFor(async () => (await clientState(ada.page)).game?.outcome, {
    timeout: 180_000,
    message: "the end of the deal",
  });
  assert.ok(end.scores.length === 2);
  const scores = board.getByTestId("demon-scores");
  await scores.waitFor();
  assert.match(await scores.innerText(), /Total/);
  await ada.page.getByTestId("end-of-match").waitFor();
  await screenshot(ada.page, "demon_klondike-end-1280");
  await screenshot(ada.page, "demon-klondike-scores-1280");
  await ada.page.setViewportSize({ width: 390, height: 844 });
  await screenshot(ada.page, "demon-klondike-390");
  await screenshot(ada.page, "demon_klondike-end-390");
  const width = await ada.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the page fits 390 px (it is ${width} px wide)`);
  assert.deepEqual(ada.errors, []);
});
