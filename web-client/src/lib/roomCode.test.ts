import { describe, expect, it } from "vitest";
import { proposeRoomCode, ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH } from "./roomCode";

describe("proposeRoomCode", () => {
  it("makes a code of the server's length from the server's alphabet", () => {
    for (let i = 0; i < 50; i++) {
      const code = proposeRoomCode();
      expect(code).toHaveLength(ROOM_CODE_LENGTH);
      for (const c of code) expect(ROOM_CODE_ALPHABET).toContain(c);
    }
  });

  it("draws again for a byte past the last whole alphabet, so no character is favoured", () => {
    // 27 letters: bytes 243-255 would favour the first 13. Here every byte is 250 at first.
    let calls = 0;
    const random = (bytes: Uint8Array) => {
      calls += 1;
      bytes.fill(calls === 1 ? 250 : 28);
      return bytes;
    };
    expect(proposeRoomCode(random)).toBe("C".repeat(ROOM_CODE_LENGTH));
    expect(calls).toBe(2);
  });
});
