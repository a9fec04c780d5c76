// What friends found playing from a fresh clone (issue 43): the lobby's join box, the waiting
// room's words about who is ready, a DēmoS table's facts without teams, the history's link to a
// rematch still being played, keyboard focus after an action, a clock that runs out without a
// word, and the small words (the action log's first line).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { clientState, launchBrowser, newPerson, startServer, waitFor } from "./harness.mjs";
import { createRoomViaApi, guestPerson, playByHints, waitSeated } from "./flows.mjs";

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

function person(name, size) {
  return guestPerson(browser, server.url, name, newPerson, size);
}

/** A short simplified DēmoS: one round, bots in the seats listed. */
function shortDemos(bots, extra = {}) {
  return {
    game: "demos",
    seats: 3,
    bots,
    options: { mode: "simplified", round_cap: 1 },
    ...extra,
  };
}

test("the lobby's join box opens a room by its ten-letter code and by a pasted invite link", async () => {
  const ada = await person("Ada");
  const code = await createRoomViaApi(server.url, ada, shortDemos([1]));
  assert.equal(code.length, 10);
  const bo = await person("Bo");
  for (const typed of [code.toLowerCase(), `${server.url}/r/${code}`]) {
    await bo.page.goto("/");
    await bo.page.getByLabel("Room code or invite link").fill(typed);
    await bo.page.getByRole("button", { name: "Join", exact: true }).click();
    await bo.page.waitForURL(`**/r/${code}`, { timeout: 5000 });
    await waitFor(async () => (await clientState(bo.page)).room?.code === code, {
      message: `the room entered from "${typed}"`,
    });
  }
  for (const p of [ada, bo]) assert.deepEqual(p.errors, []);
  for (const p of [ada, bo]) await p.context.close();
});

test("a friend who is not ready is told so, and the host is never shown as not ready", async () => {
  const ada = await person("Ada");
  const code = await createRoomViaApi(server.url, ada, shortDemos([2]));
  await ada.page.goto(`/r/${code}`);
  assert.equal(await waitSeated(ada.page), 0);
  const bo = await person("Bo");
  await bo.page.goto(`/r/${code}`);
  assert.equal(await waitSeated(bo.page), 1);

  const boHint = bo.page.getByTestId("start-hint");
  await waitFor(async () => /ready/.test(await boHint.innerText()), { message: "Bo's hint" });
  assert.doesNotMatch(await boHint.innerText(), /Everyone is ready/);
  assert.match(await boHint.innerText(), /Waiting for you to be ready/);
  assert.match(await ada.page.getByTestId("start-hint").innerText(), /Waiting for Bo to be ready/);
  for (const p of [ada, bo]) {
    const host = p.page.locator('.seats li[data-seat="0"]');
    await host.waitFor();
    assert.doesNotMatch(await host.innerText(), /not ready/i, "the host's seat");
  }
  assert.equal(
    await ada.page.getByRole("button", { name: "I'm ready" }).count(),
    0,
    "the host is not asked to be ready",
  );

  await bo.page.getByRole("button", { name: "I'm ready" }).click();
  await waitFor(async () => /Everyone is ready/.test(await boHint.innerText()), {
    message: "Bo's hint once ready",
  });
  assert.match(await boHint.innerText(), /Waiting for Ada \(the host\) to start/);
  for (const p of [ada, bo]) assert.deepEqual(p.errors, []);
  for (const p of [ada, bo]) await p.context.close();
});

test("a DēmoS table without teams says nothing about teams", async () => {
  const ada = await person("Ada");
  const code = await createRoomViaApi(server.url, ada, shortDemos([1]));
  await ada.page.goto(`/r/${code}`);
  const facts = ada.page.getByTestId("room-facts");
  await facts.waitFor();
  const text = await facts.innerText();
  assert.match(text, /Simplified/);
  assert.doesNotMatch(text, /team/i);
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

test("the history shows a rematch still being played without a link to its replay", async () => {
  const ada = await person("Ada");
  const code = await createRoomViaApi(server.url, ada, shortDemos([1, 2]));
  await ada.page.goto(`/r/${code}`);
  await waitSeated(ada.page);
  await ada.page.getByRole("button", { name: "Start the match" }).click();
  await playByHints([ada.page]);
  const first = (await clientState(ada.page)).room.match_id;
  // Bots always accept: the rematch starts at once, and nobody plays it on.
  await ada.page.getByRole("button", { name: "Play again" }).click();
  await waitFor(
    async () => {
      const s = await clientState(ada.page);
      return s.room.match_id !== first && s.room.status === "playing";
    },
    { message: "the rematch to start" },
  );

  const history = await person("Bo");
  await history.page.goto("/history");
  const row = history.page.locator(`tr[data-match="${first}"]`);
  await row.waitFor();
  await row.getByText("Followed by a rematch being played").waitFor();
  assert.equal(await row.locator("[data-rematch]").count(), 0, "no link to a replay not there");
  for (const p of [ada, history]) assert.deepEqual(p.errors, []);
  for (const p of [ada, history]) await p.context.close();
});

test("after an action by keyboard, focus stays in the room rather than falling to the page", async () => {
  const ada = await person("Ada");
  const code = await createRoomViaApi(server.url, ada, shortDemos([1, 2]));
  await ada.page.goto(`/r/${code}`);
  await waitSeated(ada.page);
  await ada.page.getByRole("button", { name: "Start the match" }).focus();
  await ada.page.keyboard.press("Enter");
  const chooser = ada.page.getByTestId("discard-chooser");
  await chooser.getByRole("heading", { name: /choose a card to discard face up/ }).waitFor();
  await chooser.locator("[data-zone=hand] button").first().focus();
  await ada.page.keyboard.press("Enter");
  const v0 = (await clientState(ada.page)).game.version;
  await chooser.getByTestId("confirm-discard").focus();
  await ada.page.keyboard.press("Enter");
  await waitFor(async () => (await clientState(ada.page)).game.version > v0, {
    message: "the keyboard discard to be accepted",
  });
  await ada.page.waitForTimeout(300);
  const focused = await ada.page.evaluate(() => {
    const el = document.activeElement;
    return {
      body: el === document.body || el === null,
      inRoom: !!el?.closest(".room-page"),
      what: el
        ? `${el.tagName} ${el.getAttribute("aria-label") ?? el.textContent?.slice(0, 40)}`
        : "",
    };
  });
  assert.equal(focused.body, false, "focus fell to the page's body");
  assert.ok(focused.inRoom, `focus is in the room (on ${focused.what})`);
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

test("when the clock runs out, the table is told that time ran out", async () => {
  const ada = await person("Ada");
  const code = await createRoomViaApi(server.url, ada, shortDemos([1, 2], { turn_seconds: 2 }));
  await ada.page.goto(`/r/${code}`);
  await waitSeated(ada.page);
  await ada.page.getByRole("button", { name: "Start the match" }).click();
  await ada.page.getByTestId("discard-chooser").waitFor();
  // Ada does nothing: her clock runs out and the server discards for her.
  await ada.page.locator(".toast").getByText("Time ran out for you").waitFor({ timeout: 8000 });
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

/** The texts a screen reader is given inside the region named `name` (Chrome's tree). */
async function spokenTexts(page, name) {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send("Accessibility.getFullAXTree");
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const inRegion = (node) => {
    for (let p = byId.get(node.parentId); p; p = byId.get(p.parentId))
      if (p.role?.value === "region" && p.name?.value === name) return true;
    return false;
  };
  return nodes
    .filter((n) => n.role?.value === "StaticText" && inRegion(n))
    .map((n) => n.name?.value ?? "");
}

test("a screen reader hears each line of the action log, with no stray full stop before it", async () => {
  const ada = await person("Ada");
  const code = await createRoomViaApi(server.url, ada, shortDemos([1, 2]));
  await ada.page.goto(`/r/${code}`);
  await waitSeated(ada.page);
  await ada.page.getByRole("button", { name: "Start the match" }).click();
  await playByHints([ada.page]);
  const log = ada.page.getByRole("region", { name: "Action log" });
  await waitFor(async () => (await log.locator("li").count()) >= 2, { message: "a log" });
  const texts = await spokenTexts(ada.page, "Action log");
  assert.ok(
    texts.some((t) => /^action log$/i.test(t)),
    `the log's heading is read (${texts.join(" | ")})`,
  );
  const marks = texts.filter((t) => /^\W*$/.test(t.trim()));
  assert.deepEqual(marks, [], `only words are read: ${texts.join(" | ")}`);
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

test("in a replay, a step button that the step disables hands focus to the next control", async () => {
  const ada = await person("Ada");
  const code = await createRoomViaApi(server.url, ada, shortDemos([1, 2]));
  await ada.page.goto(`/r/${code}`);
  await waitSeated(ada.page);
  await ada.page.getByRole("button", { name: "Start the match" }).click();
  await playByHints([ada.page]);
  const id = (await clientState(ada.page)).room.match_id;
  await ada.page.goto(`/replay/${id}`);
  const final = ada.page.getByRole("button", { name: "Final position" });
  await final.waitFor();
  await final.focus();
  await ada.page.keyboard.press("Enter");
  await waitFor(async () => await final.isDisabled(), { message: "the final position" });
  await ada.page.waitForTimeout(200);
  const focused = await ada.page.evaluate(() => {
    const el = document.activeElement;
    return el === document.body || el === null ? "body" : (el.getAttribute("aria-label") ?? el.id);
  });
  assert.notEqual(focused, "body", "focus fell to the page's body");
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

test('the turn clock says "1 minute" to a screen reader, and the results read "Ada, you"', async () => {
  const ada = await person("Ada");
  const code = await createRoomViaApi(server.url, ada, shortDemos([1, 2], { turn_seconds: 90 }));
  await ada.page.goto(`/r/${code}`);
  await waitSeated(ada.page);
  await ada.page.getByRole("button", { name: "Start the match" }).click();
  const clock = ada.page.getByTestId("turn-clock").locator(".visually-hidden");
  await clock.waitFor({ state: "attached" });
  const spoken = await clock.textContent();
  assert.match(spoken, /^1 minute \d+ seconds? left for you/);
  await playByHints([ada.page]);
  const results = ada.page.getByTestId("end-of-match");
  await results.waitFor();
  const cdp = await ada.page.context().newCDPSession(ada.page);
  const { nodes } = await cdp.send("Accessibility.getFullAXTree");
  const cells = nodes.filter((n) => n.role?.value === "cell").map((n) => n.name?.value ?? "");
  assert.ok(
    cells.some((name) => /^Ada\s*,\s*you\b/.test(name)),
    `a cell reads "Ada, you" (${cells.join(" | ")})`,
  );
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});
