// petstore-kit/msw in a browser: the specs are documents given as objects (the bundled ones
// are built into the bundle), read with no file system, then the shared handlers.
import { specFromDocument } from '../openapi/document-spec.js';
import { SpecError } from '../openapi/spec-error.js';
import { createMswMock, isLoaded, type MswMock, type MswMockOptions } from './msw-mock.js';
import { pageControlled } from './page-controlled.js';

/** The documents a browser bundle carries: the bundled spec and the admin API's. */
export interface BundledDocuments {
  spec: unknown;
  admin: unknown;
}

/**
 * mockHandlers for `setupWorker`: the same handlers as on Node, from a spec given as a parsed
 * document (or the bundled one). Multipart bodies are answered 415 (their parser needs Node).
 * Under the Playwright fixture, its controls apply to it (page-controlled.ts).
 * @throws {SpecError} for a path (a page cannot read files) or a spec it cannot serve.
 */
export async function browserMockHandlers(
  options: MswMockOptions,
  bundled: BundledDocuments,
): Promise<MswMock> {
  const { spec, ...rest } = options;
  if (typeof spec === 'string') {
    throw new SpecError(
      `a page cannot read the spec at ${spec}: import the document (JSON, or YAML with your ` +
        "bundler's plugin) and give it as `spec`",
    );
  }
  const loaded =
    spec === undefined
      ? specFromDocument(bundled.spec, 'spec/openapi.yaml')
      : isLoaded(spec)
        ? spec
        : specFromDocument(spec);
  return createMswMock(
    rest,
    { spec: loaded, admin: specFromDocument(bundled.admin, 'spec/admin.yaml') },
    // The Playwright fixture's force, clear and reset reach a mock in the page this way.
    pageControlled,
  );
}
