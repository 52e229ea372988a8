// A state of the Redis store (its main state, or a scope): a namespace of keys, and how every
// call to Redis is made for it: within the request's store time, its failures told as
// StoreUnavailableError or StoreLostError.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { currentStoreBudget, spendBudget } from './store-budget.js';
import { failureOf, runScript, type Failure } from './redis-connection.js';
import { RedisCollection } from './redis-collection.js';
import { COUNT, MARK, RESET, type Script } from './redis-scripts.js';
import {
  keysOf,
  RETRY_AFTER_SECONDS,
  type Shared,
  type StateAccess,
  type StateKeys,
} from './redis-shared.js';
import { dropSideDataOf, sideDataOf } from './redis-side-data.js';
import {
  StoreLostError,
  StoreUnavailableError,
  type Collection,
  type CollectionDescriptor,
  type SideData,
  type Store,
} from './store.js';

/** The main state, or a scope: a namespace of keys. */
export class RedisState implements Store, StateAccess {
  readonly #collections = new Map<string, RedisCollection>();
  #keys: StateKeys | undefined;

  constructor(
    protected readonly link: Shared,
    /** The scope's name; empty for the main state. */
    private readonly scopeName: string,
  ) {}

  collection(descriptor: CollectionDescriptor): Collection {
    let collection = this.#collections.get(descriptor.name);
    if (!collection) {
      collection = new RedisCollection(descriptor, this);
      this.#collections.set(descriptor.name, collection);
    }
    return collection;
  }

  async count(): Promise<number> {
    return Number(await this.run(COUNT, [], 'read'));
  }

  async markInitial(): Promise<void> {
    const epoch = await this.run(MARK, [this.keys.claim, this.link.token, randomUUID()], 'write');
    this.link.epoch = String(epoch);
  }

  async reset(): Promise<void> {
    await this.run(RESET, [], 'write');
  }

  /** A scope's close does nothing: the store it came from owns the connection. */
  async close(): Promise<void> {}

  /** The keys every script of this state gets, and the seeding claim's. */
  get keys(): StateKeys {
    this.#keys ??= keysOf(this.link.prefix, this.scopeName);
    return this.#keys;
  }

  get settings(): Shared {
    return this.link;
  }

  /**
   * The documents and lists kept beside this state's records, under its namespace; a set names
   * them all, so that dropping the state drops them too.
   */
  sideData(): SideData {
    return sideDataOf(this);
  }

  /** Drops the documents and lists of this state; its lists' entries leave the count of all lists. */
  dropSideData(): Promise<void> {
    return dropSideDataOf(this);
  }

  /**
   * Runs one call to Redis within the store time left to the request being served (when one
   * is), so that a Redis that stops answering holds a request for that time in all, not for a
   * timeout per call.
   */
  async #withinBudget<T>(kind: 'read' | 'write', call: () => Promise<T>): Promise<T> {
    const budget = currentStoreBudget();
    if (!budget) return call();
    if (budget.leftMs <= 0) throw new BudgetSpent(budget.totalMs, false);
    const outcome = await spendBudget(budget, call);
    if (!outcome.done) throw new BudgetSpent(budget.totalMs, kind === 'write');
    return outcome.value;
  }

  /** Runs plain commands, their failures told as a script's are. */
  async command<T>(kind: 'read' | 'write', run: (client: Redis) => Promise<T>): Promise<T> {
    if (this.link.closed)
      throw new StoreUnavailableError('it is closed', RETRY_AFTER_SECONDS, {
        outcome: kind === 'read' ? 'read' : 'not-stored',
      });
    try {
      return await this.#withinBudget(kind, () => run(this.link.client));
    } catch (error) {
      throw unavailable(failureOf(error, this.link.timeoutMs), this.link.url, kind, error);
    }
  }

  /**
   * Runs a script on this state. A failure to reach Redis becomes StoreUnavailableError; a
   * write whose answer was lost is said to be of unknown outcome.
   */
  async run(script: Script, args: readonly (string | number)[], kind: 'read' | 'write') {
    const keys = this.keys;
    if (this.link.closed)
      throw new StoreUnavailableError('it is closed', RETRY_AFTER_SECONDS, {
        outcome: kind === 'read' ? 'read' : 'not-stored',
      });
    try {
      return await this.#withinBudget(kind, () =>
        runScript(
          this.link.client,
          this.link.scripts,
          script,
          [
            keys.state,
            keys.mark,
            keys.scopes,
            keys.epoch,
            keys.superseded,
            keys.lost,
            keys.spec,
            keys.main,
            keys.room,
          ],
          [this.scopeName, ...args, this.link.epoch],
        ),
      );
    } catch (error) {
      const loss = lossOf(error);
      if (loss) throw new StoreLostError(loss, `its Redis at ${this.link.url}`, kind);
      throw unavailable(failureOf(error, this.link.timeoutMs), this.link.url, kind, error);
    }
  }
}

/** The request's store time (see store-budget.ts) ran out: the call was not sent, or its answer was not awaited. */
class BudgetSpent extends Error {
  constructor(
    readonly totalMs: number,
    readonly sent: boolean,
  ) {
    super('The request spent its store time');
  }
}

/** What a guarded script's refusal says of the start-up data: gone, or replaced. */
function lossOf(error: unknown): 'gone' | 'replaced' | undefined {
  if (!(error instanceof Error) || error.name !== 'ReplyError') return undefined;
  if (error.message.startsWith('EPOCHGONE')) return 'gone';
  if (error.message.startsWith('EPOCHOTHER')) return 'replaced';
  return undefined;
}

function unavailable(
  failure: Failure | undefined,
  url: string,
  kind: 'read' | 'write',
  error: unknown,
): unknown {
  if (error instanceof BudgetSpent)
    failure = {
      problem: `did not answer within the request's ${error.totalMs} ms`,
      sent: error.sent,
    };
  if (!failure) return error;
  return new StoreUnavailableError(`its Redis at ${url} ${failure.problem}`, RETRY_AFTER_SECONDS, {
    cause: error,
    outcome: kind === 'read' ? 'read' : failure.sent ? 'unknown' : 'not-stored',
  });
}
