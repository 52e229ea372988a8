// Which documents of the corpus the mock is expected to serve whole, in one place: each must
// start and pass the round trip of test/corpus.test.ts. A document outside this list that does
// not start, or whose round trip is not complete yet, is reported and skipped. As the mock
// learns more, slugs move into the list; CORPUS_STRICT=1 holds every document to it.

/** Slugs of test/fixtures/corpus/manifest.json that must start and pass the round trip. */
export const EXPECTED_TO_START: ReadonlySet<string> = new Set([
  'petstore-swagger2',
  'petstore-openapi30',
  'petstore-openapi31',
  'petstore-expanded',
  'uspto',
  'stapi',
  'blockfrost',
  'rclone',
  'dialogporten',
  'mojaloop-fspiop',
  'twilio',
  'xero-bankfeeds',
]);

/** Set CORPUS_STRICT=1 to hold every document of the corpus to the round trip, whatever the list says. */
export const STRICT = process.env.CORPUS_STRICT === '1';
