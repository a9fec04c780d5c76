import { chromium } from "playwright-core";
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
const page = await browser.newPage({ viewport: { width: 360, height: 800 } });
for (const p of process.argv.slice(2)) {
  await page.goto("http://127.0.0.1:8099" + p);
  await page.waitForTimeout(500);
  const r = await page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll("body *")) {
      const b = el.getBoundingClientRect();
      if (b.right > 361 && b.width > 0)
        out.push(
          `${el.tagName}.${el.className} right=${Math.round(b.right)} w=${Math.round(b.width)}`,
        );
    }
    return [document.documentElement.scrollWidth, out.slice(0, 12)];
  });
  console.log(p, JSON.stringify(r, null, 1));
}
await browser.close();
