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
import { createRoomViaUi, gameInfo, playDemosViaBoard, startMatch, waitSeated } from "./flows.mjs";

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
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Every `data-card` a page renders, with the zone it sits in and whether it is face down. */
function renderedCards(page) {
  return page.locator("[data-testid=demos-board] [data-card]").evaluateAll((els) =>
    els.map((el) => ({
      card: el.getAttribute("data-card"),
      zone: el.closest("[data-zone]")?.getAttribute("data-zone") ?? null,
      seat: el.closest("[data-seat]")?.getAttribute("data-seat") ?? null,
      faceDown: el.closest("[data-face]")?.getAttribute("data-face") === "down",
    })),
  );
}

function viewOf(page) {
  return page.evaluate(() => window.pandemonium.connection().state.game);
}

test("a person plays a whole simplified DēmoS against two bots through the board, and a spectator sees no hidden card", async () => {
  const game = await gameInfo(server.url, "demos");
  const ada = await newPerson(browser, server.url);
  const code = await createRoomViaUi(ada.page, {
    game,
    seats: 3,
    bots: [1, 2],
    options: { Mode: "simplified" },
    name: "Ada",
  });
  const seat = await waitSeated(ada.page);

  const cy = await newPerson(browser, server.url);
  await cy.page.goto(`/r/${code}?watch`);
  await pickName(cy.page, "Cy");
  await cy.page.getByText("You are watching").waitFor();

  await startMatch(ada.page);
  const board = ada.page.getByTestId("demos-board");
  await board.waitFor();

  // The first decision by keyboard alone: Tab to a card, Enter picks it, Enter on the confirm button.
  const chooser = ada.page.getByTestId("discard-chooser");
  await chooser.getByRole("heading", { name: /choose a card to discard face up/ }).waitFor();
  const firstCard = chooser.locator("[data-zone=hand] button").first();
  await firstCard.focus();
  await ada.page.keyboard.press("Enter");
  assert.equal(await firstCard.getAttribute("aria-pressed"), "true");
  const confirm = chooser.getByTestId("confirm-discard");
  assert.match(await confirm.innerText(), /^Discard the \d+[♠♥♦♣] face up$/);
  const v0 = (await viewOf(ada.page)).version;
  await confirm.focus();
  await ada.page.keyboard.press("Enter");
  await waitFor(async () => (await viewOf(ada.page)).version > v0, {
    message: "the keyboard discard to be accepted",
  });

  // Play on until a Secret Discard after the first round, when figures are on the table and
  // the bots have committed (so the position holds still while both pages are compared).
  const atSecret = (s) =>
    s.game.view.round >= 2 &&
    s.game.view.phase.step === "secret_discard" &&
    s.game.legal.length > 0 &&
    s.game.view.waiting_for.length === 1 &&
    s.game.view.players.some((p) => p.figures.length > 0);
  await playDemosViaBoard(ada.page, { until: atSecret });
  await chooser.getByRole("heading", { name: /choose a card to discard face down/ }).waitFor();
  // Pick a card (not confirmed yet): the prompt says what happens next.
  await waitFor(async () => (await chooser.locator("[data-zone=hand] button").count()) === 5, {
    message: "a settled hand",
  });
  await chooser.locator("[data-zone=hand] button:not([disabled])").first().click();
  await chooser.getByRole("group", { name: "Then take your replacement from" }).waitFor();
  assert.match(await chooser.getByTestId("confirm-discard").innerText(), /face down and take/);

  // The player's page shows their hand and the identity of their own face-down figures.
  const mine = await viewOf(ada.page);
  const hand = mine.view.players[seat].hand;
  assert.equal(hand.length, 5);
  const adaCards = await renderedCards(ada.page);
  assert.deepEqual(
    adaCards
      .filter((c) => c.zone === "hand")
      .map((c) => c.card)
      .sort(),
    [...hand].sort(),
    "the player sees their hand",
  );
  const ownHidden = mine.view.players[seat].figures.filter((f) => !f.face_up).map((f) => f.figure);
  assert.deepEqual(
    adaCards
      .filter((c) => c.zone === "figures" && c.faceDown && c.seat === String(seat))
      .map((c) => c.card)
      .sort(),
    [...ownHidden].sort(),
    "the player sees which figures they hold face down",
  );

  // The spectator, at the same position, is shown none of it.
  await waitFor(async () => (await viewOf(cy.page))?.version === mine.version, {
    message: "the spectator at the same position",
  });
  const watched = await viewOf(cy.page);
  assert.equal(watched.legal.length, 0);
  assert.ok(
    watched.view.players.every((p) => p.hand === null),
    "the spectator view holds no hand",
  );
  assert.equal(watched.view.my_commit, null);
  await cy.page.getByTestId("demos-board").waitFor();
  const cyCards = await renderedCards(cy.page);
  assert.equal(
    await cy.page.locator("[data-testid=demos-board] [data-zone=hand]").count(),
    0,
    "no hand is drawn for a spectator",
  );
  assert.deepEqual(
    cyCards.filter((c) => c.faceDown),
    [],
    "no face-down card shows its identity to a spectator",
  );
  const leaked = cyCards.filter((c) => c.zone !== "combination" && hand.includes(c.card));
  assert.deepEqual(
    leaked,
    [],
    "none of the player's cards in hand appears on the spectator's page",
  );
  const hiddenFigures = watched.view.players.flatMap((p) => p.figures).filter((f) => !f.face_up);
  assert.ok(hiddenFigures.length > 0, "there are face-down figures at this point");
  assert.ok(
    hiddenFigures.every((f) => f.figure === null),
    "the spectator view names no face-down figure",
  );
  assert.equal(
    await cy.page.locator("[data-testid=demos-board] [data-zone=figures] [data-face=down]").count(),
    hiddenFigures.length,
    "each face-down figure is drawn as a back",
  );
  for (const figure of ownHidden) {
    assert.ok(
      !cyCards.some((c) => c.zone === "figures" && c.card === figure && c.seat === String(seat)),
      `${figure} is not shown to the spectator`,
    );
  }
  // What the spectator does see: the public discards of this round.
  const publicDiscards = watched.view.players
    .flatMap((p) => p.turns)
    .filter((t) => t.discard.kind === "face_up")
    .map((t) => t.discard.card);
  assert.ok(publicDiscards.length > 0);
  for (const card of publicDiscards)
    assert.ok(
      cyCards.some((c) => c.card === card),
      `the public discard ${card} is shown`,
    );
  assert.equal(
    await cy.page.getByTestId("demos-prompt").getByRole("button").count(),
    0,
    "a spectator is offered no move",
  );

  await shots(ada.page, "demos-mid");
  await screenshot(ada.page, "demos-player-1280");
  await screenshot(cy.page, "demos-spectator-1280");
  await ada.page.setViewportSize({ width: 360, height: 780 });
  await ada.page.waitForTimeout(250);
  await screenshot(ada.page, "demos-player-360");
  const overflow = await ada.page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  assert.ok(overflow <= 0, `the board is ${overflow}px wider than 360px`);
  await ada.page.setViewportSize({ width: 1280, height: 860 });

  // Confirm the picked card and play the match to its end.
  const end = await playDemosViaBoard(ada.page);
  assert.ok(end.game.outcome);
  assert.equal(end.game.view.phase.step, "over");
  assert.ok(
    end.game.view.power_pile === 0 || end.game.view.round === end.game.view.round_cap,
    "the Main Phase ran to its end",
  );
  assert.ok(end.game.view.election, "the Election was held");
  await ada.page.getByTestId("end-of-match").waitFor();
  await ada.page.getByTestId("election").waitFor();
  await ada.page.getByTestId("round-result").waitFor();
  // The last round's winning combination is marked.
  const winners = end.game.view.last_round.winners;
  if (winners.length)
    assert.equal(
      await ada.page.locator("[data-testid=round-result] [data-winner=true]").count(),
      winners.length,
    );
  await shots(ada.page, "demos-end");
  await cy.page.getByTestId("election").waitFor();
  assert.equal((await clientState(cy.page)).game.outcome.summary, end.game.outcome.summary);

  assert.deepEqual(ada.errors, []);
  assert.deepEqual(cy.errors, []);
  await ada.context.close();
  await cy.context.close();
});
