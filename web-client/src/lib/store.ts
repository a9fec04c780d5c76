/**
 * The smallest observable value that satisfies Svelte's store contract (`$store` works in
 * components), so the protocol client does not depend on Svelte and tests need no DOM.
 */
export interface Readable<T> {
  subscribe(run: (value: T) => void): () => void;
}

export interface Store<T> extends Readable<T> {
  get(): T;
  set(value: T): void;
  update(fn: (value: T) => T): void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const subscribers = new Set<(value: T) => void>();
  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      for (const run of [...subscribers]) run(value);
    },
    update(fn) {
      this.set(fn(value));
    },
    subscribe(run) {
      subscribers.add(run);
      run(value);
      return () => subscribers.delete(run);
    },
  };
}
