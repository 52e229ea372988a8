// Precompiling after start-up: a large document's operations are compiled, its example
// answers made and its collections seeded in the background, so that the first call of an
// operation finds its checks ready instead of paying for them.
import type { SchemaObject } from '../openapi/load.js';
import type { Operation } from '../openapi/operations.js';
import type { Resource } from '../openapi/resources.js';

/**
 * One piece of precompiling; a failure is the step's own business (it warns or not).
 * `long` marks a step that makes a value (a record, an example answer): tens to hundreds of
 * ms, where a compile takes a few.
 */
export type PrecompileStep = (() => unknown) & { readonly long?: boolean };

/** The step, marked long. */
function long(step: () => unknown): PrecompileStep {
  return Object.assign(step, { long: true });
}

/** What precompiling came to, once every step has run (or it was stopped). */
interface PrecompileReport {
  /** The steps run. */
  steps: number;
  /** The longest step, ms: the longest a request that arrived meanwhile waited for one. */
  longestStepMs: number;
  /** From the first step's start to the last one's end, ms (pauses for requests included). */
  elapsedMs: number;
  /** Whether it was stopped before its last step. */
  stopped: boolean;
}

export interface Precompile {
  /** Resolves when every step has run, or when stopped. */
  readonly done: Promise<PrecompileReport>;
  /** No step is started after this (a step under way ends first). */
  stop(): void;
}

export interface PrecompileOptions {
  /**
   * Whether a step may not start now, because requests are being served or came lately: they
   * come first. Given whether the step is a long one, which may ask for a longer quiet.
   */
  busy(long: boolean): boolean;
  /**
   * How long after start-up the first step runs, so that listening (and the start-up's own
   * work) comes first: a first step can be a second of compiling. @default 1000
   */
  delayMs?: number;
  /** How long to wait before looking again while requests are served. @default 20 */
  pauseMs?: number;
  /** Steps shorter than this share one turn, until their sum reaches it. @default 8 */
  sliceMs?: number;
}

/**
 * Runs steps in turns of the event loop of at most `sliceMs` (or one step, when it is longer),
 * each after the I/O of its turn (so a request that has arrived is read and served first),
 * none while a request is being served. A step is
 * the smallest unit its work allows (one operation's schemas, one collection's records): the
 * longest step is the longest a request waits for precompiling, and the report says it.
 * Its timers never keep the process alive.
 * @example const ahead = startPrecompile(operations.map((op) => () => prepare(op)), { busy: () => inFlight > 0 });
 */
export function startPrecompile(
  steps: Iterable<PrecompileStep>,
  options: PrecompileOptions,
): Precompile {
  const iterator = steps[Symbol.iterator]();
  let stopped = false;
  /** Whether a turn of steps is under way (it ends with its step, then sees the stop). */
  let running = false;
  /** The timer of the next turn. */
  let due: ReturnType<typeof setTimeout> | undefined;
  let count = 0;
  let longest = 0;
  let first: number | undefined;
  /** The step drawn and not yet run (it waited for a quiet long enough for it). */
  let held: IteratorResult<PrecompileStep> | undefined;
  let finish: (report: PrecompileReport) => void = () => undefined;
  const done = new Promise<PrecompileReport>((resolve) => (finish = resolve));
  const report = (): PrecompileReport => ({
    steps: count,
    longestStepMs: Math.round(longest),
    elapsedMs: first === undefined ? 0 : Math.round(performance.now() - first),
    stopped,
  });
  const later = (ms: number): void => {
    // The immediate is not unref'd: an unref'd one does not stop the loop from sleeping in
    // its poll phase until some other timer is due (a second, in a test), and precompiling
    // crawled at one step a second.
    due = setTimeout(() => setImmediate(next), ms);
    due.unref();
  };
  const next = async (): Promise<void> => {
    running = true;
    try {
      await turnOfSteps();
    } finally {
      running = false;
    }
  };
  const turnOfSteps = async (): Promise<void> => {
    const turn = performance.now();
    // Small steps share a turn, up to sliceMs; a large one has a turn of its own.
    do {
      if (stopped) return finish(report());
      const step = (held ??= iterator.next());
      if (step.done) return finish(report());
      if (options.busy(step.value.long === true)) return later(options.pauseMs ?? 20);
      held = undefined;
      const started = performance.now();
      first ??= started;
      try {
        await step.value();
      } catch {
        // A step's failure is told by the step (a warning) or by the request that meets it.
      }
      longest = Math.max(longest, performance.now() - started);
      count++;
    } while (performance.now() - turn < (options.sliceMs ?? 8));
    later(0);
  };
  later(options.delayMs ?? 1000);
  return {
    done,
    stop() {
      stopped = true;
      // Between turns, nothing is left to end: done now, not when the next turn was due.
      if (running) return;
      clearTimeout(due);
      finish(report());
    },
  };
}

/** What precompiling of a large document is made of (see precompileSteps). */
export interface PrecompileWork {
  operations: readonly Operation[];
  /** Compiles an operation's checks (parameters, bodies, answers) and checks its examples. */
  prepare: (operation: Operation) => void;
  /** Makes (and keeps) the example answer of an operation no collection answers. */
  example: (operation: Operation) => void;
  resources: readonly Resource[];
  /** Seeds a collection, as its first use would; makes a nested one's records, for every parent. */
  seedOf: (resource: Resource) => unknown;
  /**
   * Each collection's record schema (and each kind's, for a collection of several): what its
   * records are made by and checked against when it is seeded. Often one no answer holds (the
   * merge of the list's item and the read's answer), so compiling the answers does not compile
   * it, and a first list would.
   */
  recordSchemas?: readonly SchemaObject[];
  /**
   * The named schemas answers reach, found when precompiling comes to them (one step): a
   * document's other named schemas (webhook payloads) are compiled only if a value reaches them.
   */
  namedSchemas: () => readonly unknown[];
  /** Compiles a named schema for answers, which a check compiles only when a value reaches it. */
  compileNamed: (schema: SchemaObject) => void;
}

/**
 * The steps of precompiling, smallest first: every operation's checks compiled (in the
 * document's order, the order a client usually meets them), then each collection's record
 * schema, then every named schema answers reach compiled for answers, then each operation's answer made (an example answer) or its collection seeded
 * (once per collection). Compiles are short steps; making a value is the long one, and part of
 * it is compiling the named schemas the value reaches when they were not yet. Making values last, once what they reach is compiled, shortens the longest steps, and
 * so the longest a request that arrives meanwhile waits; a request arriving during the first
 * seconds after start-up (a test suite's first call) meets a compile, not a record.
 * @example startPrecompile(precompileSteps({ operations, prepare, example, resources, seedOf, namedSchemas, compileNamed }), { busy })
 */
export function* precompileSteps(precompiling: PrecompileWork): Generator<PrecompileStep> {
  for (const operation of precompiling.operations) yield () => precompiling.prepare(operation);
  for (const schema of precompiling.recordSchemas ?? [])
    yield () => precompiling.compileNamed(schema);
  let named: readonly unknown[] = [];
  yield () => (named = precompiling.namedSchemas());
  for (const schema of named)
    if (typeof schema === 'object' && schema !== null)
      yield () => precompiling.compileNamed(schema as SchemaObject);
  const seeded = new Set<Resource>();
  for (const operation of precompiling.operations) {
    const resource = precompiling.resources.find((candidate) => candidate.actions.has(operation));
    if (!resource) yield long(() => precompiling.example(operation));
    else if (!seeded.has(resource)) {
      seeded.add(resource);
      yield long(() => precompiling.seedOf(resource));
    }
  }
}
