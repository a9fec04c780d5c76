/**
 * What the banners say about the connection: why the client is reconnecting and when it tries
 * next, and the notice while the server waits for its database. Words only, from the store's
 * value, so they are tested without a page.
 */
import type { ConnectionState } from "./connectionState";

export interface BannerWords {
  title: string;
  detail: string;
}

/** The reconnect banner's words at `now` (epoch ms). */
export function reconnectWords(
  state: Pick<ConnectionState, "reconnectReason" | "attempt" | "retryAt">,
  now: number,
): BannerWords {
  const seconds = state.retryAt ? Math.max(0, Math.ceil((state.retryAt - now) / 1000)) : 0;
  if (state.reconnectReason === "server_restart") {
    // A restart or a room handed to another node: routine, and over in a moment.
    return {
      title: "Back in a moment…",
      detail:
        "The server is restarting or moving this room; " +
        (seconds > 0 ? `reconnecting in ${seconds} s` : "reconnecting now"),
    };
  }
  return {
    title: "Reconnecting…",
    detail: seconds > 0 ? `next try in ${seconds} s (attempt ${state.attempt})` : "trying now",
  };
}

/** The notice while the server cannot save: nothing is lost, and nothing needs doing. */
export function databaseWords(state: Pick<ConnectionState, "pendingActs">): BannerWords {
  return {
    title: "The server is waiting for its database",
    detail:
      state.pendingActs > 0
        ? "Nothing was lost: your move goes through by itself as soon as it is back."
        : "Nothing was lost: play goes on by itself as soon as it is back.",
  };
}
