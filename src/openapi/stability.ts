import { SpecError, type OperationObject } from './load.js';

/** The stability levels of `x-stability`, from the least to the most stable. */
export const STABILITY_LEVELS = ['experimental', 'beta', 'stable'] as const;
export type StabilityLevel = (typeof STABILITY_LEVELS)[number];

/**
 * The stability an operation declares with `x-stability`; `stable` when it declares none.
 * @throws {SpecError} for a value that is not a level, so a typo stops start-up.
 * @example stabilityOf({ 'x-stability': 'beta', responses: {} }) // 'beta'
 */
export function stabilityOf(operation: OperationObject): StabilityLevel {
  const value = (operation as { 'x-stability'?: unknown })['x-stability'];
  if (value === undefined) return 'stable';
  if (!STABILITY_LEVELS.includes(value as StabilityLevel)) {
    throw new SpecError(
      `x-stability of ${operation.operationId ?? 'an operation'} is "${String(value)}": it takes ${STABILITY_LEVELS.join(', ')}`,
    );
  }
  return value as StabilityLevel;
}

/** Whether an operation of `level` is served when the mock serves `minimum` and above. */
export function meetsStability(level: StabilityLevel, minimum: StabilityLevel): boolean {
  return STABILITY_LEVELS.indexOf(level) >= STABILITY_LEVELS.indexOf(minimum);
}
