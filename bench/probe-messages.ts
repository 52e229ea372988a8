// What the bench asks a server that runs bench/probe.ts, and what it answers. Apart from
// probe.ts so that the bench can name them without running the probe in itself.

export type ProbeRequest =
  /** Memory now; after two full collections when `gc` is set (the server needs --expose-gc). */
  | { type: 'memory'; gc?: boolean }
  /** Starts recording event-loop delay, from zero. */
  | { type: 'delay-start' }
  /** Stops recording event-loop delay and reports it. */
  | { type: 'delay-stop' }
  /** Starts V8's CPU profiler (the one `--cpu-prof` uses). */
  | { type: 'profile-start' }
  /** Stops it and writes the profile, as a `.cpuprofile` file DevTools opens, to `path`. */
  | { type: 'profile-stop'; path: string };

/** process.memoryUsage() of the server, in bytes. */
export interface MemoryReport {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** Each V8 heap space's committed size and what its objects use, in bytes. */
  spaces?: Record<string, { size: number; used: number }>;
}

/** How late the server's event loop ran a 1 ms timer, in milliseconds. */
export interface DelayReport {
  p50: number;
  p99: number;
  max: number;
  /**
   * The most CPU the main thread used between two runs of that timer: the longest the
   * server's own work held its event loop. Lateness beyond it was time without a core
   * (another thread or process had it). Linux only.
   */
  longestTurnCpu?: number;
  /** The share of the time the main thread was ready to run but waited for a core. Linux only. */
  runQueueShare?: number;
  /** The share of the time the main thread ran. Linux only. */
  mainThreadShare?: number;
  /** CPU time of the process's other threads (GC helpers, libuv's pool), as a share of the time. Linux only. */
  otherThreadsShare?: number;
}

export interface ProbeAnswers {
  memory: MemoryReport;
  'delay-start': null;
  'delay-stop': DelayReport;
  'profile-start': null;
  'profile-stop': null;
}
