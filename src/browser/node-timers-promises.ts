// node:timers/promises in a browser: the promise of a timer, as the core sleeps for a delay.

/** Resolves with `value` after `ms` milliseconds. */
export function setTimeout<T = void>(ms: number, value?: T): Promise<T> {
  return new Promise((resolve) => globalThis.setTimeout(() => resolve(value as T), ms));
}
