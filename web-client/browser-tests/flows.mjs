// UI steps shared by the browser tests.
import assert from "node:assert/strict";
import { pickName, waitFor, clientState } from "./harness.mjs";

/** The server's description of a game; fails when the server does not host it. */
export async function gameInfo(baseURL, id) {
  const games = await (await fetch(`${baseURL}/api/games`)).json();
  const game = games.find((g) => g.id === id);
  assert.ok(game, `the server hosts ${id} (it hosts ${games.map((g) => g.id).join(", ")})`);
  return game;
}

/**
 * Creates a room through the lobby's dialog: `seats` seats, seat 1 for the creator, the seats
 * listed in `bots` for bots, the rest for friends. `options` maps an option's label to the value
 * to pick (a choice's value, a number, or a boolean). Returns the room code.
 */
export async function createRoomViaUi(
  page,
  { game, seats, bots = [], options = {}, name = "Ada", isPublic = false },
) {
  await page.goto("/");
  await page.getByRole("button", { name: `New room for ${game.name}` }).click();
  const dialog = page.getByRole("dialog", { name: "Create a room" });
  await dialog.waitFor();
  if (game.min_seats !== game.max_seats)
    await dialog.getByLabel("Players at the table").selectOption(String(seats));
  for (const seat of bots) {
    await dialog
      .getByRole("radiogroup", { name: `Seat ${seat + 1}` })
      .getByText("Bot")
      .click();
  }
  for (const [label, value] of Object.entries(options)) {
    const field = dialog.getByLabel(label, { exact: true });
    if (typeof value === "boolean") await field.setChecked(value);
    else if (typeof value === "number") await field.fill(String(value));
    else await field.selectOption(value);
  }
  if (isPublic) await dialog.getByLabel("List this room in the lobby").check();
  await dialog.getByRole("button", { name: "Create room" }).click();
  // First visit: the name dialog opens before the room is created.
  const nameDialog = page.getByRole("dialog", { name: /call you|Change your name/ });
  const roomUrl = /\/r\/[A-Z0-9]{10}$/;
  const first = await Promise.race([
    page.waitForURL(roomUrl, { timeout: 10_000 }).then(() => "room"),
    nameDialog.waitFor({ timeout: 10_000 }).then(() => "name"),
    dialog
      .getByRole("alert")
      .waitFor({ timeout: 10_000 })
      .then(() => "error"),
  ]);
  if (first === "error")
    throw new Error(`the room was refused: ${await dialog.getByRole("alert").innerText()}`);
  if (first === "name") await pickName(page, name);
  await page.waitForURL(roomUrl);
  return new URL(page.url()).pathname.slice(3);
}

/** Waits until the page sits in a seat of the room and returns that seat. */
export async function waitSeated(page) {
  const found = await waitFor(
    async () => {
      const s = await clientState(page);
      return s.room && s.room.you !== null ? { seat: s.room.you } : null;
    },
    { message: "a seat" },
  );
  return found.seat;
}

/** Host: readies up and starts the match from the room page (or sees it start by itself). */
export async function startMatch(page) {
  // A solo room starts by itself (no waiting room); otherwise the host presses Start.
  const button = page.getByRole("button", { name: "Start the match" });
  const started = async () => (await clientState(page)).game !== null;
  await waitFor(async () => (await started()) || (await button.isVisible()), {
    message: "the start button or the first state",
  });
  if (!(await started())) await button.click();
  await waitFor(started, { message: "the first state" });
}

/**
 * Watches the page's acts (without sending any): every `act` the board makes records the
 * version its ack names, or its reject code, so a test can wait for its own click to land.
 */
export async function watchActs(page) {
  await page.evaluate(() => {
    const conn = window.pandemonium.connection();
    if (conn.__watched) return;
    conn.__watched = true;
    const act = conn.act.bind(conn);
    conn.act = (action) => {
      window.__actsSent = (window.__actsSent ?? 0) + 1;
      const sent = act(action);
      sent.then(
        (r) => (window.__lastAct = { version: r.version }),
        (e) => (window.__lastAct = { error: e.code ?? String(e), rule: e.rule ?? null }),
      );
      return sent;
    };
  });
  await page.evaluate(() => (window.__lastAct = null));
}

/** Waits until the act the last click made is acknowledged and its state has arrived. */
export async function landed(page, what) {
  const result = await waitFor(
    () =>
      page.evaluate(() => {
        const last = window.__lastAct;
        if (!last) return null;
        if (last.error) return last;
        const game = window.pandemonium.connection().state.game;
        return game && game.version >= last.version ? last : null;
      }),
    { message: `the ${what} to be accepted` },
  );
  if (result.error) throw new Error(`the ${what} was refused: ${result.error}`);
}

/**
 * Plays one decision of the page's DēmoS seat through the board's controls (clicks, like a
 * person), if the board offers one now. Returns what it did, or null when there was nothing to
 * do. `takeVisible` picks a visible discard as the replacement when the board offers one.
 */
export async function playDemosDecision(page, { takeVisible = false } = {}) {
  const prompt = page.getByTestId("demos-prompt");
  await watchActs(page);
  const chooser = prompt.getByTestId("discard-chooser");
  let did = null;
  if (await chooser.isVisible()) {
    const quick = { timeout: 2000 };
    const ok = (p) =>
      p.then(
        () => true,
        (e) => (process.env.DEBUG_FLOWS && console.log(String(e).slice(0, 1500)), false),
      );
    // A hand holds five cards; more means a discarded card is still flying out.
    const cards = chooser.locator("[data-zone=hand] button");
    await waitFor(async () => (await cards.count()) === 5, {
      timeout: 3000,
      interval: 30,
      message: "a settled hand",
    });
    // Pick a card unless one is picked already (a click on it would put it back).
    if (!(await chooser.locator("[data-zone=hand] button[aria-pressed=true]").count())) {
      const card = chooser.locator("[data-zone=hand] button:not([disabled])").first();
      if (!(await card.count()) || !(await ok(card.click(quick)))) return null;
    }
    const takes = chooser.locator("label.take");
    if (takeVisible && (await takes.count()) > 1) await ok(takes.nth(1).click(quick));
    if (!(await ok(chooser.getByTestId("confirm-discard").click(quick)))) return null;
    did = "discard";
  } else {
    const buttons = [
      ["Let it go ahead", "pass"],
      ["Decline", "decline"],
      ["Ready for the deal", "proceed"],
      ["Declare", "declare"],
      [/^Give out the figure/, "allocate"],
    ];
    for (const [name, what] of buttons) {
      const button = prompt.getByRole("button", { name, exact: typeof name === "string" });
      if (!(await button.count())) continue;
      // The prompt may change under us (a window closes): then the outer loop looks again.
      if (
        await button.click({ timeout: 2000 }).then(
          () => true,
          () => false,
        )
      )
        did = what;
      break;
    }
    if (!did && (await prompt.getByTestId("scandal-chooser").isVisible())) {
      const scandal = prompt.getByTestId("scandal-chooser");
      await scandal.locator("fieldset").nth(0).getByRole("button").first().click();
      await scandal.locator("fieldset").nth(1).getByRole("button").first().click();
      await scandal.locator("fieldset").nth(2).getByRole("button").first().click();
      await scandal.getByRole("button", { name: /^Expose/ }).click();
      did = "media";
    }
  }
  if (!did) return null;
  await landed(page, did);
  return did;
}

/**
 * Plays the page's DēmoS seat through the board until the match ends, or until `until(state)`
 * returns true before a decision. Returns the client state.
 */
export async function playDemosViaBoard(page, { until, limit = 400, takeVisibleEvery = 3 } = {}) {
  let decisions = 0;
  for (let i = 0; i < limit * 20; i++) {
    const state = await clientState(page);
    if (state.game?.outcome) return state;
    if (until && state.game && (await until(state))) return state;
    const mine = state.status === "online" && state.game && state.game.legal.length > 0;
    if (mine) {
      const did = await playDemosDecision(page, {
        takeVisible: decisions % takeVisibleEvery === 1,
      });
      if (did) {
        decisions++;
        if (decisions > limit) break;
        continue;
      }
    }
    await page.waitForTimeout(40);
  }
  throw new Error(`the match did not end within ${limit} decisions`);
}

/**
 * A person whose browser already holds a guest identity (made through the API), so a test can
 * create rooms through the API with options the dialog does not offer. Returns the harness
 * person with `token` and `name`.
 */
export async function guestPerson(browser, baseURL, name, newPersonFn, size) {
  const res = await fetch(`${baseURL}/api/guests`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name }),
  });
  assert.equal(res.status, 201, `a guest called ${name}`);
  const guest = await res.json();
  const person = await newPersonFn(browser, baseURL, size);
  await person.context.addInitScript(
    (identity) => {
      if (!localStorage.getItem("pandemonium.identity"))
        localStorage.setItem("pandemonium.identity", JSON.stringify(identity));
    },
    { token: guest.token, name: guest.name, player_id: guest.player_id },
  );
  return { ...person, token: guest.token, name: guest.name, playerId: guest.player_id };
}

/** Creates a room through the API as `host` (who becomes its host); returns its code. */
export async function createRoomViaApi(baseURL, host, body) {
  const res = await fetch(`${baseURL}/api/rooms`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${host.token}` },
    body: JSON.stringify({ bots: [], public: false, options: {}, ...body }),
  });
  const summary = await res.json();
  assert.equal(res.status, 201, JSON.stringify(summary));
  return summary.code;
}

/**
 * Plays every page's seat with the server's hint (what its bot would do from that seat's view),
 * through the page's own protocol client, until the match is over. For tests about the room
 * around a match rather than a board.
 */
export async function playByHints(pages, { limit = 2000 } = {}) {
  for (let i = 0; i < limit; i++) {
    let acted = false;
    for (const page of pages) {
      const state = await clientState(page);
      if (state.game?.outcome) return state;
      if (!state.game || state.game.legal.length === 0) continue;
      acted =
        (await page.evaluate(async () => {
          const conn = window.pandemonium.connection();
          const version = conn.state.game?.version;
          const hint = await conn.hint();
          if (!hint || hint.action === null || hint.version !== version) return false;
          return conn.act(hint.action).then(
            () => true,
            () => false,
          );
        })) || acted;
    }
    if (!acted) await pages[0].waitForTimeout(50);
  }
  throw new Error(`the match did not end within ${limit} rounds of hints`);
}
