import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launchBrowser, newPerson, screenshot, startServer } from "./harness.mjs";

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

test("the lobby lists every registered game with its rules page, at 1280 and 360 pixels", async () => {
  // The games the real server's registry holds, as it describes them.
  const games = await (await fetch(`${server.url}/api/games`)).json();
  assert.ok(games.length >= 5, games.map((g) => g.id).join(", "));
  for (const width of [1280, 360]) {
    const { page, errors, context } = await newPerson(browser, server.url, { width, height: 800 });
    await page.goto("/");
    await page.getByRole("heading", { name: "The games" }).waitFor();
    for (const { name } of games) {
      assert.ok(await page.getByRole("heading", { name, exact: true }).first().isVisible(), name);
    }
    assert.equal(await page.getByRole("link", { name: /^Rules of / }).count(), games.length);
    await page.getByRole("heading", { name: "Public rooms" }).waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(overflow <= 0, `the lobby is ${overflow}px wider than the ${width}px viewport`);
    await screenshot(page, `lobby-${width}`);
    await page.getByRole("link", { name: "Rules of DēmoS" }).click();
    await page.getByRole("heading", { name: "House choices" }).waitFor();
    // The page beside the engine's crate, whole: the spec's numbered proposals too.
    await page.getByRole("heading", { name: "The rules in full" }).waitFor();
    await screenshot(page, `rules-demos-${width}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("a mistyped room code is refused with a sentence, and an unknown room says so", async () => {
  const { page, errors, context } = await newPerson(browser, server.url);
  await page.goto("/");
  await page.getByLabel("Room code or invite link").fill("nope");
  await page.getByRole("button", { name: "Join", exact: true }).click();
  await page.getByText("A room code is ten letters and digits").waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});
