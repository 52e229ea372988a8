/**
 * The key prefix of the Redis store when none is given: every key the store writes starts
 * with it. In a module of its own, so that reading it (the CLI's help) does not load the client.
 */
export const DEFAULT_REDIS_PREFIX = 'petstore-kit:';
