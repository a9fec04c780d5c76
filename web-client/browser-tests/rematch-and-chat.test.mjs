// Playing together in one room: a rematch at the same table (the host keeps their seat, the
// friend accepts, the spectator follows, the history links both matches), chat that survives a
// reload, finished tables without stale badges, a start hint that names what the host does, and
// the DēmoS notice of a discard taken first, worded for whose panel it is.
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
  createRoomViaApi,
  guestPerson,
  landed,
  playByHints,
  playDemosDecision,
  startMatch,
  waitSeated,
  watchActs,
} from "./flows.mjs";

let server;
let browser;
before(async () => {
  server = await startServer({ botDelayMs: 5 });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A short DēmoS for three: the simplified game, one round, a bot in seat 3. */
const SHORT_DEMOS = {
  game: "demos",
  seats: 3,
  bots: [2],
  options: { mode: "simplified", round_cap: 1 },
};

function person(name, size) {
  return guestPerson(browser, server.url, name, newPerson, size);
}

async function matchOf(page) {
  return (await clientState(page)).room?.match_id ?? null;
}

/** Ada hosts a short DēmoS, Bo sits by the link and says ready; returns the room code. */
async function tableOfTwo(ada, bo, extra = {}) {
  const code = await createRoomViaApi(server.url, ada, { ...SHORT_DEMOS, ...extra });
  await ada.page.goto(`/r/${code}`);
  assert.equal(await waitSeated(ada.page), 0);
  await bo.page.goto(`/r/${code}`);
  assert.equal(await waitSeated(bo.page), 1);
  await bo.page.getByRole("button", { name: "I'm ready" }).click();
  await waitFor(async () => (await clientState(ada.page)).room.seats[1].ready, {
    message: "Bo ready",
  });
  return code;
}

test("guests are told the host starts the match, not that the host must be ready (bug 6)", async () => {
  const ada = await person("Ada");
  const bo = await person("Bo");
  await tableOfTwo(ada, bo);
  // The hint under the ready button, where the host never readies (starting is enough).
  const hint = bo.page.locator(".ready-row .hint");
  await waitFor(async () => /Waiting for|Everyone/.test(await hint.innerText()), {
    message: "Bo's start hint",
  });
  assert.doesNotMatch(await hint.innerText(), /Ada to be ready/);
  assert.match(await hint.innerText(), /Waiting for Ada \(the host\) to start/);
  assert.match(await ada.page.locator(".ready-row .hint").innerText(), /Start when you like/);
  // The waiting room says what kind of table this is.
  const facts = bo.page.getByTestId("room-facts");
  assert.match(await facts.locator('[data-option="mode"]').innerText(), /Simplified/);
  assert.match(await facts.innerText(), /waits 1 min, then a bot plays it/);
  for (const p of [ada, bo]) assert.deepEqual(p.errors, []);
  await ada.context.close();
  await bo.context.close();
});

test("play again keeps the host seated at the same table, with no error on the page (bug 1)", async () => {
  const ada = await person("Ada");
  const code = await createRoomViaApi(server.url, ada, { ...SHORT_DEMOS, bots: [1, 2] });
  await ada.page.goto(`/r/${code}`);
  assert.equal(await waitSeated(ada.page), 0);
  await ada.page.getByRole("button", { name: "Start the match" }).click();
  await playByHints([ada.page]);
  const first = await matchOf(ada.page);
  await ada.page.getByRole("button", { name: "Play again" }).click();
  // Bots always accept: the rematch starts at once, in this room, with Ada in her seat.
  await waitFor(
    async () => {
      const s = await clientState(ada.page);
      return s.room && s.room.match_id !== first && s.game !== null && !s.game.outcome;
    },
    { message: "the rematch to start with Ada in the room" },
  );
  assert.equal(new URL(ada.page.url()).pathname, `/r/${code}`);
  assert.equal((await clientState(ada.page)).room.you, 0, "the host keeps her seat");
  await ada.page.getByTestId("demos-board").waitFor();
  assert.deepEqual(ada.errors, [], "no TypeError from the turn prompt");
  await ada.context.close();
});

test("play again is a rematch in the same room: the host keeps the seat, the friend accepts, the spectator follows, the history links both (bugs 1 and 3)", async () => {
  const ada = await person("Ada");
  const bo = await person("Bo");
  const code = await tableOfTwo(ada, bo);
  const cy = await person("Cy", { width: 390, height: 844 });
  await cy.page.goto(`/r/${code}?watch`);
  await waitFor(async () => (await clientState(cy.page)).room !== null, { message: "Cy watching" });

  await ada.page.getByRole("button", { name: "Start the match" }).click();
  await playByHints([ada.page, bo.page]);
  const first = await matchOf(ada.page);
  await ada.page.getByTestId("end-of-match").waitFor();
  await screenshot(ada.page, "end-screen-host-1280");
  await bo.page.setViewportSize({ width: 390, height: 844 });
  await bo.page.getByTestId("end-of-match").waitFor();
  await screenshot(bo.page, "end-screen-friend-390");

  // A spectator and a stranger who opens the finished room's link are not offered to play again.
  await cy.page.getByTestId("end-of-match").waitFor();
  assert.equal(await cy.page.getByRole("button", { name: "Play again" }).count(), 0);
  const dee = await person("Dee");
  await dee.page.goto(`/r/${code}`);
  await dee.page.getByTestId("end-of-match").waitFor();
  assert.equal(
    await dee.page.getByRole("button", { name: "Play again" }).count(),
    0,
    "no play again for a stranger",
  );
  assert.match(
    await dee.page.getByTestId("watch-reason").innerText(),
    /match is over, so you are watching/,
  );
  assert.equal(
    await dee.page.getByLabel("Invite link").count(),
    0,
    "no invite panel for someone watching",
  );
  await dee.context.close();

  // Ada asks for a rematch: the page stays, her seat stays, Bo is asked.
  const url = ada.page.url();
  await ada.page.getByRole("button", { name: "Play again" }).click();
  await ada.page.getByTestId("rematch-status").getByText("waiting for Bo to accept").waitFor();
  await bo.page.getByTestId("rematch-status").getByText("Ada wants a rematch").waitFor();
  await screenshot(bo.page, "rematch-asked-390");
  await bo.page.getByRole("button", { name: "Play again" }).click();

  for (const p of [ada, bo, cy]) {
    await waitFor(
      async () => {
        const s = await clientState(p.page);
        return (
          s.room.match_id !== first &&
          s.room.status === "playing" &&
          s.game !== null &&
          !s.game.outcome
        );
      },
      { message: "the rematch to start" },
    );
  }
  assert.equal(ada.page.url(), url, "no new room, no new link");
  const again = await clientState(ada.page);
  assert.equal(again.room.code, code);
  assert.equal(again.room.you, 0, "the host keeps her seat");
  assert.equal(again.room.previous_match, first);
  assert.equal((await clientState(bo.page)).room.you, 1);
  assert.equal((await clientState(cy.page)).room.you, null, "the spectator watches the rematch");
  await ada.page.getByTestId("demos-board").waitFor();
  await screenshot(ada.page, "rematch-started-1280");
  await screenshot(cy.page, "rematch-spectator-390");

  // The rematch is played out, and the history links it to the first match.
  await playByHints([ada.page, bo.page]);
  const second = await matchOf(ada.page);
  await ada.page.goto("/history");
  const row = ada.page.locator(`tr[data-match="${second}"]`);
  await waitFor(
    async () => {
      if (await row.isVisible()) return true;
      await ada.page.reload();
      return false;
    },
    { message: "the rematch in the history", interval: 500 },
  );
  assert.equal(
    await row.locator(`[data-rematch-of="${first}"]`).count(),
    1,
    "the rematch links the first match",
  );
  assert.equal(
    await ada.page.locator(`tr[data-match="${first}"] [data-rematch="${second}"]`).count(),
    1,
    "the first match links its rematch",
  );

  for (const p of [ada, bo, cy]) assert.deepEqual(p.errors, []);
  for (const p of [ada, bo, cy]) await p.context.close();
});

test("chat survives a reload and a reconnect, each line once (bug 2)", async () => {
  const ada = await person("Ada");
  const bo = await person("Bo");
  await tableOfTwo(ada, bo);
  await bo.page.getByLabel(/^Message to/).fill("hello from Bo");
  await bo.page.getByLabel(/^Message to/).press("Enter");
  await ada.page.getByText("hello from Bo").waitFor();

  await ada.page.reload();
  await ada.page.getByText("hello from Bo").waitFor();
  assert.equal(
    await ada.page.getByText("hello from Bo").count(),
    1,
    "the line once after the reload",
  );

  // A dropped connection resyncs without duplicating what was already shown.
  await bo.page.evaluate(() => window.pandemonium.connection().socket?.close());
  await waitFor(
    async () =>
      (await clientState(bo.page)).status === "online" &&
      (await clientState(bo.page)).room !== null,
    {
      message: "Bo back",
    },
  );
  await ada.page.getByLabel(/^Message to/).fill("welcome back");
  await ada.page.getByLabel(/^Message to/).press("Enter");
  await bo.page.getByText("welcome back").waitFor();
  assert.equal(
    await bo.page.getByText("hello from Bo").count(),
    1,
    "no duplicate after the resync",
  );
  for (const p of [ada, bo]) assert.deepEqual(p.errors, []);
  await ada.context.close();
  await bo.context.close();
});

test("a finished room shows no stale reconnecting or bot-playing badges (bug 6)", async () => {
  const ada = await person("Ada");
  const bo = await person("Bo");
  await tableOfTwo(ada, bo, { grace_seconds: 0 });
  await ada.page.getByRole("button", { name: "Start the match" }).click();
  await waitFor(async () => (await clientState(ada.page)).game !== null, {
    message: "the first state",
  });
  // Bo goes away for good: with no grace, a bot plays his seat.
  await bo.context.close();
  const boSeat = ada.page.locator("li[data-seat='1']").first();
  await waitFor(async () => (await boSeat.getAttribute("data-presence")) === "bot", {
    message: "a bot for Bo",
  });
  assert.match(await boSeat.innerText(), /bot playing/i);
  await playByHints([ada.page]);
  await ada.page.getByTestId("end-of-match").waitFor();
  const seats = await ada.page.getByRole("list", { name: "Seats" }).innerText();
  assert.doesNotMatch(seats, /bot playing|reconnecting/i, "the finished table has no stale badges");
  await screenshot(ada.page, "end-screen-finished-table-1280");
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

/** The card names of a DēmoS view as the board shortens them ("7♦"). */
const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const short = (card) => `${card.slice(0, -1)}${SUIT_SYMBOL[card.slice(-1)]}`;

test("two players ask for the same discard: the one who missed it is told, and the other reads it with the name (bug 4)", async () => {
  const ada = await person("Ada");
  const bo = await person("Bo");
  await tableOfTwo(ada, bo);
  await startMatch(ada.page);
  // The Public Discard, any card, for both.
  for (const p of [ada, bo]) {
    await p.page.getByTestId("discard-chooser").waitFor();
    assert.equal(await playDemosDecision(p.page), "discard");
  }
  // The Secret Discard: both ask for the bot's face-up discard.
  const atSecret = async (page) => {
    const game = (await clientState(page)).game;
    return game?.view.phase.step === "secret_discard" && game.legal.length > 0 ? game : null;
  };
  const game = await waitFor(() => atSecret(ada.page), { message: "Ada's Secret Discard" });
  await waitFor(() => atSecret(bo.page), { message: "Bo's Secret Discard" });
  const wanted = game.view.players[2].turns.find((t) => t.turn === "public").discard.card;
  assert.ok(game.view.visible_discards.includes(wanted), `the bot's ${wanted} can be taken`);
  for (const p of [ada, bo]) {
    const chooser = p.page.getByTestId("discard-chooser");
    await watchActs(p.page);
    await chooser.locator("[data-zone=hand] button:not([disabled])").first().click();
    await chooser.locator(`label.take:has([data-card="${wanted}"])`).click();
    await chooser.getByTestId("confirm-discard").click();
    await landed(p.page, "secret discard");
  }
  // One round is the whole match: the board is revealed to everyone.
  const end = await waitFor(
    async () => {
      const state = await clientState(ada.page);
      return state.game?.outcome ? state : null;
    },
    { message: "the end of the match" },
  );
  const turns = end.game.view.players.map((p) => p.turns.find((t) => t.turn === "secret"));
  const missed = [0, 1].filter((s) => turns[s]?.wanted === wanted);
  assert.equal(
    missed.length,
    1,
    `exactly one of them missed the ${wanted}: ${JSON.stringify(turns)}`,
  );
  const [loser, winner] = missed[0] === 0 ? [ada, bo] : [bo, ada];
  const loserName = missed[0] === 0 ? "Ada" : "Bo";
  const notice = (page) =>
    waitFor(
      async () => {
        const text = await page.getByTestId("demos-board").innerText();
        return text.includes("taken first") ? text : null;
      },
      { message: "a taken-first notice on the board" },
    );
  // The player concerned is told, in the second person.
  const own = await notice(loser.page);
  assert.ok(
    own.includes(`${short(wanted)} was taken first: you got the pack's top card`),
    `${loserName} is told the ${short(wanted)} was taken first: ${own}`,
  );
  // The other player reads it on the revealed board with the name, never as "you".
  const other = await notice(winner.page);
  assert.ok(
    other.includes(
      `${loserName} asked for the ${short(wanted)}, taken first: ${loserName} got the pack's top card`,
    ),
    `the other player reads whose miss it was: ${other}`,
  );
  assert.doesNotMatch(other, /you got the pack's top card/);
  await screenshot(winner.page, "demos-taken-first-revealed-1280");
  for (const p of [ada, bo]) assert.deepEqual(p.errors, []);
  await ada.context.close();
  await bo.context.close();
});
