import { StartupError } from '../vocabulary/errors.js';

/** A spec that cannot drive the mock; its message is one line, fit for a CLI. */
export class SpecError extends StartupError {
  override name = 'SpecError';
}
