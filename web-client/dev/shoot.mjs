// Screenshots of any page of a running server, for looking at layouts by hand:
//   node dev/shoot.mjs http://127.0.0.1:8080 / /rules/demos ...   (writes test-results/shots/)
import { mkdirSync } from "node:fs";
import { chromium } from "playwright-core";

const [base, ...paths] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
mkdirSync("test-results/shots", { recursive: true });
for (const width of [1280, 360]) {
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  page.on(
    "console",
    (m) => m.type() === "error" && console.log(`console error on ${page.url()}: ${m.text()}`),
  );
  page.on("pageerror", (e) => console.log(`page error: ${e}`));
  for (const p of paths) {
    await page.goto(base + p);
    await page.waitForTimeout(600);
    const name = (p.replace(/[^a-z0-9]+/gi, "_") || "root") + `_${width}`;
    await page.screenshot({ path: `test-results/shots/${name}.png`, fullPage: true });
    console.log("wrote", name);
  }
}
await browser.close();
