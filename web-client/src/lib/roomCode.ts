/**
 * A room code the client proposes when it creates a room (`POST /api/rooms?room=CODE`): a
 * balancer in front of a cluster hashes the request on it, so the node that creates the room
 * is the one the room's sockets (`/ws?room=CODE`) reach, and nothing has to be forwarded. The
 * server uses it only if no room ever had it, and draws its own otherwise, so a code proposed
 * twice costs nothing. The alphabet and length are the server's (`RoomCode` in
 * protocol/src/ids.rs): no 0/O, 1/I/L, B/8, S, Z.
 */
export const ROOM_CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY2345679";
export const ROOM_CODE_LENGTH = 10;

/** A fresh code, from the browser's cryptographic randomness (a private room's code is its
 * only secret). */
export function proposeRoomCode(
  random: (bytes: Uint8Array) => Uint8Array = (bytes) => crypto.getRandomValues(bytes),
): string {
  const n = ROOM_CODE_ALPHABET.length;
  // Bytes at or above the largest multiple of the alphabet's size are drawn again, so every
  // character is equally likely.
  const limit = 256 - (256 % n);
  let code = "";
  while (code.length < ROOM_CODE_LENGTH) {
    for (const byte of random(new Uint8Array(ROOM_CODE_LENGTH))) {
      if (byte < limit && code.length < ROOM_CODE_LENGTH) code += ROOM_CODE_ALPHABET[byte % n];
    }
  }
  return code;
}
