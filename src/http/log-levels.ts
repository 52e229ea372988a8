/** The levels a user picks from (`--log-level`): apart from the logger, so that naming them loads no pino. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
