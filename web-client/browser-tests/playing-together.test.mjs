// Playing together: your-turn signals, names in results and history, the DēmoS round recap,
// the replay's move list told from one point of view, the action log's numbering, the
// Soulitaire quick start, and one countdown for a team's consultation.
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
import {
  createRoomViaApi,
  createRoomViaUi,
  gameInfo,
  guestPerson,
  playDemosViaBoard,
  startMatch,
  waitSeated,
} from "./flows.mjs";

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

const YOUR_TURN = /^● Your turn · /;

test("Soulitaire starts at once from the lobby: no waiting room, no ready step, no invite panel", async () => {
  const ada = await newPerson(browser, server.url);
  await ada.page.goto("/");
  await ada.page.getByRole("heading", { name: "The games" }).waitFor();
  await screenshot(ada.page, "lobby-1280");
  await ada.page.setViewportSize({ width: 390, height: 844 });
  await ada.page.waitForTimeout(200);
  await screenshot(ada.page, "lobby-390");
  const overflow = await ada.page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  assert.ok(overflow <= 0, `the lobby is ${overflow}px wider than 390px`);
  await ada.page.setViewportSize({ width: 1280, height: 860 });

  // Watch everything the room page shows on its way to the board.
  await ada.page.evaluate(() => {
    window.__seen = new Set();
    const look = () => {
      for (const b of document.querySelectorAll("button")) window.__seen.add(b.textContent.trim());
      if (document.querySelector("[aria-label='Invite link'], #invite-link"))
        window.__seen.add("invite");
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true });
  });
  const soulitaire = await gameInfo(server.url, "soulitaire");
  await ada.page.getByRole("button", { name: `Play now — ${soulitaire.name}` }).click();
  await pickName(ada.page, "Ada");
  await ada.page.waitForURL(/\/r\/[A-Z0-9]{10}$/);
  await ada.page.getByTestId("soulitaire-board").waitFor();
  const state = await clientState(ada.page);
  assert.equal(state.room.status, "playing");
  assert.equal(state.room.you, 0);
  const seen = await ada.page.evaluate(() => [...window.__seen]);
  assert.ok(
    !seen.some((t) => /Start the match|I'm ready|✓ Ready/.test(t)),
    `no waiting-room control was shown (saw ${seen.join(" | ")})`,
  );
  assert.ok(!seen.includes("invite"), "no invite panel for a solo game");
  assert.equal(await ada.page.getByLabel("Invite link").count(), 0);
  // A solo game is always your turn: the tab says so.
  await waitFor(() => ada.page.evaluate(() => /^● Your turn · /.test(document.title)), {
    message: "the your-turn title",
  });
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

test("a DēmoS match against bots: the tab title follows your turn, the round recap, names at the end and in history, and the replay's moves from one seat", async () => {
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
  const cy = await newPerson(browser, server.url);
  await cy.page.goto(`/r/${code}?watch`);
  await pickName(cy.page, "Cy");
  await cy.page.getByText("You are watching").waitFor();

  assert.doesNotMatch(
    await ada.page.title(),
    YOUR_TURN,
    "nothing is asked of anyone before the start",
  );
  await startMatch(ada.page);
  await ada.page.getByTestId("discard-chooser").waitFor();
  // The first decision is Ada's: her tab says so, the favicon carries the mark; the spectator's does not.
  await waitFor(async () => YOUR_TURN.test(await ada.page.title()), {
    message: "Ada's tab title to say it is her turn",
  });
  assert.match(await ada.page.locator("link[rel~=icon]").getAttribute("href"), /circle/);
  assert.doesNotMatch(await cy.page.title(), YOUR_TURN);
  // The prompt is announced without its clock, and the value of the hand is shown while choosing.
  await ada.page.getByTestId("best-combination").waitFor();

  // Play to the second round: the first round's result is recapped at the top of the board.
  const atRecap = async () => (await ada.page.getByTestId("round-recap").count()) > 0;
  await playDemosViaBoard(ada.page, {
    until: async (s) => s.game.view.round >= 2 && (await atRecap()),
  });
  const recap = ada.page.getByTestId("round-recap");
  await recap.getByTestId("round-result").waitFor();
  assert.ok((await recap.boundingBox()).y < 860, "the recap is in view");
  await screenshot(ada.page, "demos-round-recap-1280");
  await ada.page.setViewportSize({ width: 390, height: 844 });
  await ada.page.waitForTimeout(250);
  await recap.waitFor();
  const box = await recap.boundingBox();
  assert.ok(box && box.y + Math.min(box.height, 40) < 844, "the recap is in view on a phone");
  await screenshot(ada.page, "demos-round-recap-390");
  await ada.page.setViewportSize({ width: 1280, height: 860 });

  const end = await playDemosViaBoard(ada.page);
  assert.ok(end.game.outcome);
  await ada.page.getByTestId("end-of-match").waitFor();
  await waitFor(async () => !YOUR_TURN.test(await ada.page.title()), {
    message: "the title to drop the mark once the match is over",
  });
  // Names, not seat numbers, in the result; the placements table says what its columns mean.
  const names = end.room.seats.map((s) => s.player?.name ?? `Bot ${s.seat + 1}`);
  const summary = await ada.page.getByTestId("outcome-summary").innerText();
  assert.doesNotMatch(summary, /\bSeat \d/, `the end screen names people: ${summary}`);
  for (const w of end.game.outcome.winners)
    assert.ok(summary.includes(names[w]), `the summary names the winner ${names[w]}: ${summary}`);
  const table = await ada.page.getByTestId("end-of-match").locator("tbody").innerText();
  for (const name of names) assert.ok(table.includes(name), `the placements name ${name}`);
  assert.match(
    await ada.page.getByTestId("placements-legend").innerText(),
    /Place.*Score.*points/s,
  );
  await screenshot(ada.page, "together-end-1280");

  // History names them too.
  const matchId = end.room.match_id;
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
  const line = await row.innerText();
  assert.doesNotMatch(line, /\bSeat \d/, `the history names people: ${line}`);
  assert.ok(line.includes("Ada"));

  // The replay from Ada's seat: moves told from her view, never another seat's secret discard.
  await ada.page.goto(`/replay/${matchId}?viewer=seat:${seat}`);
  const moves = ada.page.getByRole("region", { name: "Moves" });
  await moves.locator("li").first().waitFor();
  const lines = await moves.locator("li").allInnerTexts();
  assert.ok(lines.length >= 10, `a match of two rounds has ten moves or more (${lines.length})`);
  const others = names.filter((_, s) => s !== seat);
  for (const text of lines) {
    for (const name of others) {
      assert.doesNotMatch(
        text,
        new RegExp(`${name} discards the \\d+[♠♥♦♣] face down`),
        `a secret discard of ${name} is named from Ada's seat: ${text}`,
      );
    }
  }
  // The log's numbers from 10 up are drawn whole, inside the list's box.
  const numbering = await moves
    .locator("li")
    .nth(9)
    .evaluate((li) => {
      const list = li.parentElement;
      const marker = getComputedStyle(li).listStyleType !== "none";
      if (!marker) {
        const before = getComputedStyle(li, "::before").content;
        return { ok: before !== "none" && before !== "normal", how: `::before ${before}` };
      }
      // An outside marker sits in the list's padding, which the scrolling list clips.
      const probe = document.createElement("span");
      probe.style.font = getComputedStyle(li).font;
      // The marker is the number, a dot and a space (a plain trailing space would collapse).
      probe.textContent = "10.\u00a0";
      probe.style.whiteSpace = "pre";
      document.body.appendChild(probe);
      const need = probe.getBoundingClientRect().width;
      probe.remove();
      const room = parseFloat(getComputedStyle(list).paddingLeft);
      return { ok: room >= need, how: `marker needs ${need}px, padding ${room}px` };
    });
  assert.ok(numbering.ok, `the tenth move's number is not clipped (${numbering.how})`);
  await screenshot(ada.page, "replay-seat-1280");

  for (const person of [ada, cy]) assert.deepEqual(person.errors, []);
  await ada.context.close();
  await cy.context.close();
});

test("a team's consultation window has one countdown, the turn prompt's, not a second in the chat", async () => {
  const ada = await guestPerson(browser, server.url, "Ada", newPerson);
  const code = await createRoomViaApi(server.url, ada, {
    game: "demos",
    seats: 4,
    bots: [1, 2, 3],
    options: { mode: "team_2v2" },
    turn_seconds: 90,
  });
  await ada.page.goto(`/r/${code}`);
  await waitSeated(ada.page);
  await startMatch(ada.page);
  // Each round opens with the teams' consultation: the window stays open until Ada proceeds.
  await waitFor(async () => (await clientState(ada.page)).room?.team_chat_open === true, {
    message: "the team window to open",
  });
  const window = ada.page.getByTestId("team-chat-window");
  await window.waitFor();
  const clock = ada.page.getByTestId("turn-clock");
  await clock.waitFor();
  assert.equal(await clock.count(), 1, "one clock in the turn prompt");
  const words = await window.innerText();
  assert.doesNotMatch(
    words,
    /\d+\s*s\b|\d+:\d\d/,
    `the chat's team window counts nothing down: ${words}`,
  );
  // Nothing else on the page counts down: every m:ss on it is the turn prompt's.
  const clocks = await ada.page.evaluate(
    () =>
      [...document.querySelectorAll("body *")].filter(
        (el) =>
          el.children.length === 0 &&
          /^\d+:\d\d$/.test(el.textContent.trim()) &&
          !el.closest("[data-testid=turn-clock]"),
      ).length,
  );
  assert.equal(clocks, 0, "no second countdown for the same decision");
  await screenshot(ada.page, "demos-team-window-1280");
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});
