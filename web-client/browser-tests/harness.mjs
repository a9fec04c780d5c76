// Shared machinery of the browser tests: start a server on a free port, launch Debian's
// Chromium through playwright-core, collect console errors, write screenshots.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
export const clientDir = resolve(here, "..");
export const repoDir = resolve(clientDir, "..");
// `make test` names the folder (SCREENSHOTS_DIR, relative to web-client/); this is its default.
export const screenshotDir = resolve(
  clientDir,
  process.env.SCREENSHOTS_DIR ?? join("test-results", "screenshots"),
);

export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

async function waitHealthy(url, child, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the server exited with ${child.exitCode} before answering /healthz`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.status === 200) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`the server did not answer ${url}/healthz within ${timeoutMs} ms`);
}

/**
 * Starts the real server with a throwaway SQLite database, serving `dist/`, which must be
 * built. `binary` names a binary in `target/debug/`: `pandemonium` (built by `cargo build -p
 * pandemonium-server`; PANDEMONIUM_BIN overrides its path) or, for rigged test games,
 * `pandemonium-test-server` (`cargo build -p pandemonium-e2e`). Bots answer after `botDelayMs`.
 */
export async function startServer({ botDelayMs = 20, binary: name = "pandemonium" } = {}) {
  const dist = join(clientDir, "dist");
  if (!existsSync(join(dist, "index.html")))
    throw new Error("dist/ is not built: run `npm run build` first");
  const port = await freePort();
  const bind = `127.0.0.1:${port}`;
  const tmp = mkdtempSync(join(tmpdir(), "pandemonium-browser-"));
  const binary =
    name === "pandemonium" && process.env.PANDEMONIUM_BIN
      ? process.env.PANDEMONIUM_BIN
      : join(repoDir, "target", "debug", name);
  if (!existsSync(binary))
    throw new Error(
      `${binary} does not exist: build it with cargo first (\`cargo build -p pandemonium-server\`)`,
    );
  const args = [
    "--bind",
    bind,
    "--database-url",
    `sqlite://${join(tmp, "test.db")}`,
    "--static-dir",
    dist,
    "--bot-delay-ms",
    String(botDelayMs),
    // Every browser of every test comes from 127.0.0.1, which is limited like any other
    // address (guests, rooms and lookups per minute): a test file makes more than a person.
    "--unlimited-address",
    "127.0.0.1",
  ];
  const child = spawn(binary, args, {
    cwd: repoDir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? "warn" },
  });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const url = `http://${bind}`;
  try {
    await waitHealthy(url, child);
  } catch (e) {
    child.kill("SIGKILL");
    throw new Error(`${e.message}\n--- server output ---\n${log}`);
  }
  return {
    url,
    log: () => log,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => {
          const t = setTimeout(() => {
            child.kill("SIGKILL");
            r();
          }, 5000);
          child.once("exit", () => {
            clearTimeout(t);
            r();
          });
        });
      }
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  // playwright-core gives every launch a fresh temporary profile (--user-data-dir).
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}

/** A new browser context (a separate person) with console errors collected. */
export async function newPerson(browser, baseURL, { width = 1280, height = 860 } = {}) {
  const context = await browser.newContext({ baseURL, viewport: { width, height } });
  const page = await context.newPage();
  const errors = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(String(err)));
  return { context, page, errors };
}

export async function screenshot(page, name) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}

/** Picks a display name in the name dialog (opened by the page when it needs one). */
export async function pickName(page, name) {
  const dialog = page.getByRole("dialog", { name: /call you|Change your name/ });
  await dialog.getByLabel("Display name").fill(name);
  await dialog.getByRole("button", { name: "Save name" }).click();
  await dialog.waitFor({ state: "hidden" });
}

/** The page's protocol-client state (see `pandemonium` in src/lib/session.ts). */
/**
 * The states a client goes through from `state` as it receives `frames` (raw server messages):
 * a `state` replaces it, a `patch` (JSON Patch ops against the state before) moves it on.
 * For tests that hold the server's frames back and read them before the page does.
 */
export function statesAfter(state, frames) {
  const states = [];
  let current = state;
  for (const frame of frames) {
    const msg = JSON.parse(String(frame));
    if (msg.type === "state") current = msg;
    else if (msg.type === "patch" && current?.version === msg.base)
      current = { ...applyOps(structuredClone(current), msg.ops), version: msg.version };
    else continue;
    states.push(current);
  }
  return states;
}

function applyOps(doc, ops) {
  for (const op of ops) {
    if (op.path === "") {
      doc = op.value;
      continue;
    }
    const tokens = op.path
      .split("/")
      .slice(1)
      .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
    const last = tokens.pop();
    const parent = tokens.reduce((at, t) => (Array.isArray(at) ? at[Number(t)] : at[t]), doc);
    if (Array.isArray(parent)) {
      const i = last === "-" ? parent.length : Number(last);
      if (op.op === "add") parent.splice(i, 0, op.value);
      else if (op.op === "remove") parent.splice(i, 1);
      else parent[i] = op.value;
    } else if (op.op === "remove") delete parent[last];
    else parent[last] = op.value;
  }
  return doc;
}

export function clientState(page) {
  return page.evaluate(() => {
    const s = window.pandemonium.connection().state;
    return { status: s.status, room: s.room, game: s.game, me: s.me };
  });
}

export async function waitFor(
  fn,
  { timeout = 15_000, interval = 100, message = "condition" } = {},
) {
  const deadline = Date.now() + timeout;
  let last;
  while (Date.now() < deadline) {
    last = await fn();
    if (last) return last;
    await new Promise((r) => setTimeout(r, interval));
  }
  throw new Error(`timed out waiting for ${message}`);
}
