import { describe, expect, it } from "vitest";
import { ApiFailure } from "./api";
import { checkRoom, missingRoomWords } from "./roomLookup";

describe("room code lookup", () => {
  it("says a code that names no room is missing", async () => {
    const lookup = () => Promise.reject(new ApiFailure("room_not_found", "No such room.", 404));
    expect(await checkRoom(lookup, "AAAAAA")).toBe("missing");
    expect(missingRoomWords("AAAAAA")).toContain("No room has the code AAAAAA");
  });

  it("finds a room that exists", async () => {
    expect(await checkRoom(() => Promise.resolve({ code: "K7QX2M" }), "K7QX2M")).toBe("found");
  });

  it("does not call a room missing when the server is only busy or unreachable", async () => {
    expect(
      await checkRoom(
        () => Promise.reject(new ApiFailure("rate_limited", "Slow down.", 429)),
        "K7QX2M",
      ),
    ).toBe("unknown");
    expect(await checkRoom(() => Promise.reject(new TypeError("Failed to fetch")), "K7QX2M")).toBe(
      "unknown",
    );
  });
});
