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

test("the lobby lists the five games with their rules pages, at 1280 and 360 pixels", async () => {
  for (const width of [1280, 360]) {
    const { page, errors, context } = await newPerson(browser, server.url, { width, height: 800 });
    await page.goto("/");
    await page.getByRole("heading", { name: "The games" }).waitFor();
    for (const name of ["Soulitaire", "Demon", "Demon Bound!", "DēmoS", "Daemon Dice"]) {
      assert.ok(await page.getByRole("heading", { name, exact: false }).first().isVisible(), name);
    }
    assert.equal(await page.getByRole("link", { name: /^Rules of / }).count(), 5);
    await page.getByRole("heading", { name: "Public rooms" }).waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(overflow <= 0, `the lobby is ${overflow}px wider than the ${width}px viewport`);
    await screenshot(page, `lobby-${width}`);
    await page.getByRole("link", { name: "Rules of DēmoS" }).click();
    await page.getByRole("heading", { name: "House choices" }).waitFor();
    if (width === 360) await screenshot(page, `rules-demos-${width}`);
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
