// Demon Bound! through its board, in Chromium: a two-seat match, the person in seat 1 against
// the bot in seat 2, on a rigged deal (the test server's `demon_bound_rigged`, see
// tests/src/rigged.rs; capped at four rounds). The person sacrifices 9♥ at setup (the high
// sacrifice: they go first), summons 8♠ onto the bot's sacrifice, binds the 10♠ the bot sends
// back with 10♣, then casts the Jack of diamonds (Treasure Scrying), peeks at the bot's hand
// and takes 9♦; then plays on to the end. Every game action is a click on the board.
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
import { createRoomViaUi, gameInfo, landed, startMatch, waitSeated, watchActs } from "./flows.mjs";

/** The page at a desk's width and a phone's, as `<name>-1280.png` and `<name>-390.png`. */
async function shots(page, name) {
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(250);
  await screenshot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 860 });
}

let server;
let browser;
before(async () => {
  server = await startServer({ binary: "pandemonium-test-server" });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test("a person plays a rigged two-player Demon Bound! match through the board: a summon, a bind and a Treasure Scrying", async () => {
  const game = await gameInfo(server.url, "demon_bound_rigged");
  const ada = await newPerson(browser, server.url);
  const { page } = ada;
  await createRoomViaUi(page, { game, seats: 2, bots: [1], name: "Ada" });
  assert.equal(await waitSeated(page), 0);
  await startMatch(page);
  const board = page.getByTestId("demon-bound-board");
  await board.waitFor();
  await watchActs(page);
  const prompt = page.getByTestId("demon-bound-prompt");

  /** Waits until the person has something to do in `step`, and returns the state. */
  async function myMove(step) {
    return waitFor(
      async () => {
        const s = await clientState(page);
        const g = s.game;
        return g && g.legal.length > 0 && g.view.phase.step === step ? s : null;
      },
      { message: `the person's ${step}` },
    );
  }
  /** Clicks a control that sends an action and waits for that action to land. */
  async function send(control, what) {
    await page.evaluate(() => (window.__lastAct = null));
    await control.click();
    await landed(page, what);
  }
  const handCard = (card) => board.locator(`[data-zone=hand] button:has([data-card="${card}"])`);
  async function playCard(card, button) {
    await handCard(card).click();
    await send(prompt.getByRole("button", { name: button }), `${card}: ${button}`);
  }
  async function discard(cards) {
    await myMove("discard");
    for (const card of cards) await handCard(card).click();
    const confirm = prompt.getByTestId("discard");
    assert.match(await confirm.innerText(), /^Discard /);
    await send(confirm, `discard of ${cards.join(" ")}`);
  }

  // Setup: the secret choice, made with the 9 of hearts.
  await myMove("setup");
  await playCard("9H", "Sacrifice 9♥");

  // Turn 1: summon 8♠ onto the bot's 2♥ (2 < 8: it stays before the bot).
  let state = await myMove("play");
  assert.deepEqual(state.game.view.players[0].sacrifice, ["9H"]);
  await playCard("8S", "Summon 8♠ onto Bot 2's sacrifice");
  await discard(["2C"]);

  // The bot summons 10♠ onto Ada's 9♥ (9 < 10): Ada binds it with 10♣.
  state = await myMove("play");
  assert.deepEqual(state.game.view.players[0].threats, ["10S"]);
  assert.equal(state.game.view.active_threat, "10S");
  // The room's action log tells it in words.
  await page.getByText("Bot 2 summoned 10♠ onto Ada's sacrifice").first().waitFor();
  await prompt.getByText("Your active threat").waitFor();
  await playCard("10C", "Bind 10♠ with 10♣");
  state = await clientState(page);
  assert.deepEqual(state.game.view.players[0].bound, ["10S"]);
  await discard(["3C"]);

  // Turn 3: Treasure Scrying on the bot's hand, taking the 9 of diamonds.
  await myMove("play");
  await playCard("JD", "Cast J♦ (Treasure Scrying)");
  await send(prompt.getByRole("button", { name: "Peek at Bot 2's hand" }), "peek");
  const peek = board.getByTestId("peek");
  await peek.waitFor();
  assert.ok(
    (
      await peek.locator("[data-card]").evaluateAll((els) => els.map((e) => e.dataset.card))
    ).includes("9D"),
  );
  await send(prompt.getByRole("button", { name: "Take 9♦" }), "theft");
  state = await clientState(page);
  assert.ok(state.game.view.players[0].hand.includes("9D"));
  await page.getByText("Ada took 9♦ from Bot 2").first().waitFor();

  await screenshot(page, "demon_bound-mid-1280");
  await screenshot(page, "demon-bound-player-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(250);
  await screenshot(page, "demon_bound-mid-390");
  await screenshot(page, "demon-bound-player-390");
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  assert.ok(overflow <= 0, `the board is ${overflow}px wider than 390px`);
  await page.setViewportSize({ width: 1280, height: 860 });

  // Play on to the end (four rounds): end each card play, discard the fewest cards, send any
  // demon to the bot.
  const deadline = Date.now() + 30_000;
  for (;;) {
    assert.ok(Date.now() < deadline, "the match ends in time");
    const s = await clientState(page);
    if (s.game?.outcome) break;
    if (!s.game || s.game.legal.length === 0) {
      await page.waitForTimeout(40);
      continue;
    }
    const step = s.game.view.phase.step;
    if (step === "discard") {
      const least = Math.min(...s.game.legal.map((a) => a.cards.length));
      const buttons = board.locator("[data-zone=hand] button");
      for (let i = 0; i < least; i++) await buttons.nth(i).click();
      await send(prompt.getByTestId("discard"), step);
    } else if (step === "play") {
      await send(prompt.getByRole("button", { name: "End the card play" }), step);
    } else if (step === "spell") {
      await send(prompt.getByRole("button", { name: "End the spell" }), step);
    } else {
      await send(prompt.getByRole("button").first(), step);
    }
  }
  const end = await clientState(page);
  assert.equal(end.game.view.phase.step, "over");
  await page.getByTestId("end-of-match").waitFor();
  await shots(page, "demon_bound-end");
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});
