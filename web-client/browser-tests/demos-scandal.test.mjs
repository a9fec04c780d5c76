// DēmoS 2 vs 2 + 1 through the board, in Chromium, on a rigged deal (the test server's
// `demos_rigged`, see tests/src/rigged.rs): the person is the Independent (seat 5 of 5, the four
// bots in seats 1-4), dealt the four 7s. They keep the Harmonious Square (always discarding
// another card and taking from the pack), veto the Unanimous Discard when the poll reaches them,
// win two figures with the Square (one is the Media, the next round empties the Power Pile), and
// aim the Media through the Scandal Phase's guided steps (whose figure, which one, which suit)
// before the Election. Every game action is a click or a key on the board.
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
import { gameInfo, landed, startMatch, waitSeated, watchActs } from "./flows.mjs";

const INDEPENDENT = 4;

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

/**
 * The create-room dialog always seats its creator in seat 1, and the rigged Square is dealt to
 * seat 5: the room is created over HTTP with the identity the page picked, and the page then
 * opens it (taking the only free seat). Everything after that goes through the page.
 */
async function createIndependentRoom(page) {
  await page.goto("/");
  await page.getByRole("button", { name: /^Name yourself/ }).click();
  await pickName(page, "Ada");
  const created = await page.evaluate(async () => {
    const { token } = JSON.parse(localStorage.getItem("pandemonium.identity"));
    const res = await fetch("/api/rooms", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({
        game: "demos_rigged",
        options: { mode: "team_2v2_plus_1" },
        seats: 5,
        bots: [0, 1, 2, 3],
        public: false,
        turn_seconds: null,
        grace_seconds: null,
      }),
    });
    return { status: res.status, body: await res.json() };
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  await page.goto(`/r/${created.body.code}`);
  return created.body.code;
}

/** Sum of the vetoes the status strip says each side has left. */
async function vetoesLeft(board) {
  const text = await board.locator("header.strip").innerText();
  return [...text.matchAll(/(\d+) vetoe?s?\b/g)].reduce((sum, m) => sum + Number(m[1]), 0);
}

/** A discard turn that keeps the 7s: pick another card, take the pack's top card, confirm. */
async function discardKeepingSevens(page) {
  const chooser = page.getByTestId("discard-chooser");
  const cards = chooser.locator("[data-zone=hand] button");
  await waitFor(async () => (await cards.count()) === 5, {
    timeout: 3000,
    interval: 30,
    message: "a settled hand",
  });
  const picked = chooser.locator("[data-zone=hand] button[aria-pressed=true]");
  if (await picked.count()) await picked.click(); // start from nothing picked
  await chooser
    .locator('[data-zone=hand] button:not([disabled]):not(:has([data-card^="7"]))')
    .first()
    .click();
  const pack = chooser.locator("label.take", { hasText: "The pack's top card" });
  if (await pack.count()) await pack.click();
  const confirm = chooser.getByTestId("confirm-discard");
  assert.doesNotMatch(await confirm.innerText(), /Discard the 7/, "a 7 is never discarded");
  await confirm.click();
}

test("the Independent keeps a Harmonious Square, vetoes, and aims the Media through the board up to the Election", async (t) => {
  await gameInfo(server.url, "demos_rigged");
  const ada = await newPerson(browser, server.url);
  const { page } = ada;
  await createIndependentRoom(page);
  assert.equal(await waitSeated(page), INDEPENDENT, "the person sits in the Independent's seat");
  await startMatch(page);
  const board = page.getByTestId("demos-board");
  await board.waitFor();
  assert.match(await board.locator("header.strip").innerText(), /2 vs 2 \+ 1/);
  const vetoesAtStart = await vetoesLeft(board);
  assert.equal(vetoesAtStart, 3, "each team and the Independent start with one veto");

  const prompt = page.getByTestId("demos-prompt");
  const vetoNotes = new Set();
  let iVetoed = false;
  let squareChecked = false;
  let exposed = null;
  const did = [];
  const deadline = Date.now() + 25_000;

  for (;;) {
    assert.ok(Date.now() < deadline, `the match ends in time (did: ${did.join(", ")})`);
    const state = await clientState(page);
    if (!state.game || state.status !== "online") {
      await page.waitForTimeout(40);
      continue;
    }
    const { view } = state.game;
    // A veto shows in the round's result ("… used a veto (Name)").
    if (view.last_round?.veto) {
      const note = await board
        .getByTestId("round-result")
        .getByText(/used a veto/)
        .innerText()
        .catch(() => null);
      if (note) vetoNotes.add(`${view.last_round.round}: ${note}`);
    }
    if (state.game.outcome) break;
    if (state.game.legal.length === 0) {
      await page.waitForTimeout(40);
      continue;
    }

    // Round 2 opens with the person's consultation, so round 1's result is on the board then.
    if (view.round === 2 && !squareChecked) {
      const result = board.getByTestId("round-result");
      await result.getByRole("heading", { name: "Round 1 result" }).waitFor();
      const mine = result.locator(`li[data-seat="${INDEPENDENT}"]`);
      assert.equal(await mine.getAttribute("data-winner"), "true", "the Independent won round 1");
      assert.match(await mine.innerText(), /Harmonious Square · 30 pts/);
      const combo = await mine
        .locator("[data-zone=combination] [data-card]")
        .evaluateAll((els) => els.map((e) => e.dataset.card).sort());
      assert.deepEqual(combo, ["7C", "7D", "7H", "7S"]);
      assert.match(await result.innerText(), /The Independent draws 2 figures/);
      assert.match(
        await result.innerText(),
        /After the Harmonious Square, .+ turned their first figure face up\./,
      );
      // The Square's draw is in the person's hand of figures: the Media among them.
      const myFigures = board.locator(
        `section[data-seat="${INDEPENDENT}"] [data-zone=figures] [data-card]`,
      );
      assert.ok(
        (await myFigures.evaluateAll((els) => els.map((e) => e.dataset.card))).includes("M"),
        "the Independent holds the Media",
      );
      squareChecked = true;
    }

    await watchActs(page);
    let what = null;
    if (await prompt.getByTestId("discard-chooser").isVisible()) {
      await discardKeepingSevens(page);
      what = "discard";
    } else if (
      await prompt.getByRole("heading", { name: "Veto the Unanimous Discard?" }).isVisible()
    ) {
      const veto = prompt.getByRole("button", { name: /^(Veto|Propose our veto)$/ });
      await veto.waitFor();
      await screenshot(page, "demos-scandal-veto-1280");
      // By keyboard: focus the veto button and press Enter.
      await veto.focus();
      await page.keyboard.press("Enter");
      iVetoed = true;
      what = "veto";
    } else if (await prompt.getByRole("button", { name: "Ready for the deal" }).isVisible()) {
      await prompt.getByRole("button", { name: "Ready for the deal" }).click();
      what = "proceed";
    } else if (await prompt.getByTestId("scandal-chooser").isVisible()) {
      exposed = await aimTheMedia(page);
      what = "media";
    }
    if (!what) {
      await page.waitForTimeout(40);
      continue;
    }
    await landed(page, what);
    did.push(what);
  }

  // A veto was spent: by the person through the board, or by a team before the poll reached them.
  assert.ok(vetoNotes.size > 0, "a round result tells of a veto");
  assert.ok((await vetoesLeft(board)) < vetoesAtStart, "the strip shows a veto spent");
  if (iVetoed) {
    assert.ok(
      [...vetoNotes].some((n) => /The Independent used a veto \(Ada\)/.test(n)),
      [...vetoNotes].join(" | "),
    );
    assert.match(await board.locator("header.strip").innerText(), /The Independent: 0 vetoes/);
  }
  t.diagnostic(`decisions: ${did.join(", ")}; vetoes: ${[...vetoNotes].join(" | ")}`);
  assert.ok(squareChecked, "round 1's Square was seen on the board");
  assert.ok(exposed, "the person aimed the Media");

  // The Election closes the match.
  const end = await clientState(page);
  assert.equal(end.game.view.phase.step, "over");
  assert.equal(end.game.view.power_pile, 0, "the Power Pile was emptied");
  const election = page.getByTestId("election");
  await election.waitFor();
  await page.getByTestId("end-of-match").waitFor();
  assert.equal(
    await election.locator("tbody tr").count(),
    5,
    "every player has a row in the Election",
  );

  // The exposed figure lies face up with the suit the Media named.
  const target = board.locator(`section.player[data-seat="${exposed.target}"]`);
  const figure = target
    .locator("[data-zone=figures] li")
    .nth(exposed.position)
    .locator("[data-face=up] svg");
  await figure.waitFor();
  assert.match(
    await figure.getAttribute("aria-label"),
    new RegExp(`counted as ${exposed.suit} by the Media, face up$`),
  );
  assert.equal(
    end.game.view.players[exposed.target].figures[exposed.position].media,
    exposed.suit.toLowerCase(),
  );
  await board
    .getByText(
      new RegExp(
        `^Scandal: Ada's Media exposes .+'s figure ${exposed.position + 1} and names it ${exposed.suit}\\.$`,
      ),
    )
    .waitFor();
  // The Media left the person's figures for the target's.
  assert.ok(!end.game.view.players[INDEPENDENT].figures.some((f) => f.figure === "M"));
  await screenshot(page, "demos-scandal-election-1280");

  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

/**
 * The Scandal Phase's guided Media: step 1 whose figure, step 2 which face-down figure, step 3
 * the suit (by keyboard), then Expose. Returns the target, position and the suit's name.
 */
async function aimTheMedia(page) {
  const scandal = page.getByTestId("scandal-chooser");
  const steps = scandal.getByRole("list", { name: "Steps" });
  const current = () => steps.locator("[aria-current=step]").innerText();
  const expose = scandal.getByRole("button", { name: /^Expose|^Choose a figure/ });
  assert.match(await current(), /1 · Whose figure/);
  assert.ok(await expose.isDisabled(), "nothing is sent before the three steps");

  // 1. Whose figure: every other player has a face-down figure left after the Square's reveals.
  const whose = scandal.locator("fieldset").nth(0).getByRole("button");
  assert.equal(await whose.count(), 4, "the four others can be targeted");
  const targetButton = whose.first();
  const targetLabel = await targetButton.innerText();
  await targetButton.click();
  assert.equal(await targetButton.getAttribute("aria-pressed"), "true");
  assert.match(await current(), /2 · Which figure/);
  const target = await targetSeat(page, targetLabel);
  // 2. Which of their face-down figures (blind, by position).
  const which = scandal
    .locator("fieldset")
    .nth(1)
    .getByRole("button", { name: /^Figure \d+ of .+, face down$/ });
  assert.ok((await which.count()) >= 1);
  const figureButton = which.last();
  const position =
    Number((await figureButton.getAttribute("aria-label")).match(/^Figure (\d+)/)[1]) - 1;
  await figureButton.click();
  assert.match(await current(), /3 · Which suit/);
  // 3. The suit, by keyboard.
  const suits = scandal.locator("fieldset").nth(2).getByRole("button");
  assert.equal(await suits.count(), 4, "any of the four suits may be named");
  const diamonds = scandal
    .locator("fieldset")
    .nth(2)
    .getByRole("button", { name: /Diamonds/ });
  await diamonds.focus();
  await page.keyboard.press("Enter");
  assert.equal(await diamonds.getAttribute("aria-pressed"), "true");
  assert.equal(await steps.locator("li.done").count(), 3, "the three steps are done");
  assert.match(
    await expose.innerText(),
    new RegExp(`^Expose .+'s figure #${position + 1} as Diamonds$`),
  );
  assert.ok(await expose.isEnabled());
  await screenshot(page, "demos-scandal-media-1280");
  await expose.click();
  return { target, position, suit: "Diamonds" };
}

/** The seat whose panel heading starts like the Media's target button ("Name (1 face down)"). */
async function targetSeat(page, label) {
  const name = label.replace(/\s*\(\d+ face down\)\s*$/, "");
  const seats = await page
    .locator("[data-testid=demos-board] section.player")
    .evaluateAll(
      (els, n) =>
        els
          .filter((el) => el.querySelector("h3")?.firstChild?.textContent?.trim() === n)
          .map((el) => Number(el.dataset.seat)),
      name,
    );
  assert.equal(seats.length, 1, `one player is called ${name}`);
  return seats[0];
}
