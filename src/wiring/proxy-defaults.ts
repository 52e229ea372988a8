// The proxy's own defaults, in a module of no imports: the CLI reads it to print its help.

/** How long the target may take, by default: to connect, to answer, between bytes of its body. */
export const DEFAULT_TARGET_TIMEOUT_MS = 30_000;
