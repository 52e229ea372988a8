/**
 * Documents up to this size are checked whole at start-up (every schema compiled, every example
 * checked: a fifth of a second at most); larger ones operation by operation, on first call, and
 * precompiled in the background.
 */
export const EAGER_CHECK_BYTES = 128 * 1024;
