// bundled.ts in the browser bundle: no file paths there. The bundled documents themselves are
// built into the bundle (src/msw-browser.ts); these names only keep option defaults readable.
export const BUNDLED_SPEC_PATH = 'petstore-kit/spec/openapi.yaml';
export const ADMIN_SPEC_PATH = 'petstore-kit/spec/admin.yaml';
