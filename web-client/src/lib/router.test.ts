import { describe, expect, it } from "vitest";
import { parseRoute, roomCodeIn } from "./router";

describe("routes", () => {
  it("parses every page the app has", () => {
    expect(parseRoute("/")).toEqual({ name: "lobby" });
    expect(parseRoute("/r/k7qx2mhdwa")).toEqual({ name: "room", code: "K7QX2MHDWA", watch: false });
    expect(parseRoute("/r/K7QX2MHDWA", "?watch")).toEqual({
      name: "room",
      code: "K7QX2MHDWA",
      watch: true,
    });
    expect(parseRoute("/history", "?game=demos&page=2")).toEqual({
      name: "history",
      game: "demos",
      page: 2,
    });
    expect(parseRoute("/replay/abc", "?viewer=seat:1")).toEqual({
      name: "replay",
      id: "abc",
      viewer: "seat:1",
    });
    expect(parseRoute("/rules/demos")).toEqual({ name: "rules", game: "demos" });
    expect(parseRoute("/rules")).toEqual({ name: "rules", game: null });
  });

  it("still opens the six-letter codes of rooms made before codes grew to ten", () => {
    expect(parseRoute("/r/k7qx2m")).toEqual({ name: "room", code: "K7QX2M", watch: false });
  });

  it("sends anything else to not found", () => {
    expect(parseRoute("/r/short").name).toBe("not_found");
    expect(parseRoute("/r/K7QX2MH").name).toBe("not_found");
    expect(parseRoute("/r/K7QX2MHDWAC").name).toBe("not_found");
    expect(parseRoute("/nowhere").name).toBe("not_found");
  });

  it("ignores a trailing slash", () => {
    expect(parseRoute("/history/")).toMatchObject({ name: "history" });
  });

  it("finds the room in a typed code or a pasted invite link", () => {
    expect(roomCodeIn(" v4mjwhk2qa ")).toBe("V4MJWHK2QA");
    expect(roomCodeIn("https://play.example/r/V4MJWHK2QA")).toBe("V4MJWHK2QA");
    expect(roomCodeIn("http://127.0.0.1:8080/r/V4MJWHK2QA?watch")).toBe("V4MJWHK2QA");
    expect(roomCodeIn("/r/k7qx2m")).toBe("K7QX2M");
    expect(roomCodeIn("K7QX2M")).toBe("K7QX2M");
  });

  it("finds no room in text that only ends like a code", () => {
    expect(roomCodeIn("nope")).toBeNull();
    expect(roomCodeIn("K7QX2MHD")).toBeNull();
    expect(roomCodeIn("https://play.example/r/V4MJWHK2QAX")).toBeNull();
    expect(roomCodeIn("https://play.example/history")).toBeNull();
  });
});
