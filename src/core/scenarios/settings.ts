import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { SideData } from '../../store/store.js';
import { errors } from '../../vocabulary/error-catalogue.js';
import type { Operation } from '../../openapi/operations.js';
import {
  FAULT_KINDS,
  MAX_DELAY_MS,
  readPreferences,
  type FaultKind,
  type Preferences,
} from './prefer.js';

/** What every answer of a run goes through: latency and random faults. */
export interface ScenarioSettings {
  /** Each answer waits a time drawn from this range, in milliseconds (`{ min: 0, max: 0 }`: none). */
  delay: { min: number; max: number };
  /** The share of requests, 0 to 1, that get a fault instead of their answer. */
  faultRate: number;
  /** The faults drawn from when `faultRate` strikes. */
  faultKinds: FaultKind[];
  /** A scenario every request of the state plays, as if its `Prefer` header asked for it. */
  force?: Force;
}

/**
 * A scenario forced on a state's requests (the Playwright fixture's `mock.force()`): kept in
 * the state, so it reaches the mock however the client calls it (directly, through a proxy).
 * It ends when its count or its time runs out, or when it is cleared; with neither, it holds
 * until cleared (`force: null`) or the state's reset.
 */
export interface Force {
  /** What a `Prefer` header would say: `code=500`, `fault=reset`, `example=empty`. */
  prefer: string;
  /** How many more requests it holds for. @default no count */
  times?: number;
  /** When it ends, an ISO date-time of the wall clock. @default no end */
  until?: string;
}

/** What `PATCH /settings` takes: `force: null` clears the force. */
export type SettingsChange = Partial<Omit<ScenarioSettings, 'force'>> & { force?: Force | null };

/** @internal for its tests: no part of the package's surface */
export const DEFAULT_SCENARIO_SETTINGS: ScenarioSettings = {
  delay: { min: 0, max: 0 },
  faultRate: 0,
  faultKinds: [...FAULT_KINDS],
};

/** Where a state's scenario settings are kept: a document of the state backend. */
export interface SettingsCell {
  /** The settings in force. */
  read(): Promise<ScenarioSettings>;
  /** The settings in force when known without waiting (a store of this process, once read); else undefined. */
  known(): ScenarioSettings | undefined;
  write(settings: ScenarioSettings): Promise<void>;
  /** Back to the settings the mock started with. */
  clear(): Promise<void>;
}

/** The name of the document that holds a state's settings. */
const SETTINGS_DOCUMENT = 'settings';

/**
 * A state's settings as a document of its side data: a store of this process holds it in
 * memory, a shared one beside the records (then a change through one replica holds for all).
 * The settings are written frozen, so that a store of this process hands them out on every
 * request as they are, never copied; until a change, the frozen start-up settings.
 * @example const cell = storedSettings(store.sideData(), DEFAULT_SCENARIO_SETTINGS);
 */
export function storedSettings(side: SideData, initial: ScenarioSettings): SettingsCell {
  const start = frozen(initial);
  // The last document read and the settings it gave: a store of this process hands out one
  // promise per document until it changes, so the settings read on every request cost no
  // promise of their own.
  let lastRead: Promise<unknown> | undefined;
  let lastSettings: Promise<ScenarioSettings> = Promise.resolve(start);
  /** What `lastSettings` gave, once settled: a request then reads its settings without an await. */
  let settled: ScenarioSettings | undefined;
  function read(): Promise<ScenarioSettings> {
    const document = side.readDocument(SETTINGS_DOCUMENT);
    if (document !== lastRead) {
      lastRead = document;
      settled = undefined;
      const reading = document.then((stored) =>
        stored === undefined ? start : (stored as ScenarioSettings),
      );
      lastSettings = reading;
      reading.then(
        (settings) => {
          if (lastSettings === reading) settled = settings;
        },
        () => undefined, // its reader is told
      );
    }
    return lastSettings;
  }
  return {
    read,
    known() {
      // A shared store hands out a new promise each time: never known, always awaited.
      read();
      return settled;
    },
    write: (settings) => side.writeDocument(SETTINGS_DOCUMENT, frozen(settings)),
    clear: () => side.deleteDocument(SETTINGS_DOCUMENT),
  };
}

function frozen(settings: ScenarioSettings): ScenarioSettings {
  const copy = structuredClone(settings);
  Object.freeze(copy.delay);
  Object.freeze(copy.faultKinds);
  if (copy.force) Object.freeze(copy.force);
  return Object.freeze(copy);
}

/**
 * The scenario settings of one state (the default, or a session), set at start-up and changed
 * by the admin API for a test run, and the seeded draws they make: the same seed and the same
 * requests give the same delays and faults, so a failing resilience test can be replayed.
 * @example const scenarios = new Scenarios(storedSettings(store.sideData(), DEFAULT_SCENARIO_SETTINGS), 1);
 */
export class Scenarios {
  readonly #cell: SettingsCell;
  readonly #seed: number;
  #random: ReturnType<typeof xoroshiro128plus>;
  /** The last take of the force: the next waits for it. */
  #taking: Promise<void> = Promise.resolve();

  constructor(cell: SettingsCell, seed: number) {
    this.#cell = cell;
    this.#seed = seed;
    this.#random = xoroshiro128plus(seed);
  }

  /** The settings in force. */
  settings(): Promise<ScenarioSettings> {
    return this.#cell.read();
  }

  /** The settings in force when they are known without waiting (see SettingsCell.known). */
  knownSettings(): ScenarioSettings | undefined {
    return this.#cell.known();
  }

  /** Changes some settings; the others stay. @throws {ApiError} 400 for an impossible one. */
  async update(change: SettingsChange): Promise<ScenarioSettings> {
    const { force, ...rest } = { ...(await this.#cell.read()), ...change };
    const next: ScenarioSettings = force ? { ...rest, force } : rest;
    checkSettings(next);
    await this.#cell.write(next);
    return next;
  }

  /**
   * The preferences the state's force gives this request, if one holds, counted: takes are
   * one at a time, so that two requests at once never both spend the last of a count.
   */
  takeForced(operation: Operation): Promise<Preferences | undefined> {
    const take = this.#taking.then(async () => {
      const settings = await this.#cell.read();
      const { force, ...rest } = settings;
      if (!force) return undefined;
      const expired = force.until !== undefined && Date.parse(force.until) <= Date.now();
      if (expired || force.times === 1) await this.#cell.write(rest);
      if (expired) return undefined;
      if (force.times !== undefined && force.times > 1)
        await this.#cell.write({ ...settings, force: { ...force, times: force.times - 1 } });
      return readPreferences({ headers: { prefer: force.prefer } }, operation);
    });
    this.#taking = take.then(
      () => undefined,
      () => undefined,
    );
    return take;
  }

  /** Back to the start-up settings, and the start of the seeded sequence. */
  async reset(): Promise<void> {
    await this.#cell.clear();
    this.#random = xoroshiro128plus(this.#seed);
  }

  /** How long this answer waits: what the request prefers, else a draw from the range. */
  delayFor(settings: ScenarioSettings, preferences: Preferences): number {
    if (preferences.delay !== undefined) return preferences.delay;
    const { min, max } = settings.delay;
    return max === 0 ? 0 : uniformInt(this.#random, min, max);
  }

  /** The fault this request gets, if any: the one it prefers, else a seeded draw. */
  faultFor(settings: ScenarioSettings, preferences: Preferences): FaultKind | undefined {
    if (preferences.fault) return preferences.fault;
    const { faultRate, faultKinds } = settings;
    if (faultRate === 0 || uniformFloat64(this.#random) >= faultRate) return undefined;
    return faultKinds[uniformInt(this.#random, 0, faultKinds.length - 1)];
  }
}

/**
 * @throws {ApiError} 400 `invalid_settings` for settings that cannot be played.
 * @example checkSettings({ delay: { min: 5, max: 1 }, faultRate: 0, faultKinds: ['reset'] }) // throws
 */
function checkSettings(settings: ScenarioSettings): void {
  const { delay, faultRate, faultKinds, force } = settings;
  const valid =
    Number.isInteger(delay.min) &&
    Number.isInteger(delay.max) &&
    delay.min >= 0 &&
    delay.min <= delay.max &&
    delay.max <= MAX_DELAY_MS;
  if (!valid)
    throw errors.invalidSettings(
      `The delay must be a range of whole milliseconds from 0 to ${MAX_DELAY_MS}, its min at most its max`,
    );
  if (!(faultRate >= 0 && faultRate <= 1))
    throw errors.invalidSettings('The fault rate must be from 0 to 1');
  if (faultKinds.length === 0 || faultKinds.some((kind) => !FAULT_KINDS.includes(kind)))
    throw errors.invalidSettings(`The fault kinds must be some of ${FAULT_KINDS.join(', ')}`);
  if (force) checkForce(force);
}

/** @throws {ApiError} 400 for a force that cannot be played, as its `Prefer` header would be. */
function checkForce({ prefer, times, until }: Force): void {
  readPreferences({ headers: { prefer } });
  if (times !== undefined && !(Number.isInteger(times) && times >= 1))
    throw errors.invalidSettings('A force holds for a whole number of requests, at least 1');
  if (until !== undefined && Number.isNaN(Date.parse(until)))
    throw errors.invalidSettings(`A force ends at a date and time, not "${until}"`);
}
