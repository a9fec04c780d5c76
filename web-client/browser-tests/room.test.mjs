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
import { createRoomViaUi, gameInfo, waitSeated } from "./flows.mjs";

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

function presenceOf(page, name) {
  return page.locator("li[data-presence]", { hasText: name }).first().getAttribute("data-presence");
}

test("a friend joins a private room by its invite link, both see each other, and a spectator watches", async () => {
  // DēmoS for three: Ada hosts, Bo comes by the link, a bot takes the third seat.
  const game = await gameInfo(server.url, "demos");
  const ada = await newPerson(browser, server.url);
  const code = await createRoomViaUi(ada.page, {
    game,
    seats: 3,
    bots: [2],
    options: { Mode: "simplified" },
    name: "Ada",
  });
  assert.equal(await waitSeated(ada.page), 0);
  const invite = await ada.page.getByLabel("Invite link").inputValue();
  assert.equal(new URL(invite).pathname, `/r/${code}`);
  const listed = await (await fetch(`${server.url}/api/rooms`)).json();
  assert.ok(
    !listed.rooms.some((r) => r.code === code),
    "a private room is not listed in the lobby",
  );

  const bo = await newPerson(browser, server.url);
  await bo.page.goto(invite);
  await pickName(bo.page, "Bo");
  assert.equal(await waitSeated(bo.page), 1);

  for (const { page } of [ada, bo]) {
    await waitFor(
      async () =>
        (await presenceOf(page, "Ada")) === "online" && (await presenceOf(page, "Bo")) === "online",
      {
        message: "both players online",
      },
    );
  }

  const cy = await newPerson(browser, server.url, { width: 360, height: 780 });
  await cy.page.goto(`${invite}?watch`);
  await pickName(cy.page, "Cy");
  await cy.page.getByText("You are watching").waitFor();
  assert.equal((await clientState(cy.page)).room.you, null);
  assert.equal(
    await cy.page.getByRole("button", { name: /ready|Start the match|Sit here|Add bot/ }).count(),
    0,
    "a spectator has no controls",
  );
  assert.equal(await presenceOf(cy.page, "Ada"), "online");
  await waitFor(async () => (await clientState(ada.page)).room.spectators === 1, {
    message: "the host to see one spectator",
  });

  await ada.page.getByRole("heading", { name: "The table" }).waitFor();
  await screenshot(ada.page, "room-1280");
  await screenshot(cy.page, "room-spectator-360");
  const overflow = await cy.page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  assert.ok(overflow <= 0, `the room is ${overflow}px wider than 360px`);

  // Bo's browser goes away: the others see the seat as reconnecting.
  await bo.context.close();
  await waitFor(async () => (await presenceOf(ada.page, "Bo")) === "reconnecting", {
    message: "Bo reconnecting",
  });

  for (const person of [ada, bo, cy]) assert.deepEqual(person.errors, []);
  await ada.context.close();
  await cy.context.close();
});

test("a room that does not exist says so before asking for a name", async () => {
  const person = await newPerson(browser, server.url);
  await person.page.goto("/r/AAAAAA");
  await person.page.getByRole("heading", { name: "No such room" }).waitFor();
  assert.equal(
    await person.page.getByRole("dialog", { name: /call you/ }).count(),
    0,
    "no name is asked for a room that does not exist",
  );
  // The lobby's code field says so too, without leaving the lobby.
  await person.page.goto("/");
  await person.page.getByLabel("Room code or invite link").fill("AAAAAA");
  await person.page.getByRole("button", { name: "Join", exact: true }).click();
  await person.page.getByRole("alert").filter({ hasText: "No room has the code AAAAAA" }).waitFor();
  assert.equal(new URL(person.page.url()).pathname, "/");
  // The browser logs the lookup's 404 itself; nothing else may go wrong.
  assert.deepEqual(
    person.errors.filter((e) => !/status of 404/.test(e)),
    [],
  );
  await person.context.close();
});
