// Which documents of the corpus the mock is expected to start on, in one place. A document
// outside this list that does not start is reported and skipped by test/corpus.test.ts; one
// that starts is held to the same round trip as the others. When every version, security
// scheme and parameter style is served, this list becomes every slug of the manifest, and a
// document that does not start fails the test.

/** Slugs of test/fixtures/corpus/manifest.json that must start, and pass. */
export const EXPECTED_TO_START: ReadonlySet<string> = new Set(['petstore-openapi31', 'rclone']);

/** Set CORPUS_STRICT=1 to hold every document of the corpus to starting, whatever the list says. */
export const STRICT = process.env.CORPUS_STRICT === '1';
