/**
 * Client-side routes. The server answers every non-`/api`, non-`/ws` path with index.html,
 * so these paths work when typed, shared or reloaded.
 */
import { createStore, type Readable } from "./store";

export type Route =
  | { name: "lobby" }
  | { name: "room"; code: string; watch: boolean }
  | { name: "history"; game: string | null; page: number }
  | { name: "replay"; id: string; viewer: string | null }
  | { name: "rules"; game: string | null }
  | { name: "pieces" }
  | { name: "not_found"; path: string };

/**
 * A room code in a path: ten characters (`RoomCode::LEN` on the server), or six for rooms made
 * before codes grew longer, which the server still knows. The server checks the alphabet.
 */
export const ROOM_CODE = "(?:[A-Za-z0-9]{10}|[A-Za-z0-9]{6})(?![A-Za-z0-9])";
const CODE = new RegExp(`^${ROOM_CODE}$`);

export function parseRoute(pathname: string, search = ""): Route {
  const params = new URLSearchParams(search);
  const path = pathname.replace(/\/+$/, "") || "/";
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { name: "lobby" };
  const [head, arg] = parts;
  if (head === "r" && parts.length === 2 && CODE.test(arg)) {
    return { name: "room", code: arg.toUpperCase(), watch: params.has("watch") };
  }
  if (head === "history" && parts.length === 1) {
    const page = Number.parseInt(params.get("page") ?? "0", 10);
    return {
      name: "history",
      game: params.get("game"),
      page: Number.isFinite(page) && page > 0 ? page : 0,
    };
  }
  if (head === "replay" && parts.length === 2) {
    return { name: "replay", id: arg, viewer: params.get("viewer") };
  }
  if (head === "rules" && parts.length <= 2) return { name: "rules", game: arg ?? null };
  if (head === "pieces" && parts.length === 1) return { name: "pieces" };
  return { name: "not_found", path: pathname };
}

/**
 * The room a person typed or pasted into a "join" box: a bare code, or any link whose path is
 * a room's (`https://host/r/CODE?watch`). Null when the text names no room.
 */
export function roomCodeIn(text: string): string | null {
  const trimmed = text.trim();
  if (CODE.test(trimmed)) return trimmed.toUpperCase();
  const link = new RegExp(`(?:^|/)r/(${ROOM_CODE})/?(?:[?#].*)?$`).exec(trimmed);
  return link ? link[1].toUpperCase() : null;
}

export function roomPath(code: string, watch = false): string {
  return `/r/${code}${watch ? "?watch" : ""}`;
}

export function inviteLink(code: string, origin = globalThis.location?.origin ?? ""): string {
  return `${origin}/r/${code}`;
}

const routeStore = createStore<Route>(
  typeof window === "undefined"
    ? { name: "lobby" }
    : parseRoute(window.location.pathname, window.location.search),
);

export const route: Readable<Route> = routeStore;

export function navigate(to: string, { replace = false } = {}): void {
  const url = new URL(to, window.location.href);
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  routeStore.set(parseRoute(url.pathname, url.search));
  window.scrollTo({ top: 0 });
}

/** Wires back/forward and same-origin link clicks into the router. Call once. */
export function installRouter(): () => void {
  const onPop = () => routeStore.set(parseRoute(window.location.pathname, window.location.search));
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element | null)?.closest?.("a");
    if (!anchor || anchor.target || anchor.hasAttribute("download")) return;
    const url = new URL(anchor.href, window.location.href);
    if (url.origin !== window.location.origin) return;
    if (url.pathname.startsWith("/api") || url.pathname.startsWith("/ws")) return;
    event.preventDefault();
    if (
      url.pathname === window.location.pathname &&
      url.search === window.location.search &&
      url.hash
    ) {
      document.getElementById(url.hash.slice(1))?.scrollIntoView();
      return;
    }
    navigate(url.pathname + url.search + url.hash);
  };
  window.addEventListener("popstate", onPop);
  document.addEventListener("click", onClick);
  return () => {
    window.removeEventListener("popstate", onPop);
    document.removeEventListener("click", onClick);
  };
}
