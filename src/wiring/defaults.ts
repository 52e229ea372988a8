// The defaults the CLI shows in its help, in a module that loads nothing else: the
// contract command must not pay for the mock's modules to print its help or start.
import { fileURLToPath } from 'node:url';

/** Accepted when no key is configured, so that `npm start` works out of the box. */
export const DEFAULT_API_KEY = 'petstore-kit-dev-key';

/** 1 MiB: the largest request body the mock reads; a larger one gets 413. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The spec shipped with petstore-kit: the one source of truth of the interface. */
export const DEFAULT_SPEC_PATH = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));

/** The admin API's spec, shipped beside the main one. */
export const ADMIN_SPEC_PATH = fileURLToPath(new URL('../../spec/admin.yaml', import.meta.url));
