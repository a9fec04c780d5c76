/**
 * The HTTP API (`/api/...`), typed with the generated protocol types. Every failure becomes an
 * {@link ApiFailure} carrying the server's `ApiError` code and sentence (or a client-side one
 * when the server could not be reached), so the UI always has a short message to show.
 */
import type { ApiError } from "../protocol/ApiError";
import type { CreateRoom } from "../protocol/CreateRoom";
import type { ErrorCode } from "../protocol/ErrorCode";
import type { GameInfo } from "../protocol/GameInfo";
import type { Guest } from "../protocol/Guest";
import type { MatchPage } from "../protocol/MatchPage";
import type { MatchRecord } from "../protocol/MatchRecord";
import type { Replay } from "../protocol/Replay";
import type { RoomList } from "../protocol/RoomList";
import type { RoomSummary } from "../protocol/RoomSummary";
import { proposeRoomCode } from "./roomCode";

/** Why an HTTP call failed: the server's code, or the client's own when no `ApiError` came back
 * (the server unreachable, or a proxy's error page: `http_<status>`). */
export type ApiFailureCode = ErrorCode | "unreachable" | `http_${number}`;

export class ApiFailure extends Error {
  constructor(
    readonly code: ApiFailureCode,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "ApiFailure";
  }
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** Which replay view to ask for: `spectator`, `omniscient` or `seat:N`. */
export type ReplayViewer = "spectator" | "omniscient" | `seat:${number}`;

export function createApi(fetchImpl: Fetch = (input, init) => fetch(input, init), base = "") {
  async function request<T>(path: string, init?: RequestInit): Promise<T> {
    let response: Response;
    try {
      response = await fetchImpl(base + path, {
        ...init,
        headers: { Accept: "application/json", ...(init?.headers ?? {}) },
      });
    } catch {
      throw new ApiFailure(
        "unreachable",
        "The server could not be reached. Check your connection.",
        0,
      );
    }
    const text = await response.text();
    let body: unknown = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
    }
    if (!response.ok) {
      const error = body as Partial<ApiError> | null;
      throw new ApiFailure(
        typeof error?.code === "string" ? error.code : `http_${response.status}`,
        typeof error?.message === "string"
          ? error.message
          : `The server answered ${response.status}.`,
        response.status,
      );
    }
    return body as T;
  }

  function post<T>(path: string, body: unknown, token?: string): Promise<T> {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    return request<T>(path, { method: "POST", headers, body: JSON.stringify(body) });
  }

  return {
    games: () => request<GameInfo[]>("/api/games"),
    newGuest: (name: string) => post<Guest>("/api/guests", { name }),
    // With a code of the client's proposing, so that a balancer creates the room on the node
    // its sockets will reach (roomCode.ts).
    createRoom: (room: CreateRoom, token: string) =>
      post<RoomSummary>(`/api/rooms?room=${proposeRoomCode()}`, room, token),
    rooms: () => request<RoomList>("/api/rooms"),
    room: (code: string) => request<RoomSummary>(`/api/rooms/${encodeURIComponent(code)}`),
    matches: (params: { game?: string; page?: number } = {}) => {
      const query = new URLSearchParams();
      if (params.game) query.set("game", params.game);
      if (params.page !== undefined) query.set("page", String(params.page));
      const qs = query.toString();
      return request<MatchPage>(`/api/matches${qs ? `?${qs}` : ""}`);
    },
    match: (id: string) => request<MatchRecord>(`/api/matches/${encodeURIComponent(id)}`),
    replay: (id: string, viewer: ReplayViewer) =>
      request<Replay>(
        `/api/matches/${encodeURIComponent(id)}/replay?viewer=${encodeURIComponent(viewer)}`,
      ),
  };
}

export type Api = ReturnType<typeof createApi>;

export const api: Api = createApi();
