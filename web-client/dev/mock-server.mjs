#!/usr/bin/env node
// A stand-in for the Pandemonium server, for developing the client while the real one is
// being written: the same HTTP API and WebSocket protocol (src/protocol/), in memory, with a
// toy "countdown" engine behind every game (players take turns removing 1 or 2 from a counter;
// whoever takes the last one wins). It serves dist/ with the SPA fallback like the real server.
//
//   node dev/mock-server.mjs [--bind 127.0.0.1:8080] [--static-dir dist] [--grace-seconds 60]
//
// Never used in production; the browser tests use it only when PANDEMONIUM_SERVER=mock.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, resolve } from "node:path";
import { WebSocketServer } from "ws";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const [host, port] = (args.bind ?? "127.0.0.1:8080").split(":");
const staticDir = resolve(args["static-dir"] ?? "dist");
const graceMs = Number(args["grace-seconds"] ?? 60) * 1000;
const botDelayMs = Number(args["bot-delay-ms"] ?? 250);

const GAMES = [
  { id: "soulitaire", name: "Pixel Demon's Realm: Soulitaire", min_seats: 1, max_seats: 1, description: "Clear a six-by-six Spellboard onto rising and falling stacks, and feed demons to make room.", teams: false,
    options: [
      { key: "demon_on_top", label: "Demon on top", help: "Whether a bare demon blocks its stack (the printed rule) or the card beneath still counts.", kind: { type: "choice", values: [{ value: "blocks", label: "Blocks the stack" }, { value: "forgiving", label: "Card beneath counts" }] }, default: "blocks" },
      { key: "spread_demons", label: "Spread Demon Pile", help: "Show the whole Demon Pile face up instead of only its top.", kind: { type: "bool" }, default: false },
    ] },
  { id: "demon_klondike", name: "Demon", min_seats: 2, max_seats: 8, description: "Racing Klondike: everyone plays at once onto shared foundations.", teams: false,
    options: [
      { key: "deals", label: "Deals", help: "How many deals make a match.", kind: { type: "int", min: 1, max: 10 }, default: 3 },
      { key: "partial_runs", label: "Move part of a run", help: "Off: whole face-up runs move as a unit (the older rule).", kind: { type: "bool" }, default: true },
    ] },
  { id: "demon_bound", name: "Demon Bound!", min_seats: 1, max_seats: 4, description: "Sacrifice hearts, summon spades on your rivals, bind demons and trade them for diamonds.", teams: false,
    options: [
      { key: "jokers", label: "Jokers", help: "How many Jokers the deck has.", kind: { type: "int", min: 0, max: 2 }, default: 2 },
      { key: "marcus_king", label: "Marcus King (Origins 2008)", help: "Adds the special Joker that deals demons from the discard pile.", kind: { type: "bool" }, default: false },
    ] },
  { id: "demos", name: "DēmoS", min_seats: 3, max_seats: 5, description: "Discard, scheme and win rounds for figures — then survive the Scandal and win the Election.", teams: true,
    options: [
      { key: "mode", label: "Mode", help: "Which edition of the rules and which teams.", kind: { type: "choice", values: [{ value: "complete", label: "Complete" }, { value: "simplified", label: "Simplified" }, { value: "2v2", label: "2 v 2" }, { value: "2v3", label: "2 v 3" }, { value: "2v2+1", label: "2 v 2 + Independent" }] }, default: "complete" },
      { key: "discard_order", label: "Discard order", help: "Simultaneous commits (default) or one player after another.", kind: { type: "choice", values: [{ value: "simultaneous", label: "Simultaneous" }, { value: "sequential", label: "Sequential" }] }, default: "simultaneous" },
    ] },
  { id: "daemon_dice", name: "Daemon Dice", min_seats: 2, max_seats: 6, description: "Build a daemon of body-part dice, then stun, wound and grab your rivals until they fall.", teams: false,
    options: [{ key: "size", label: "Dice per daemon", help: "13 is standard; 5 and 26 are the printed alternatives.", kind: { type: "int", min: 5, max: 26 }, default: 13 }] },
];

const ALPHABET = "ACDEFGHJKMNPQRTUVWXY2345679";
const guests = new Map(); // token -> {player_id, name}
const rooms = new Map(); // code -> room
const matches = []; // finished MatchRecords, oldest first

const json = (res, status, body) => {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
};
const apiError = (res, status, code, message) => json(res, status, { code, message });

function newCode() {
  let code;
  do code = Array.from(randomBytes(6), (b) => ALPHABET[b % ALPHABET.length]).join("");
  while (rooms.has(code));
  return code;
}

function readBody(req) {
  return new Promise((ok) => {
    let data = "";
    req.on("data", (c) => (data += c));
    req.on("end", () => {
      try {
        ok(data ? JSON.parse(data) : {});
      } catch {
        ok(null);
      }
    });
  });
}

function summary(room) {
  return {
    code: room.code,
    game: room.game,
    seats: room.seats.length,
    seated: room.seats.filter((s) => s.presence !== "empty").length,
    status: room.status,
    spectators: [...room.clients].filter((c) => c.role === "spectator" || seatOf(room, c.player.player_id) === null).length,
    public: room.public,
  };
}

function seatOf(room, playerId) {
  const s = room.seats.find((x) => x.player?.id === playerId);
  return s ? s.seat : null;
}

// --- the toy engine ------------------------------------------------------------------------
const START = 6;
function engineNew(seats) {
  return { remaining: START, turn: 0, seats, moves: [] };
}
function engineLegal(g, seat) {
  if (g.remaining <= 0 || g.turn !== seat) return [];
  return g.remaining >= 2 ? [{ type: "take", count: 1 }, { type: "take", count: 2 }] : [{ type: "take", count: 1 }];
}
function engineApply(g, seat, action) {
  if (g.remaining <= 0) return { code: "match_over", message: "The match is over." };
  if (g.turn !== seat) return { code: "not_your_turn", message: "It is not your turn." };
  if (!action || action.type !== "take" || ![1, 2].includes(action.count)) return { code: "malformed_action", message: "That is not an action of this game." };
  if (action.count > g.remaining) return { code: "too_many", message: `Only ${g.remaining} left.` };
  g.remaining -= action.count;
  g.moves.push({ seat, count: action.count });
  if (g.remaining > 0) g.turn = (g.turn + 1) % g.seats;
  return null;
}
function engineView(g) {
  return { remaining: g.remaining, turn: g.turn, moves: g.moves.slice() };
}
function engineOutcome(g) {
  if (g.remaining > 0) return null;
  const winner = g.moves[g.moves.length - 1].seat;
  const placements = Array.from({ length: g.seats }, (_, s) => (s === winner ? 1 : 2));
  const scores = Array.from({ length: g.seats }, (_, s) => g.moves.filter((m) => m.seat === s).reduce((a, m) => a + m.count, 0));
  return { winners: [winner], placements, scores, summary: `Seat ${winner + 1} took the last one.` };
}

// --- rooms -----------------------------------------------------------------------------------
function snapshot(room, client) {
  const you = client.role === "spectator" ? null : seatOf(room, client.player.player_id);
  return {
    type: "room",
    code: room.code,
    game: room.game,
    options: room.options,
    seats: room.seats.map((s) => ({ seat: s.seat, player: s.player, presence: s.presence, ready: s.ready, team: null })),
    host: room.host,
    status: room.status,
    spectators: summary(room).spectators,
    public: room.public,
    you,
    match_id: room.match?.id ?? null,
    seed_hash: room.match?.seed_hash ?? null,
    team_chat_open: false,
  };
}

function stateFor(room, client) {
  const g = room.match.game;
  const you = client.role === "spectator" ? null : seatOf(room, client.player.player_id);
  const outcome = engineOutcome(g);
  return {
    type: "state",
    version: room.match.log.length,
    view: engineView(g),
    to_act: outcome ? [] : [g.turn],
    legal: you === null ? [] : engineLegal(g, you),
    deadline_ms: null,
    outcome,
  };
}

function send(client, msg) {
  if (client.ws.readyState === 1) client.ws.send(JSON.stringify(msg));
}

function broadcastRoom(room) {
  for (const c of room.clients) send(c, snapshot(room, c));
}

function broadcastState(room) {
  for (const c of room.clients) send(c, stateFor(room, c));
}

function scheduleBots(room) {
  const m = room.match;
  if (!m || room.status !== "playing") return;
  const seat = room.seats[m.game.turn];
  if (seat.presence !== "bot") return;
  clearTimeout(m.botTimer);
  m.botTimer = setTimeout(() => {
    if (room.status !== "playing") return;
    const legal = engineLegal(m.game, seat.seat);
    if (legal.length) applyAction(room, seat.seat, legal[legal.length - 1], "bot");
  }, botDelayMs);
}

function applyAction(room, seat, action, by) {
  const m = room.match;
  const err = engineApply(m.game, seat, action);
  if (err) return err;
  m.log.push({ seat, action, by });
  const outcome = engineOutcome(m.game);
  if (outcome) {
    room.status = "finished";
    matches.push({
      id: m.id,
      game: room.game,
      config: room.options,
      players: room.seats.map((s) => (s.player ? s.player.name : `Bot ${s.seat + 1}`)),
      seed: m.seed,
      seed_hash: m.seed_hash,
      log: m.log.slice(),
      outcome,
      finished: true,
      started_at: m.started_at,
      finished_at: Date.now(),
    });
  }
  broadcastState(room);
  if (outcome) broadcastRoom(room);
  else scheduleBots(room);
  return null;
}

function replayOf(record, viewer) {
  const g = engineNew(record.players.length);
  const frames = [{ action: null, view: engineView(g) }];
  for (const entry of record.log) {
    engineApply(g, entry.seat, entry.action);
    frames.push({ action: entry, view: engineView(g) });
  }
  const parsed = viewer === "omniscient" || viewer === "spectator" ? { kind: viewer } : { kind: "seat", id: Number(viewer.slice(5)) };
  return { id: record.id, game: record.game, viewer: parsed, frames, outcome: record.outcome };
}

// --- HTTP ------------------------------------------------------------------------------------
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".map": "application/json", ".png": "image/png" };

async function http(req, res) {
  const url = new URL(req.url, "http://x");
  const path = url.pathname;
  const auth = (req.headers.authorization ?? "").replace(/^Bearer /, "");
  if (path === "/healthz") return json(res, 200, { ok: true });
  if (path === "/api/games" && req.method === "GET") return json(res, 200, GAMES);
  if (path === "/api/guests" && req.method === "POST") {
    const body = await readBody(req);
    const name = String(body?.name ?? "").trim();
    if (!name || name.length > 24) return apiError(res, 400, "bad_name", "A name is 1 to 24 characters.");
    const guest = { player_id: randomUUID(), name, token: randomBytes(16).toString("hex") };
    guests.set(guest.token, { player_id: guest.player_id, name });
    return json(res, 201, guest);
  }
  if (path === "/api/rooms" && req.method === "POST") {
    const who = guests.get(auth);
    if (!who) return apiError(res, 401, "unauthorized", "Pick a name first.");
    const body = await readBody(req);
    const game = GAMES.find((g) => g.id === body?.game);
    if (!game) return apiError(res, 400, "unknown_game", "No such game.");
    const n = Number(body.seats);
    if (!(n >= game.min_seats && n <= game.max_seats)) return apiError(res, 400, "bad_seats", `${game.name} is played by ${game.min_seats} to ${game.max_seats}.`);
    const code = newCode();
    const options = { ...Object.fromEntries(game.options.map((o) => [o.key, o.default])), ...(body.options ?? {}) };
    const bots = new Set(body.bots ?? []);
    const room = {
      code, game: game.id, options, public: Boolean(body.public), host: who.player_id, status: "waiting", clients: new Set(), match: null,
      seats: Array.from({ length: n }, (_, seat) => ({ seat, player: null, presence: bots.has(seat) ? "bot" : "empty", ready: false, graceTimer: null })),
    };
    rooms.set(code, room);
    return json(res, 201, summary(room));
  }
  if (path === "/api/rooms" && req.method === "GET") {
    return json(res, 200, { rooms: [...rooms.values()].filter((r) => r.public && r.status !== "finished").map(summary) });
  }
  let m;
  if ((m = /^\/api\/rooms\/([A-Z0-9]{6})$/.exec(path))) {
    const room = rooms.get(m[1]);
    return room ? json(res, 200, summary(room)) : apiError(res, 404, "room_not_found", `There is no room ${m[1]}.`);
  }
  if (path === "/api/matches") {
    const game = url.searchParams.get("game");
    const page = Number(url.searchParams.get("page") ?? 0);
    const list = matches.filter((x) => !game || x.game === game).reverse();
    const per = 20;
    return json(res, 200, {
      matches: list.slice(page * per, page * per + per).map((x) => ({ id: x.id, game: x.game, players: x.players, outcome: x.outcome, finished_at: x.finished_at })),
      page, per_page: per, total: list.length,
    });
  }
  if ((m = /^\/api\/matches\/([^/]+)(\/replay)?$/.exec(path))) {
    const record = matches.find((x) => x.id === decodeURIComponent(m[1]));
    if (!record) return apiError(res, 404, "match_not_found", "No such finished match.");
    if (!m[2]) return json(res, 200, record);
    const viewer = url.searchParams.get("viewer") ?? "spectator";
    if (!/^(spectator|omniscient|seat:\d+)$/.test(viewer)) return apiError(res, 400, "bad_viewer", "Unknown viewer.");
    return json(res, 200, replayOf(record, viewer));
  }
  if (path.startsWith("/api/")) return apiError(res, 404, "not_found", "No such endpoint.");
  // Static files with the SPA fallback.
  let file = join(staticDir, decodeURIComponent(path));
  if (!file.startsWith(staticDir) || !existsSync(file) || statSync(file).isDirectory()) file = join(staticDir, "index.html");
  if (!existsSync(file)) return apiError(res, 404, "no_client", "The web client is not built (npm run build).");
  res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" });
  createReadStream(file).pipe(res);
}

// --- WebSocket -------------------------------------------------------------------------------
function onSocket(ws) {
  const client = { ws, player: null, room: null, role: "player" };
  ws.on("message", (raw) => {
    let msg;
    try {
      msg = JSON.parse(String(raw));
    } catch {
      return send(client, { type: "error", code: "bad_frame", message: "That frame is not JSON." });
    }
    if (!client.player) {
      if (msg.type !== "hello") return send(client, { type: "error", code: "hello_first", message: "Say hello first." });
      if (msg.token) {
        const who = guests.get(msg.token);
        if (!who) return send(client, { type: "error", code: "invalid_token", message: "This identity is not known here." });
        client.player = who;
        return send(client, { type: "welcome", player_id: who.player_id, name: who.name });
      }
      const guest = { player_id: randomUUID(), name: String(msg.name ?? "Guest").slice(0, 24) || "Guest" };
      const token = randomBytes(16).toString("hex");
      guests.set(token, guest);
      client.player = guest;
      return send(client, { type: "welcome", ...guest, token });
    }
    handle(client, msg);
  });
  ws.on("close", () => leaveRoom(client, true));
}

function leaveRoom(client, dropped) {
  const room = client.room;
  if (!room) return;
  room.clients.delete(client);
  client.room = null;
  const seat = room.seats.find((s) => s.player?.id === client.player.player_id);
  const stillHere = [...room.clients].some((c) => c.player.player_id === client.player.player_id && c.role === "player");
  if (seat && !stillHere && client.role === "player") {
    if (room.status === "waiting" && !dropped) {
      Object.assign(seat, { player: null, presence: "empty", ready: false });
    } else if (room.status !== "finished" || dropped) {
      seat.presence = "reconnecting";
      clearTimeout(seat.graceTimer);
      seat.graceTimer = setTimeout(() => {
        if (seat.presence !== "reconnecting") return;
        if (room.status === "waiting") Object.assign(seat, { player: null, presence: "empty", ready: false });
        else seat.presence = "bot";
        broadcastRoom(room);
        scheduleBots(room);
      }, graceMs);
    }
  }
  broadcastRoom(room);
}

function handle(client, msg) {
  const room = client.room;
  const me = client.player.player_id;
  const err = (code, message) => send(client, { type: "error", code, message });
  switch (msg.type) {
    case "join": {
      const target = rooms.get(String(msg.room ?? "").toUpperCase());
      if (!target) return err("room_not_found", `There is no room ${msg.room}.`);
      if (room && room !== target) leaveRoom(client, false);
      client.room = target;
      client.role = msg.role === "spectator" ? "spectator" : "player";
      target.clients.add(client);
      const seat = target.seats.find((s) => s.player?.id === me);
      if (seat && client.role === "player" && seat.presence !== "online") {
        clearTimeout(seat.graceTimer);
        seat.presence = "online";
      }
      broadcastRoom(target);
      if (target.match && (msg.version == null || msg.version < target.match.log.length)) send(client, stateFor(target, client));
      return;
    }
    case "leave":
      return leaveRoom(client, false);
  }
  if (!room) return err("not_in_room", "Join a room first.");
  const mySeat = room.seats.find((s) => s.player?.id === me);
  const isHost = room.host === me;
  switch (msg.type) {
    case "take_seat": {
      const seat = room.seats[msg.seat];
      if (room.status !== "waiting") return err("match_running", "The match has started.");
      if (client.role === "spectator") return err("spectator", "Spectators cannot sit.");
      if (!seat || seat.presence !== "empty") return err("seat_taken", "That seat is taken.");
      if (mySeat) Object.assign(mySeat, { player: null, presence: "empty", ready: false });
      Object.assign(seat, { player: { id: me, name: client.player.name }, presence: "online", ready: false });
      return broadcastRoom(room);
    }
    case "leave_seat":
      if (!mySeat || room.status !== "waiting") return err("no_seat", "You have no seat to leave.");
      Object.assign(mySeat, { player: null, presence: "empty", ready: false });
      return broadcastRoom(room);
    case "set_bot": {
      if (!isHost) return err("not_host", "Only the host can do that.");
      const seat = room.seats[msg.seat];
      if (!seat || room.status !== "waiting") return err("bad_seat", "No such seat.");
      if (msg.bot && seat.presence === "empty") seat.presence = "bot";
      else if (!msg.bot && seat.presence === "bot" && !seat.player) seat.presence = "empty";
      else return err("bad_seat", "That seat cannot change.");
      return broadcastRoom(room);
    }
    case "ready":
      if (!mySeat) return err("no_seat", "Take a seat first.");
      mySeat.ready = Boolean(msg.ready);
      return broadcastRoom(room);
    case "start": {
      if (!isHost) return err("not_host", "Only the host can start the match.");
      if (room.status !== "waiting") return err("match_running", "The match has started.");
      if (room.seats.some((s) => s.presence === "empty")) return err("seats_empty", "Fill every seat first.");
      if (room.seats.some((s) => s.player && s.presence !== "bot" && !s.ready)) return err("not_ready", "Everyone must be ready.");
      const seed = randomBytes(16).toString("hex");
      room.match = { id: randomUUID(), game: engineNew(room.seats.length), log: [], seed, seed_hash: createHash("sha256").update(seed).digest("hex"), started_at: Date.now(), botTimer: null };
      room.status = "playing";
      broadcastRoom(room);
      broadcastState(room);
      return scheduleBots(room);
    }
    case "act": {
      const reject = (code, message) => send(client, { type: "reject", seq: msg.seq, code, message });
      if (!room.match || room.status !== "playing") return reject("not_playing", "No match is running.");
      if (!mySeat || client.role === "spectator") return reject("no_seat", "You are not playing.");
      const e = applyAction(room, mySeat.seat, msg.action, "player");
      if (e) return reject(e.code, e.message);
      return send(client, { type: "ack", seq: msg.seq, version: room.match.log.length });
    }
    case "chat": {
      const text = String(msg.text ?? "").slice(0, 300);
      const channel = msg.channel === "spectators" ? "spectators" : "players";
      const watching = client.role === "spectator" || !mySeat;
      if (channel === "players" && watching) return err("not_player", "Only players talk at the table.");
      for (const c of room.clients) {
        const cWatching = c.role === "spectator" || seatOf(room, c.player.player_id) === null;
        if ((channel === "players") !== cWatching) send(c, { type: "chat", channel, from: client.player.name, text });
      }
      return;
    }
    default:
      return err("unknown_message", "Unknown message.");
  }
}

const server = createServer((req, res) => {
  http(req, res).catch((e) => apiError(res, 500, "internal", String(e)));
});
const wss = new WebSocketServer({ noServer: true });
server.on("upgrade", (req, socket, head) => {
  if (new URL(req.url, "http://x").pathname !== "/ws") return socket.destroy();
  wss.handleUpgrade(req, socket, head, (ws) => onSocket(ws));
});
server.listen(Number(port), host, () => console.log(`mock Pandemonium on http://${host}:${server.address().port}`));
