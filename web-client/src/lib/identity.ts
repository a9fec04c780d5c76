/**
 * The identity the browser keeps: the guest token the server issued (it stores only a hash)
 * and the display name. Kept in localStorage so every tab and every visit is the same person.
 */
export interface Identity {
  token: string;
  name: string;
  player_id?: string;
}

export interface IdentityStore {
  load(): Identity | null;
  save(identity: Identity): void;
  clear(): void;
}

const KEY = "pandemonium.identity";

export function localIdentityStore(
  storage: Storage | undefined = globalThis.localStorage,
): IdentityStore {
  return {
    load() {
      try {
        const raw = storage?.getItem(KEY);
        if (!raw) return null;
        const parsed = JSON.parse(raw) as Partial<Identity>;
        if (typeof parsed.token !== "string" || typeof parsed.name !== "string") return null;
        return { token: parsed.token, name: parsed.name, player_id: parsed.player_id };
      } catch {
        return null;
      }
    },
    save(identity) {
      try {
        storage?.setItem(KEY, JSON.stringify(identity));
      } catch {
        // Private mode or a full quota: the identity lives for this page only.
      }
    },
    clear() {
      try {
        storage?.removeItem(KEY);
      } catch {
        /* as above */
      }
    },
  };
}

/** An identity store in memory, for tests and for browsers without storage. */
export function memoryIdentityStore(initial: Identity | null = null): IdentityStore {
  let identity = initial;
  return {
    load: () => identity,
    save: (next) => {
      identity = next;
    },
    clear: () => {
      identity = null;
    },
  };
}
