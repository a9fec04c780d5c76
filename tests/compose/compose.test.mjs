// What a self-hoster does with `docker compose`, step by step, against the real Dockerfile and
// docker-compose.yml: build and start the stack, play a match in Chromium through the published
// port (a host, a friend by the invite link, a spectator), restart the server in the middle of
// it, upgrade the image while it runs, read the logs, take the stack down and up again, and
// restore a backup into an empty database; then add the `cluster` profile (two more nodes and
// HAProxy in front), play a match through HAProxy, and kill a node. Each step is one test, so
// the runner prints each with its time; a step after a failed one is skipped (it would only fail
// for the same reason).
//
// Run by tests/compose/run.sh (`make compose-test`), which starts the engine, makes the base
// images and cleans up; it passes COMPOSE (the compose command), COMPOSE_PROJECT_NAME,
// PANDEMONIUM_IMAGE, PANDEMONIUM_PORT and PANDEMONIUM_CLUSTER_PORT.
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  clientState,
  launchBrowser,
  newPerson,
  pickName,
  screenshot,
  waitFor,
} from "../../web-client/browser-tests/harness.mjs";
import {
  createRoomViaApi,
  createRoomViaUi,
  gameInfo,
  guestPerson,
  playByHints,
  waitSeated,
} from "../../web-client/browser-tests/flows.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const COMPOSE = (process.env.COMPOSE ?? "docker compose").split(" ");
const PORT = process.env.PANDEMONIUM_PORT ?? "8080";
const URL_BASE = `http://127.0.0.1:${PORT}`;
/** HAProxy's published port, in front of the three nodes of the `cluster` profile. */
const CLUSTER_BASE = `http://127.0.0.1:${process.env.PANDEMONIUM_CLUSTER_PORT ?? "8090"}`;
const FILES = ["-f", "docker-compose.yml", "-f", "tests/compose/compose.test.yml"];
/** The nodes of the `cluster` profile, by service: `server` is the first. */
const NODES = ["server", "node2", "node3"];
/** The image must stay under this (measured: see the README); a growth past it is a finding. */
const IMAGE_BUDGET_MB = 120;
/** From `docker start` to an answered /readyz, once built. */
const START_BUDGET_MS = 1000;

const MIN = 60_000;
const scratch = mkdtempSync(join(tmpdir(), "pandemonium-compose-"));
const figures = [];
let broken = null;

/** Runs a command from the repository's root; resolves with its stdout, rejects with its output. */
function run(cmd, args, { timeout = 2 * MIN, env = {}, input, output, merge = false } = {}) {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, args, {
      cwd: repo,
      env: { ...process.env, ...env },
      stdio: [input ? "pipe" : "ignore", output ? "pipe" : "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    if (output) child.stdout.pipe(output);
    else child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (merge ? (out += d) : (err += d)));
    if (input) createReadStream(input).pipe(child.stdin);
    const timer = setTimeout(() => child.kill("SIGKILL"), timeout);
    child.on("error", fail);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) ok(out.trim());
      else
        fail(
          new Error(
            `${cmd} ${args.join(" ")} ${signal ? `was killed (${signal}, after ${timeout} ms)` : `exited ${code}`}\n${err.slice(-4000)}${out.slice(-2000)}`,
          ),
        );
    });
  });
}

const compose = (args, opts) => run(COMPOSE[0], [...COMPOSE.slice(1), ...FILES, ...args], opts);
/** The same with the `cluster` profile's services (node2, node3, haproxy) in view. */
const cluster = (args, opts) => compose(["--profile", "cluster", ...args], opts);
const docker = (args, opts) => run("docker", args, opts);
const containerOf = async (service) => {
  const id = await cluster(["ps", "-q", service]);
  assert.ok(id, `the ${service} container exists`);
  return id;
};
const inspect = (id, format) => docker(["inspect", "-f", format, id]);

/** Waits until both services' own healthchecks say healthy. */
async function bothHealthy(timeout = 2 * MIN) {
  const deadline = Date.now() + timeout;
  let last = "";
  while (Date.now() < deadline) {
    const states = [];
    for (const service of ["db", "server"]) {
      const id = await compose(["ps", "-q", service]);
      states.push(id ? await inspect(id, "{{.State.Health.Status}}") : "missing");
    }
    last = states.join(", ");
    if (states.every((s) => s === "healthy")) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`db and server were not healthy within ${timeout} ms (last: ${last})`);
}

/** Milliseconds until /readyz answers 200 on the published port, polled every 20 ms. */
async function untilReady(since, timeout = MIN) {
  while (Date.now() - since < timeout) {
    try {
      if ((await fetch(`${URL_BASE}/readyz`)).status === 200) return Date.now() - since;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`/readyz did not answer within ${timeout} ms`);
}

/** Each step: skipped after a failure, timed by the runner, with a figure it may report. */
function step(name, timeout, fn) {
  test(name, { timeout }, async (t) => {
    if (broken) return t.skip(`an earlier step failed (${broken})`);
    try {
      await fn(t);
    } catch (error) {
      broken = name;
      // What the stack said, for whoever reads the failure.
      const logs = await cluster(["logs", "--no-color", "--tail", "40"], { merge: true }).catch(
        (e) => `(no logs: ${e.message})`,
      );
      console.log(`# the stack's last log lines:\n${logs.replace(/^/gm, "#   ")}`);
      throw error;
    }
  });
}
const figure = (what, value) => {
  figures.push(`${what}: ${value}`);
  console.log(`# ${what}: ${value}`);
};

/**
 * Plays `moves` actions by the server's hints through the pages' own protocol clients (the
 * way `playByHints` plays a whole match), and returns the version the last acknowledged one
 * reached.
 */
async function playMoves(pages, moves) {
  let played = 0;
  let version = 0;
  for (let round = 0; round < 50 * moves && played < moves; round++) {
    let acted = false;
    for (const page of pages) {
      if (played >= moves) break;
      const acked = await page.evaluate(async () => {
        const conn = window.pandemonium.connection();
        const game = conn.state.game;
        if (!game || game.outcome || game.legal.length === 0) return null;
        const hint = await conn.hint();
        if (!hint || hint.action === null || hint.version !== game.version) return null;
        return conn.act(hint.action).then(
          (r) => r.version,
          () => null,
        );
      });
      if (acked !== null) {
        played++;
        version = Math.max(version, acked);
        acted = true;
      }
    }
    if (!acted) await pages[0].waitForTimeout(50);
  }
  assert.equal(played, moves, `${moves} moves were played`);
  return version;
}

/** Waits until every page is online again with the room's game at `version` or later. */
async function allResumed(people, version, what) {
  for (const { page } of people) {
    await waitFor(
      async () => {
        const s = await clientState(page);
        return s.status === "online" && s.game && s.game.version >= version ? s : null;
      },
      { timeout: MIN, interval: 100, message: `${what}: every page back at version ${version}` },
    );
  }
  return Promise.all(people.map(({ page }) => clientState(page)));
}

let browser;
let ada;
let bo;
let cy;
let code;
let matchId;
let imageId;
let version = 0;

before(() => {
  for (const name of [
    "COMPOSE_PROJECT_NAME",
    "PANDEMONIUM_IMAGE",
    "PANDEMONIUM_PORT",
    "PANDEMONIUM_CLUSTER_PORT",
  ])
    assert.ok(process.env[name], `${name} is set (run this through tests/compose/run.sh)`);
});

after(async () => {
  await browser?.close();
  rmSync(scratch, { recursive: true, force: true });
  if (figures.length) console.log(`# figures\n${figures.map((f) => `#   ${f}`).join("\n")}`);
});

step("config: the stack and its cluster profile are valid compose files", MIN, async () => {
  await compose(["config", "-q"]);
  await cluster(["config", "-q"]);
  // The same check without the test's additions: what a self-hoster runs.
  const plain = ["-f", "docker-compose.yml"];
  await run(COMPOSE[0], [...COMPOSE.slice(1), ...plain, "--profile", "cluster", "config", "-q"]);
});

step("build: docker compose up -d --build", 45 * MIN, async () => {
  const started = Date.now();
  await compose(["up", "-d", "--build"], {
    timeout: 45 * MIN,
    env: { PANDEMONIUM_REVISION: "compose-test-1" },
  });
  figure("build and start", `${((Date.now() - started) / 1000).toFixed(1)} s`);
  imageId = await inspect(await containerOf("server"), "{{.Image}}");
});

step("healthy: both healthchecks pass", 3 * MIN, async () => {
  await bothHealthy();
});

step("the image is small, runs as a non-root user and has a healthcheck", MIN, async () => {
  const image = process.env.PANDEMONIUM_IMAGE;
  const bytes = Number(await docker(["image", "inspect", "-f", "{{.Size}}", `${image}:latest`]));
  const mb = bytes / 1_000_000;
  figure("image size", `${mb.toFixed(1)} MB`);
  assert.ok(mb < IMAGE_BUDGET_MB, `the image is ${mb.toFixed(1)} MB, over ${IMAGE_BUDGET_MB} MB`);
  const server = await containerOf("server");
  const uid = await docker(["exec", server, "id", "-u"]);
  assert.notEqual(uid, "0", "the server runs as a non-root user");
  const check = await docker(["image", "inspect", "-f", "{{json .Config.Healthcheck}}", image]);
  assert.match(check, /readyz/, "the image's own healthcheck asks /readyz");
  const revision = await inspect(
    server,
    '{{index .Config.Labels "org.opencontainers.image.revision"}}',
  );
  assert.equal(
    revision,
    "compose-test-1",
    "the image is labelled with the revision it was built for",
  );
});

step(
  "match started: a host, a friend by the invite link and a spectator, in Chromium",
  3 * MIN,
  async () => {
    browser = await launchBrowser();
    const game = await gameInfo(URL_BASE, "daemon_dice");
    ada = await newPerson(browser, URL_BASE);
    code = await createRoomViaUi(ada.page, {
      game,
      seats: 2,
      name: "Ada",
      options: { "Daemon size": 5 },
    });
    assert.equal(await waitSeated(ada.page), 0);
    const invite = await ada.page.getByLabel("Invite link").inputValue();
    assert.equal(new URL(invite).pathname, `/r/${code}`);

    bo = await newPerson(browser, URL_BASE);
    await bo.page.goto(invite);
    await pickName(bo.page, "Bo");
    assert.equal(await waitSeated(bo.page), 1);
    await bo.page.getByRole("button", { name: "I'm ready" }).click();
    await waitFor(async () => (await clientState(ada.page)).room.seats[1].ready, {
      message: "Bo ready",
    });

    cy = await newPerson(browser, URL_BASE, { width: 390, height: 844 });
    await cy.page.goto(`${invite}?watch`);
    await pickName(cy.page, "Cy");
    await cy.page.getByText("You are watching").waitFor();

    await ada.page.getByRole("button", { name: "Start the match" }).click();
    for (const { page } of [ada, bo, cy])
      await waitFor(async () => (await clientState(page)).game !== null, {
        message: "the first state on every page",
      });
    version = await playMoves([ada.page, bo.page], 6);
    await allResumed([ada, bo, cy], version, "after six moves");
    await screenshot(ada.page, "compose-match-host");
  },
);

step(
  "restart resumed: the server container restarts mid-match and loses no acknowledged move",
  3 * MIN,
  async () => {
    // `docker stop` and `docker start`, what `docker compose restart server` does, timed
    // without compose's own start-up around them.
    const server = await containerOf("server");
    const stopping = Date.now();
    await docker(["stop", server], { timeout: MIN });
    const stopMs = Date.now() - stopping;
    figure("graceful stop (docker stop, mid-match)", `${stopMs} ms`);
    assert.equal(await inspect(server, "{{.State.ExitCode}}"), "0", "SIGTERM ends it cleanly");
    const lines = (await docker(["logs", server])).split("\n");
    assert.ok(
      lines.some((l) => l.includes('"stopped"')),
      "the server says it stopped (store flushed)",
    );

    const starting = Date.now();
    await docker(["start", server], { timeout: MIN });
    const readyMs = await untilReady(starting);
    figure("start to /readyz (docker start)", `${readyMs} ms`);
    assert.ok(readyMs < START_BUDGET_MS, `ready in ${readyMs} ms, over ${START_BUDGET_MS} ms`);

    const states = await allResumed([ada, bo, cy], version, "after the restart");
    for (const s of states) assert.equal(s.game.version, version, "no move lost, none invented");
    assert.deepEqual(
      states.map((s) => s.room.you),
      [0, 1, null],
      "everyone is back where they were: two seats and a spectator",
    );
    // The match goes on where it stopped.
    version = await playMoves([ada.page, bo.page], 4);
    await allResumed([ada, bo, cy], version, "after four more moves");
    await bothHealthy();
  },
);

step(
  "upgrade: a newly built image replaces the server while the match runs",
  15 * MIN,
  async () => {
    const before = await containerOf("server");
    await compose(["up", "-d", "--build", "server"], {
      timeout: 15 * MIN,
      env: { PANDEMONIUM_REVISION: "compose-test-2" },
    });
    const after = await containerOf("server");
    const upgraded = await inspect(after, "{{.Image}}");
    assert.notEqual(upgraded, imageId, "a new image was built");
    assert.notEqual(after, before, "the server container was replaced");
    await untilReady(Date.now());
    const states = await allResumed([ada, bo, cy], version, "after the upgrade");
    for (const s of states) assert.equal(s.game.version, version, "no move lost in the upgrade");
    await bothHealthy();
    imageId = upgraded;
  },
);

step("match played: the match ends for all three and is in the history", 5 * MIN, async () => {
  const end = await playByHints([ada.page, bo.page]);
  assert.ok(end.game.outcome, "the match is over");
  matchId = end.room.match_id;
  for (const { page } of [ada, bo, cy]) await page.getByTestId("end-of-match").waitFor();
  await screenshot(cy.page, "compose-match-end-spectator");
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
  for (const service of ["server", "db"]) {
    const stats = await docker([
      "stats",
      "--no-stream",
      "--format",
      "{{.MemUsage}}",
      await containerOf(service),
    ]);
    figure(`${service} memory after the match`, stats.split("/")[0].trim());
  }
  for (const person of [ada, bo, cy])
    assert.deepEqual(
      person.errors.filter((e) => !/WebSocket|ERR_CONNECTION|status of 50[23]/.test(e)),
      [],
      "no error on the pages but the restarts' dropped connections",
    );
});

step("logs: JSON lines, and the room's lines name the room and the node", MIN, async () => {
  // The server container's own output, both streams, since the upgrade made it.
  const server = await containerOf("server");
  const out = await docker(["logs", server], { merge: true });
  const lines = out.split("\n").filter((l) => l.trim());
  assert.ok(lines.length > 0, "the server logged");
  const parsed = lines.map((line) => {
    try {
      return JSON.parse(line);
    } catch {
      assert.fail(`a log line is not JSON: ${line}`);
    }
  });
  for (const entry of parsed) {
    assert.ok(entry.timestamp && entry.level && entry.fields, JSON.stringify(entry));
  }
  const ofRoom = parsed.filter((e) => JSON.stringify(e.span ?? e.spans ?? {}).includes(code));
  assert.ok(ofRoom.length > 0, `some line carries the room ${code} in its span`);
  assert.ok(
    ofRoom.every((e) => (e.span?.room ?? e.spans?.find((s) => s.room)?.room) === code),
    "the room's lines name it in their `room` field",
  );
  // Every node of the stack is named (PANDEMONIUM_NODE_NAME): the first is `server`.
  const node = "server";
  assert.ok(
    ofRoom.every((e) => e.spans?.find((s) => s.name === "node")?.node === node),
    `the room's lines name the node they come from (${node})`,
  );
});

function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.on("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

step(
  "TLS in front: deploy/Caddyfile serves the lobby and a room's WebSocket over HTTPS",
  2 * MIN,
  async () => {
    // The example as shipped, with this machine's names: localhost for the public name (Caddy
    // then signs with its own local authority instead of asking Let's Encrypt) and the test's
    // port for 8080. Caddy's own state stays in the scratch folder, and it installs no root
    // certificate anywhere.
    const caddy = process.env.CADDY;
    assert.ok(caddy, "CADDY names a caddy binary (run.sh unpacks Debian's)");
    const port = await freePort();
    const site = readFileSync(join(repo, "deploy", "Caddyfile"), "utf8")
      .replace("games.example.org", `https://localhost:${port}`)
      .replace("127.0.0.1:8080", `127.0.0.1:${PORT}`);
    const config = join(scratch, "Caddyfile");
    writeFileSync(
      config,
      `{\n\tadmin off\n\tskip_install_trust\n\tauto_https disable_redirects\n\tstorage file_system ${join(scratch, "caddy")}\n}\n\n${site}`,
    );
    const proxy = spawn(caddy, ["run", "--config", config, "--adapter", "caddyfile"], {
      env: { ...process.env, HOME: scratch, XDG_DATA_HOME: scratch, XDG_CONFIG_HOME: scratch },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let said = "";
    proxy.stderr.on("data", (d) => (said += d));
    const base = `https://localhost:${port}`;
    const people = [];
    try {
      const person = async (name) => {
        const context = await browser.newContext({ baseURL: base, ignoreHTTPSErrors: true });
        const page = await context.newPage();
        people.push(context);
        return { context, page, name };
      };
      const probe = await person("probe");
      await waitFor(
        async () => {
          if (proxy.exitCode !== null) throw new Error(`caddy exited:\n${said.slice(-3000)}`);
          const res = await probe.page.goto("/readyz").catch(() => null);
          return res?.status() === 200;
        },
        { timeout: 30_000, interval: 250, message: "the server through Caddy" },
      );
      const game = await gameInfo(URL_BASE, "daemon_dice");
      const dee = await person("Dee");
      const room = await createRoomViaUi(dee.page, { game, seats: 2, name: "Dee" });
      assert.equal(await waitSeated(dee.page), 0);
      const invite = await dee.page.getByLabel("Invite link").inputValue();
      assert.equal(new URL(invite).origin, base, "the invite link is the public https address");
      const eve = await person("Eve");
      await eve.page.goto(invite);
      await pickName(eve.page, "Eve");
      assert.equal(await waitSeated(eve.page), 1, "Eve sits by the link, over a TLS WebSocket");
      await waitFor(
        async () => (await clientState(dee.page)).room?.seats[1]?.player?.name === "Eve",
        {
          message: "Dee sees Eve at the table",
        },
      );
      assert.equal(room.length, 10);
    } finally {
      for (const context of people) await context.close();
      proxy.kill("SIGTERM");
    }
  },
);

async function matchInHistory() {
  const res = await fetch(`${URL_BASE}/api/matches/${matchId}`);
  assert.equal(res.status, 200, `the match ${matchId} is served`);
  const record = await res.json();
  assert.ok(record.log.length > 10, "with its action log");
  const list = await (await fetch(`${URL_BASE}/api/matches`)).json();
  assert.ok(JSON.stringify(list).includes(matchId), "and listed in the history");
}

step("down and up kept history: the volume keeps the finished match", 3 * MIN, async () => {
  await compose(["down"], { timeout: 2 * MIN });
  assert.equal(await compose(["ps", "-q"]), "", "nothing runs after down");
  await compose(["up", "-d"], { timeout: 2 * MIN });
  await bothHealthy();
  await matchInHistory();
});

step(
  "backup restored: pg_dump, an empty volume, pg_restore, the match is back",
  5 * MIN,
  async () => {
    const dump = join(scratch, "pandemonium.dump");
    await compose(["exec", "-T", "db", "pg_dump", "-U", "pandemonium", "-Fc", "pandemonium"], {
      output: createWriteStream(dump),
    });
    assert.ok(statSync(dump).size > 1000, "the dump holds something");
    figure("pg_dump of one match", `${statSync(dump).size} bytes`);

    await compose(["down", "-v"], { timeout: 2 * MIN });
    await compose(["up", "-d", "db"], { timeout: 2 * MIN });
    await waitFor(
      async () =>
        (await inspect(await containerOf("db"), "{{.State.Health.Status}}")) === "healthy",
      { timeout: MIN, interval: 250, message: "the new database" },
    );
    // A new volume's database is made by a first, temporary server that already answers the
    // healthcheck on its socket and is then stopped for the real one: a query in between finds
    // no socket, so the first query is asked again until the real one answers.
    const tables = await waitFor(
      () =>
        compose([
          "exec",
          "-T",
          "db",
          "psql",
          "-U",
          "pandemonium",
          "-d",
          "pandemonium",
          "-tAc",
          "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'",
        ]).catch(() => null),
      { timeout: 30_000, interval: 250, message: "the new database answering psql" },
    );
    assert.equal(tables, "0", "the new volume starts empty");
    await compose(
      ["exec", "-T", "db", "pg_restore", "-U", "pandemonium", "-d", "pandemonium", "--no-owner"],
      { input: dump },
    );
    await compose(["up", "-d"], { timeout: 2 * MIN });
    await bothHealthy();
    await matchInHistory();
  },
);

// --- the `cluster` profile: two more nodes and HAProxy in front of the three ------------------

/** A node's container health, as its own healthcheck says. */
async function nodeHealth(service) {
  const id = await cluster(["ps", "-q", service]);
  return id ? inspect(id, "{{.State.Health.Status}}") : "missing";
}

/** Fetches through HAProxy with a time limit; resolves with the response. */
const throughHaproxy = (path, init = {}) =>
  fetch(`${CLUSTER_BASE}${path}`, {
    signal: AbortSignal.timeout(5_000),
    ...init,
  });

let clusterHost;
let clusterGuest;

step(
  "cluster up: --profile cluster adds node2, node3 and HAProxy to the running stack",
  15 * MIN,
  async () => {
    const started = Date.now();
    // The nodes run the image the server runs; HAProxy's image is built, being missing. The
    // running server and database are left as they are.
    await cluster(["up", "-d"], { timeout: 15 * MIN });
    await waitFor(
      async () => (await Promise.all(NODES.map(nodeHealth))).every((h) => h === "healthy"),
      { timeout: 2 * MIN, interval: 250, message: "the three nodes healthy" },
    );
    await waitFor(async () => (await throughHaproxy("/readyz").catch(() => null))?.status === 200, {
      timeout: MIN,
      interval: 100,
      message: "/readyz through HAProxy",
    });
    figure(
      "cluster profile up, nodes healthy (node2, node3, HAProxy)",
      `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    // Requests without a room go round robin: after a few, each node has answered one, which
    // HAProxy's log says (`nodes/node2`): all three passed its health checks.
    const haproxy = await containerOf("haproxy");
    await waitFor(
      async () => {
        for (let i = 0; i < 3; i++) assert.equal((await throughHaproxy("/api/games")).status, 200);
        const log = await docker(["logs", haproxy], { merge: true });
        // Every node is named in two backends (checked, and unchecked for a database
        // outage): both must have found its address.
        assert.doesNotMatch(log, /No IP for server/, "HAProxy found every node's address");
        return ["node1", "node2", "node3"].every((n) => log.includes(`nodes/${n} `));
      },
      {
        timeout: 30_000,
        interval: 500,
        message: "HAProxy's log naming each of the three nodes",
      },
    );
  },
);

step(
  "cluster match: a room created over HTTP through HAProxy, played to its end in Chromium",
  5 * MIN,
  async () => {
    const hostGuest = await guestPerson(browser, CLUSTER_BASE, "Fay", newPerson);
    clusterHost = hostGuest;
    const room = await createRoomViaApi(CLUSTER_BASE, hostGuest, {
      game: "daemon_dice",
      seats: 2,
      options: { size: 5 },
    });
    // Any node answers for the room, whichever created it: the others hear of a new room
    // within a second. Requests go round robin, so three answers in a row are the three nodes'.
    await waitFor(
      async () => {
        for (let i = 0; i < NODES.length; i++) {
          const res = await throughHaproxy(`/api/rooms/${room}`);
          if (res.status !== 200) return false;
          assert.equal((await res.json()).code, room);
        }
        return true;
      },
      { timeout: 5_000, interval: 200, message: `every node answering for the room ${room}` },
    );
    await hostGuest.page.goto(`/r/${room}`);
    assert.equal(await waitSeated(hostGuest.page), 0, "the host sits in seat 1");
    const invite = await hostGuest.page.getByLabel("Invite link").inputValue();
    assert.equal(new URL(invite).origin, CLUSTER_BASE, "the invite link is HAProxy's address");

    clusterGuest = await newPerson(browser, CLUSTER_BASE);
    await clusterGuest.page.goto(invite);
    await pickName(clusterGuest.page, "Gus");
    assert.equal(await waitSeated(clusterGuest.page), 1);
    await clusterGuest.page.getByRole("button", { name: "I'm ready" }).click();
    await waitFor(async () => (await clientState(hostGuest.page)).room.seats[1].ready, {
      message: "Gus ready",
    });
    await hostGuest.page.getByRole("button", { name: "Start the match" }).click();
    const end = await playByHints([hostGuest.page, clusterGuest.page]);
    assert.ok(end.game.outcome, "the match is over");
    for (const { page } of [hostGuest, clusterGuest])
      await page.getByTestId("end-of-match").waitFor();
    await screenshot(clusterGuest.page, "compose-cluster-match-end");
    const record = await throughHaproxy(`/api/matches/${end.room.match_id}`);
    assert.equal(record.status, 200, "the finished match is served through HAProxy");
  },
);

step(
  "cluster node killed: after SIGKILL on node2 the site still answers through HAProxy",
  2 * MIN,
  async () => {
    const node2 = await containerOf("node2");
    const killed = Date.now();
    await docker(["kill", node2]);
    // From the kill on, every request is answered: one that HAProxy sends to node2 before its
    // health checks notice is refused and tried again on another node.
    const paths = ["/readyz", "/api/games", "/api/rooms", "/", "/readyz", "/api/games"];
    for (let round = 0; round < 5; round++)
      for (const path of paths) {
        const res = await throughHaproxy(path);
        assert.equal(res.status, 200, `${path} after the kill (round ${round + 1})`);
      }
    // And what needs the database and a node to own it: a new room.
    const code = await createRoomViaApi(CLUSTER_BASE, clusterHost, {
      game: "daemon_dice",
      seats: 2,
    });
    // Served by whichever node answers, once the others have heard of it (within a second).
    await waitFor(async () => (await throughHaproxy(`/api/rooms/${code}`)).status === 200, {
      timeout: 5_000,
      interval: 200,
      message: `the room ${code} through HAProxy`,
    });
    figure(
      "requests answered through HAProxy after a node's SIGKILL",
      `${paths.length * 5} of ${paths.length * 5}, in ${Date.now() - killed} ms`,
    );
    for (const person of [clusterHost, clusterGuest]) await person?.context.close();
  },
);

step(
  "cluster database outage: HAProxy still reaches the nodes while db is stopped, and checks them again after",
  2 * MIN,
  async () => {
    const haproxy = await containerOf("haproxy");
    /** Which backend served each of the last `n` requests, from HAProxy's log. */
    const servedBy = async (n) =>
      (await docker(["logs", haproxy], { merge: true }))
        .split("\n")
        .filter((l) => / "GET /.test(l))
        .slice(-n)
        .map((l) => l.match(/ (nodes[\w-]*)\/node\d /)?.[1]);
    const stopped = Date.now();
    await compose(["stop", "db"], { timeout: MIN });
    // Every node now fails its /readyz check; once HAProxy has marked them all down, it
    // reaches them unchecked: the web client and the lobby are served from the nodes' memory.
    await waitFor(
      async () => {
        assert.equal((await throughHaproxy("/api/games")).status, 200, "the lobby's games");
        return (await servedBy(1))[0] === "nodes-unchecked";
      },
      { timeout: 30_000, interval: 250, message: "HAProxy serving from nodes-unchecked" },
    );
    for (const path of ["/", "/api/rooms"])
      assert.equal((await throughHaproxy(path)).status, 200, `${path} while the database is down`);
    await compose(["start", "db"], { timeout: MIN });
    await waitFor(
      async () =>
        (await throughHaproxy("/readyz", { signal: AbortSignal.timeout(15_000) }).catch(() => null))
          ?.status === 200,
      { timeout: MIN, interval: 100, message: "/readyz through HAProxy once the database is back" },
    );
    // Checked again: requests go to the checked nodes once they pass, none left unchecked.
    await waitFor(
      async () => {
        for (let i = 0; i < 3; i++) await throughHaproxy("/api/games");
        return (await servedBy(3)).every((b) => b === "nodes");
      },
      { timeout: 10_000, interval: 250, message: "requests back on the checked nodes" },
    );
    figure(
      "database stopped, served unchecked, started, checked again",
      `${Date.now() - stopped} ms`,
    );
  },
);
