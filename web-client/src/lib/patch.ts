/**
 * State patches (docs/protocol.md, "Patches"): the server sends a client that asked for them
 * each new version as JSON Patch operations (RFC 6902's `add`, `remove`, `replace`, and
 * `products`, an array of objects written as products) against the body of the state before
 * it. This applies them.
 */
import type { GameState } from "../protocol/GameState";
import type { PatchOp } from "../protocol/PatchOp";

/** The patch does not fit the document: the client must ask for the state again. */
export class PatchMismatch extends Error {
  constructor(readonly path: string) {
    super(`patch path "${path}" does not exist in the document`);
  }
}

type Json = unknown;
type Container = Record<string, Json> | Json[];

/** `state` moved to `version` by `ops`, made against `base`; `state` itself is left alone. */
export function applyStatePatch(
  state: GameState,
  version: number,
  base: number,
  ops: PatchOp[],
): GameState {
  if (state.version !== base) throw new PatchMismatch(`base version ${base}`);
  const { version: _old, ...body } = state;
  const patched = applyPatch(structuredClone(body), ops) as Omit<GameState, "version">;
  return { ...patched, version };
}

/** Applies `ops` in order to `doc` (changed in place where it can be) and returns the result. */
export function applyPatch(doc: Json, ops: PatchOp[]): Json {
  let root = doc;
  for (const op of ops) {
    if (op.path === "") {
      if (op.op === "replace") root = op.value;
      else if (op.op === "products") root = expandProducts(op.sets);
      else throw new PatchMismatch(op.path);
      continue;
    }
    const tokens = op.path.split("/").slice(1).map(unescape);
    if (op.path[0] !== "/") throw new PatchMismatch(op.path);
    const last = tokens.pop() as string;
    const parent = walk(root, tokens, op.path);
    if (Array.isArray(parent)) {
      const size = parent.length;
      switch (op.op) {
        case "add":
          parent.splice(last === "-" ? size : index(last, size + 1, op.path), 0, op.value);
          break;
        case "remove":
          parent.splice(index(last, size, op.path), 1);
          break;
        case "replace":
          parent[index(last, size, op.path)] = op.value;
          break;
        case "products":
          parent[index(last, size, op.path)] = expandProducts(op.sets);
          break;
      }
    } else {
      const has = Object.hasOwn(parent, last);
      if (op.op !== "add" && !has) throw new PatchMismatch(op.path);
      if (op.op === "remove") delete parent[last];
      else if (op.op === "products") parent[last] = expandProducts(op.sets);
      else parent[last] = op.value;
    }
  }
  return root;
}

type ProductSet = Array<[string, Array<Json>]>;

/**
 * The array of objects that `sets` stand for: for each set in turn, every object taking one of
 * the values listed for each member, the last member changing fastest (the order the server's
 * array had).
 */
export function expandProducts(sets: ProductSet[]): Json[] {
  const items: Json[] = [];
  for (const set of sets) {
    const count = set.reduce((n, [, values]) => n * values.length, 1);
    for (let i = 0; i < count; i++) {
      // Each object is built afresh with copies of its values: objects that take the same
      // listed value must not share it, or a later patch to one would change the other.
      const object: Record<string, Json> = {};
      let stride = count;
      for (const [name, values] of set) {
        stride /= values.length;
        object[name] = structuredClone(values[Math.floor(i / stride) % values.length]);
      }
      items.push(object);
    }
  }
  return items;
}

function walk(doc: Json, tokens: string[], path: string): Container {
  let at = doc;
  for (const token of tokens) {
    if (Array.isArray(at)) at = at[index(token, at.length, path)];
    else if (isObject(at) && Object.hasOwn(at, token)) at = at[token];
    else throw new PatchMismatch(path);
  }
  if (Array.isArray(at) || isObject(at)) return at;
  throw new PatchMismatch(path);
}

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function index(token: string, bound: number, path: string): number {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchMismatch(path);
  const i = Number(token);
  if (i >= bound) throw new PatchMismatch(path);
  return i;
}

function unescape(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}
