// Small statistics for the bench: a noisy machine is read through medians, ranges and tails.

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

/** The ratios of rounds: their median, and their spread. */
export interface Ratio {
  median: number;
  min: number;
  max: number;
}

export const ratioOf = (values: readonly number[]): Ratio => ({
  median: round(median(values)),
  min: round(Math.min(...values)),
  max: round(Math.max(...values)),
});

/** A latency distribution in milliseconds. */
export interface Latency {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles: with a few hundred samples, p99 is one of the slowest few. */
export function latencyOf(samples: readonly number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  return {
    count: sorted.length,
    p50: round(at(0.5) ?? NaN, 1),
    p99: round(at(0.99) ?? NaN, 1),
    max: round(sorted.at(-1) ?? NaN, 1),
  };
}

export const megabytes = (bytes: number): number => round(bytes / 1e6, 1);
