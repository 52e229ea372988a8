// node:async_hooks in a browser. The store budget follows a request through its awaits with
// an AsyncLocalStorage; a page has no async context, and its store (in memory) never waits,
// so no request has a budget there: `run` runs, `getStore` finds none.

export class AsyncLocalStorage<T> {
  run<R>(_store: T, work: () => R): R {
    return work();
  }

  getStore(): T | undefined {
    return undefined;
  }
}
