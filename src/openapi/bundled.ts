import { fileURLToPath } from 'node:url';

/** The spec shipped with petstore-kit: the categories interface, served when no spec is given. */
export const BUNDLED_SPEC_PATH = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));

/** The admin API's spec (`/__mock`), shipped beside it. */
export const ADMIN_SPEC_PATH = fileURLToPath(new URL('../../spec/admin.yaml', import.meta.url));
