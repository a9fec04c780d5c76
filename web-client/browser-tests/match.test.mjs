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
import { createRoomViaUi, gameInfo, playDemosViaBoard, startMatch, waitSeated } from "./flows.mjs";

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

test("a match resumes the same seat after a reload, ends, appears in history, and its replay steps to the end", async () => {
  // A short DēmoS: the simplified game, two rounds, one person and two bots.
  const game = await gameInfo(server.url, "demos");
  const ada = await newPerson(browser, server.url);
  const code = await createRoomViaUi(ada.page, {
    game,
    seats: 3,
    bots: [1, 2],
    options: { Mode: "simplified", "Round cap": 2 },
    name: "Ada",
  });
  const seat = await waitSeated(ada.page);
  await startMatch(ada.page);
  await ada.page.getByTestId("demos-board").waitFor();

  // Play the first round's Public Discard through the board, then reload in the middle of the match.
  const before = await playDemosViaBoard(ada.page, {
    until: async (s) => s.game.view.phase.step === "secret_discard" && s.game.legal.length > 0,
  });
  assert.equal(before.game.outcome, null);
  const hand = before.game.view.players[seat].hand;
  await ada.page.reload();
  const resumed = await waitFor(
    async () => {
      const s = await clientState(ada.page);
      return s.game ? s : null;
    },
    { message: "the state after the reload" },
  );
  assert.equal(resumed.room.code, code);
  assert.equal(resumed.room.you, seat, "the reload resumed the same seat");
  assert.ok(
    resumed.game.version >= before.game.version,
    "the reload resumed at the version reached or later",
  );
  // The board is back with the same hand and the same decision.
  await ada.page.getByTestId("discard-chooser").waitFor();
  const shown = await ada.page
    .locator("[data-zone=hand] [data-card]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-card")));
  assert.deepEqual([...shown].sort(), [...hand].sort());

  const end = await playDemosViaBoard(ada.page);
  assert.ok(end.game.outcome);
  await ada.page.getByTestId("end-of-match").waitFor();
  await screenshot(ada.page, "match-end-1280");
  const matchId = end.room.match_id;
  assert.ok(matchId);

  // History lists it…
  await ada.page.goto("/history");
  const row = ada.page.locator(`tr[data-match="${matchId}"]`);
  await waitFor(
    async () => {
      if (await row.isVisible()) return true;
      await ada.page.reload();
      return false;
    },
    { message: "the match in the history", interval: 500 },
  );
  await screenshot(ada.page, "history-1280");

  // …and its replay steps from the start to the final position, drawn by the DēmoS board.
  await row.getByRole("link", { name: /^Replay/ }).click();
  await ada.page.waitForURL(/\/replay\//);
  const record = await (await fetch(`${server.url}/api/matches/${matchId}`)).json();
  const position = ada.page.getByTestId("replay-position");
  await position.waitFor();
  assert.match(await position.innerText(), /Start/);
  await ada.page.getByTestId("demos-board").waitFor();
  await ada.page.getByRole("button", { name: "Next move" }).click();
  assert.match(await position.innerText(), /Move 1\b/);
  await ada.page.getByRole("button", { name: "Final position" }).click();
  assert.match(
    await position.innerText(),
    new RegExp(`Move ${record.log.length}\\s+of ${record.log.length}`),
  );
  await ada.page.getByTestId("end-of-match").waitFor();
  await ada.page.getByTestId("election").waitFor();
  assert.equal(await ada.page.getByTestId("demos-board").getAttribute("data-phase"), "over");
  // The moves are told in words by the board, not as raw actions.
  assert.match(
    await ada.page.getByRole("region", { name: "Moves" }).innerText(),
    /discards the \d+[♠♥♦♣] face up/,
  );
  await screenshot(ada.page, "replay-1280");
  await ada.page.setViewportSize({ width: 360, height: 780 });
  await screenshot(ada.page, "replay-360");

  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});
