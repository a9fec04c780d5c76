// Soulitaire through its board, in Chromium: a rigged deal (the test server's
// `soulitaire_rigged`, see tests/src/rigged.rs) guarantees a Mimic and a Sacrifice at the start;
// the test declares the Mimic with the picker (by keyboard), runs the guided Sacrifice
// (foundation, one card per symbol, order), tries an illegal drop, then follows the hint (the
// server's solver) until the match ends. Everything is done through the board's controls.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  clientState,
  launchBrowser,
  newPerson,
  pickName,
  screenshot,
  startServer,
  waitFor,
} from "./harness.mjs";
import { createRoomViaUi, startMatch, waitSeated } from "./flows.mjs";

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

/** Waits until every action the page sent has been answered and the board is idle. */
async function settled(page) {
  await waitFor(
    () =>
      page.evaluate(() => {
        const s = window.pandemonium.connection().state;
        return s.pendingActs === 0 && s.status === "online";
      }),
    { message: "the actions to be answered" },
  );
  await page.waitForTimeout(60);
}

async function version(page) {
  return (await clientState(page)).game?.version ?? -1;
}

async function advanced(page, from, what) {
  await waitFor(
    async () => {
      const s = await clientState(page);
      return s.game && (s.game.version > from || s.game.outcome);
    },
    { message: what },
  );
  await settled(page);
}

/** Drags `from` onto `to` with the mouse (pointer events, as a person would). */
async function drag(page, from, to) {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 10, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}

async function declareInPicker(page) {
  const picker = page.getByRole("dialog", { name: "Declare the Mimic" });
  await picker.waitFor();
  const declare = picker.getByRole("button", { name: /^Declare the / });
  const label = await declare.innerText();
  await declare.click();
  await picker.waitFor({ state: "hidden" });
  return label;
}

/**
 * The guided Sacrifice once the demon lies on its foundation: every card that can be offered,
 * first to last (the first symbol when a card matches several), then the order with the last
 * card moved one place earlier, then placing them.
 */
async function offerEverything(page, shots) {
  const board = page.getByTestId("soulitaire-board");
  const panel = page.getByTestId("sacrifice-panel");
  await panel.waitFor();
  let picked = 0;
  if (shots) {
    // Pick the card the hint suggests, then ask again: the hint must move on to another card
    // (or to placing the picks), never name the card already chosen.
    const said = page.getByTestId("soulitaire-message");
    await page.getByTestId("hint").click();
    await waitFor(async () => /^Hint: /.test(await said.innerText()), {
      message: "a hint during the sacrifice",
    });
    const hinted = board.locator("[data-testid^=card-][data-hinted]");
    if (await hinted.count()) {
      const id = await hinted.getAttribute("data-testid");
      await hinted.click();
      const ask = panel.getByRole("group", { name: /Which symbol/ });
      if (await ask.isVisible().catch(() => false)) await ask.getByRole("button").first().click();
      if (
        await page
          .getByRole("dialog", { name: "Declare the Mimic" })
          .isVisible()
          .catch(() => false)
      )
        await declareInPicker(page);
      picked++;
      await page.getByTestId("hint").click();
      await page.waitForTimeout(300);
      await waitFor(async () => /^Hint: /.test(await said.innerText()), {
        message: "a second hint during the sacrifice",
      });
      const again = board.locator("[data-testid^=card-][data-hinted]");
      if (await again.count())
        assert.notEqual(
          await again.getAttribute("data-testid"),
          id,
          `the hint names the card already chosen: ${await said.innerText()}`,
        );
    }
  }
  for (let i = 0; i < 8; i++) {
    const card = board.locator("[data-offerable]").first();
    if (!(await card.count())) break;
    await card.click();
    const ask = panel.getByRole("group", { name: /Which symbol/ });
    if (await ask.isVisible().catch(() => false)) await ask.getByRole("button").first().click();
    if (
      await page
        .getByRole("dialog", { name: "Declare the Mimic" })
        .isVisible()
        .catch(() => false)
    )
      await declareInPicker(page);
    picked++;
  }
  if (shots) await screenshot(page, "soulitaire-sacrifice-1280");
  const before = await version(page);
  const next = panel.getByRole("button", { name: "Next: the order" });
  if (await next.count()) {
    await next.click();
    const order = panel.getByRole("list", { name: "Placing order" });
    const rows = order.getByRole("listitem");
    const count = await rows.count();
    assert.ok(count >= 2);
    const lastBefore = await rows.nth(count - 1).innerText();
    await rows
      .nth(count - 1)
      .getByRole("button", { name: /earlier$/ })
      .click();
    assert.match(await rows.nth(count - 1).innerText(), /new top/);
    assert.notEqual(await rows.nth(count - 1).innerText(), lastBefore, "the order changed");
    if (shots) {
      await screenshot(page, "soulitaire-sacrifice-order-1280");
      await page.setViewportSize({ width: 360, height: 780 });
      await screenshot(page, "soulitaire-sacrifice-order-360");
      await page.setViewportSize({ width: 1280, height: 860 });
    }
    await panel.getByRole("button", { name: /^Place the \d+ cards$/ }).click();
  } else if (picked === 1) {
    await panel.getByRole("button", { name: /^Place the / }).click();
  } else {
    await panel
      .getByRole("button", { name: /End without offering cards|Offer no more cards/ })
      .click();
  }
  await advanced(page, before, "the sacrifice to be placed");
  await panel.waitFor({ state: "hidden" });
  return picked;
}

test("a rigged Soulitaire match is played through the board to its end, with a Mimic declaration and a guided Sacrifice", async (t) => {
  const games = await (await fetch(`${server.url}/api/games`)).json();
  const game = games.find((g) => g.id === "soulitaire_rigged");
  assert.ok(game, "the test server hosts soulitaire_rigged");

  const ada = await newPerson(browser, server.url);
  const { page } = ada;
  const code = await createRoomViaUi(page, { game, seats: 1, name: "Ada" });
  await waitSeated(page);
  await startMatch(page);
  // A spectator follows the match: told about Ada by name, never as "you".
  const cy = await newPerson(browser, server.url);
  await cy.page.goto(`/r/${code}?watch`);
  await pickName(cy.page, "Cy");
  await cy.page.getByTestId("soulitaire-board").waitFor();
  const board = page.getByTestId("soulitaire-board");
  await board.waitFor();
  await settled(page);
  await screenshot(page, "soulitaire-start-1280");
  await page.setViewportSize({ width: 360, height: 780 });
  await screenshot(page, "soulitaire-start-360");
  await page.setViewportSize({ width: 1280, height: 860 });

  // The Mimic, by keyboard: Enter on the card, then on a highlighted foundation, then the
  // picker's declaration.
  const mimic = board.locator("[data-mimic][data-movable]").first();
  assert.equal(await mimic.count(), 1, "the rigged deal shows a Mimic that can move");
  await mimic.focus();
  await page.keyboard.press("Enter");
  const target = board.locator("button[data-target]").first();
  await target.waitFor();
  await target.focus();
  await page.keyboard.press("Enter");
  await page.getByRole("dialog", { name: "Declare the Mimic" }).waitFor();
  await screenshot(page, "soulitaire-mimic-picker-1280");
  let v = await version(page);
  const declared = await declareInPicker(page);
  await advanced(page, v, "the Mimic move");
  assert.match(declared, /^Declare the .+ of .+$/);

  // The Sacrifice: the demon, then a foundation sharing a symbol, then the guided offers.
  await page.getByTestId("sacrifice-button").click();
  await board.locator("button[data-target]").first().click();
  const offered = await offerEverything(page, true);
  assert.ok(offered >= 2, `the sacrifice took ${offered} cards`);

  // An illegal drop snaps back and says why.
  const movable = board.locator("[data-movable]").first();
  const column = Number((await movable.getAttribute("data-testid")).slice(5));
  const legal = (await clientState(page)).game.legal;
  const refusing = [0, 1, 2, 3].find(
    (f) => !legal.some((a) => a.kind === "move" && a.column === column && a.foundation === f),
  );
  if (refusing !== undefined) {
    v = await version(page);
    await drag(page, movable, board.getByTestId(`foundation-${refusing}`));
    await waitFor(
      async () =>
        /cannot go onto|is dead/.test(await page.getByTestId("soulitaire-message").innerText()),
      { message: "the reason for the refused drop" },
    );
    assert.equal(await version(page), v, "nothing was sent");
  }

  await shots(page, "soulitaire-mid");

  // Then the hint, played through the board (the first hinted move by dragging) to the end.
  let dragged = false;
  for (let step = 0; step < 80; step++) {
    const state = await clientState(page);
    if (state.game.outcome) break;
    if (state.game.view.sacrifice) {
      await offerEverything(page, false);
      continue;
    }
    v = state.game.version;
    await page.getByTestId("hint").click();
    const said = page.getByTestId("soulitaire-message");
    await waitFor(async () => /^Hint: /.test(await said.innerText()), { message: "a hint" });
    const message = await said.innerText();
    // The hint is the server's solver, asked with the protocol's hint message.
    assert.equal(await said.getAttribute("data-hint-source"), "server");
    const card = board.locator("[data-testid^=card-][data-hinted]");
    const foundation = board.locator("button[data-testid^=foundation-][data-hinted]");
    if (await card.count()) {
      if (!dragged && !(await card.getAttribute("data-mimic"))) {
        await drag(page, card, foundation);
        dragged = true;
      } else {
        await card.click();
        await foundation.click();
      }
      if (
        await page
          .getByRole("dialog", { name: "Declare the Mimic" })
          .isVisible()
          .catch(() => false)
      )
        await declareInPicker(page);
    } else if (await board.locator("[data-testid=demon-top][data-hinted]").count()) {
      await page.getByTestId("sacrifice-button").click();
      await foundation.click();
      const anyway = page.getByRole("button", { name: "Sacrifice it" });
      if (await anyway.isVisible().catch(() => false)) await anyway.click();
    } else if (await board.locator("[data-testid=discard-button][data-hinted]").count()) {
      await page.getByTestId("discard-button").click();
      await page.getByRole("button", { name: "Discard it" }).click();
    } else {
      assert.fail(`a hint the test cannot follow: ${message}`);
    }
    await advanced(page, v, `the hinted move (${message})`);
  }

  const end = await clientState(page);
  assert.ok(end.game.outcome, "the match ended");
  const layers = end.game.view.foundations.flatMap((f) => f.layers);
  assert.ok(
    layers.some((l) => l.kind === "mimic" && l.declared),
    "a Mimic was declared",
  );
  assert.ok(
    layers.some((l) => l.kind === "demon"),
    "a demon was sacrificed",
  );
  const ending = page.getByTestId("soulitaire-end");
  await ending.waitFor();
  const status = end.game.view.status;
  if (status.kind === "won")
    assert.match(
      await ending.innerText(),
      /Master of the Realm|Greater Demon|Dark Savant|Adept Ritualist|Wanderer of the Realms/,
    );
  else assert.match(await ending.innerText(), /Lost|Conceded/);
  const endScreen = page.getByTestId("end-of-match");
  await endScreen.waitFor();
  // One player: the end screen says whether the ritual was completed, with the score, and is
  // the only panel with a headline (no "Defeat", no table placing the player first).
  const endText = await endScreen.innerText();
  assert.match(
    endText,
    status.kind === "won" ? /The ritual is complete/ : /The ritual was not completed/,
  );
  assert.match(await endScreen.getByTestId("outcome-score").innerText(), /^Score \d+/);
  assert.doesNotMatch(endText, /Defeat|1st/);
  assert.equal(
    await page.getByTestId("soulitaire-board").getByRole("heading").count(),
    0,
    "the board adds no second headline to the end screen's",
  );
  await shots(page, "soulitaire-end");
  await page.setViewportSize({ width: 360, height: 780 });
  await screenshot(page, "soulitaire-end-360");
  t.diagnostic(`ended: ${end.game.outcome.summary}`);

  const watched = cy.page.getByTestId("soulitaire-end");
  await watched.waitFor();
  assert.doesNotMatch(
    await watched.innerText(),
    /made you|\byour\b/,
    "the spectator is not addressed as the player",
  );
  if (status.kind === "won" && status.demons_left < 4)
    assert.match(await watched.innerText(), /made Ada /);

  assert.deepEqual(ada.errors, []);
  assert.deepEqual(cy.errors, []);
  await ada.context.close();
  await cy.context.close();
});
