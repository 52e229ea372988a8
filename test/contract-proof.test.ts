// Proof that the contract suite is worth running: it passes our mock and every correct
// server we can think of, and it catches every faulty one, for the right reason.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractPlan } from '../contract-tests/plan.js';
import { contractRules } from '../contract-tests/rules.js';
import type { ContractTarget } from '../contract-tests/target.js';
import { buildContractPlan } from '../src/cli/contract-plan.js';
import { createApp } from '../src/wiring/create-app.js';
import { loadSpec } from '../src/openapi/load.js';
import { animalKinds, seededFaker } from '../src/openapi/realistic.js';
import { startMock } from '../src/wiring/start-mock.js';
import { categoriesServer, type ServerBehaviour } from './fixtures/categories-server.js';
import { bookshopServer, type BookshopBehaviour } from './fixtures/bookshop-server.js';
import { helpdeskServer, type HelpdeskBehaviour } from './fixtures/helpdesk-server.js';
import { KEYS, withKeySchemes } from './fixtures/library-keys.js';
import { libraryServer, type LibraryBehaviour } from './fixtures/library-server.js';
import { mediaServer, type MediaBehaviour } from './fixtures/media-server.js';
import { ledgerServer, type LedgerBehaviour } from './fixtures/ledger-server.js';
import { notesServer, type NotesBehaviour } from './fixtures/notes-server.js';
import { shelvesServer, type ShelvesBehaviour } from './fixtures/shelves-server.js';
import type { DeploymentBehaviour } from './fixtures/deployment.js';
import { CATEGORIES, categoryStore } from './helpers.js';
import { InProcessDispatcher } from './in-process-dispatcher.js';

const KEY = 'proof-key';
/**
 * Each proof waits on a whole run of the suite, a few runs at once: on a busy machine that is
 * minutes, not the 20 s of a unit test. Generous, as a bound only.
 */
const PROOF_TIMEOUT = 300_000;
const LIBRARY = fileURLToPath(new URL('./fixtures/specs/library.yaml', import.meta.url));
/** Generated bodies: few, from a fixed seed, so that the proof is fast and repeatable. */
const GENERATED = { seed: 20261122, budget: 30 };
const REPLAY = `petstore-kit contract --seed ${GENERATED.seed} --budget ${GENERATED.budget}`;

/** Each with one realistic defect, and the rule that must catch it. */
const FAULTY: { fault: string; behaviour: Partial<ServerBehaviour>; caughtBy: RegExp }[] = [
  {
    fault: 'create answers 200 instead of 201',
    behaviour: { createStatus: 200 },
    caughtBy: /rule 4: a valid body gets 201/,
  },
  {
    fault: 'no required-field check',
    behaviour: { checkName: false },
    caughtBy: /rule 1: a body without `name`/,
  },
  {
    fault: 'wrong types accepted',
    behaviour: { checkTypes: false },
    caughtBy: /`name` given a number/,
  },
  {
    fault: 'null accepted for name and description',
    behaviour: { allowNull: true },
    caughtBy: /`name` given null/,
  },
  {
    fault: 'description not type-checked',
    behaviour: { checkDescription: false },
    caughtBy: /`description` given a number/,
  },
  {
    fault: 'token checked for presence only',
    behaviour: { auth: 'presence' },
    caughtBy: /an unknown key gets 401/,
  },
  {
    fault: 'non-bearer scheme accepted',
    behaviour: { auth: 'any-scheme' },
    caughtBy: /the valid key under the Basic scheme/,
  },
  {
    fault: '400 answered before 401',
    behaviour: { validateBeforeAuth: true },
    caughtBy: /gets 401 even with/,
  },
  {
    fault: 'error without status',
    behaviour: { errorBody: (_status, code, message) => ({ code, message }) },
    caughtBy: /gets 400 with an Error body/,
  },
  {
    fault: 'error status differs from the HTTP status',
    behaviour: {
      errorBody: (status, code, message) => ({
        code,
        message,
        status: status === 401 ? 403 : status,
      }),
    },
    caughtBy: /gets 401 with an Error body/,
  },
  {
    fault: 'error without code',
    behaviour: { errorBody: (status, _code, message) => ({ message, status }) },
    caughtBy: /gets 400/,
  },
  {
    fault: 'error as plain text, not JSON',
    behaviour: { errorAsText: true },
    caughtBy: /gets 401 with an Error body/,
  },
  {
    fault: 'id is a string',
    behaviour: { idAsString: true },
    caughtBy: /rule 4: a valid body gets 201/,
  },
  {
    fault: 'created category without id',
    behaviour: { omitId: true },
    caughtBy: /rule 4: a valid body gets 201/,
  },
  {
    fault: 'description dropped',
    behaviour: { dropDescription: true },
    caughtBy: /echoing every submitted field/,
  },
  {
    fault: 'name not echoed as sent',
    behaviour: { transformName: (name) => name.toUpperCase() },
    caughtBy: /echoing/,
  },
  { fault: 'ids reused', behaviour: { reuseIds: true }, caughtBy: /two creates, two ids/ },
  {
    fault: 'stateless list',
    behaviour: { statelessList: true, preload: 3 },
    caughtBy: /the list holds every record/,
  },
  {
    fault: 'list truncated to its first 20',
    behaviour: { preload: 30, listLimit: 20 },
    caughtBy: /the list holds every record/,
  },
  {
    fault: 'list wrapped in an object',
    behaviour: { wrapList: true },
    caughtBy: /listCategories: answers 200 with a JSON array/,
  },
  {
    fault: 'list served as text/html',
    behaviour: { listContentType: 'text/html' },
    caughtBy: /listCategories: answers 200/,
  },
  {
    fault: 'list holds a category that breaks the schema',
    behaviour: { preloadInvalid: true },
    caughtBy: /listCategories: answers 200/,
  },
  {
    fault: 'list open without credential',
    behaviour: { auth: 'list-open' },
    caughtBy: /listCategories rule 3: a missing credential/,
  },
  {
    fault: 'create open without credential',
    behaviour: { auth: 'create-open' },
    caughtBy: /createCategory rule 3: a missing credential gets 401 with/,
  },
  {
    fault: '403 instead of 401 for an unknown key',
    behaviour: { invalidKeyStatus: 403 },
    caughtBy: /an unknown key gets 401/,
  },
  {
    fault: 'crash (500) on a body that is not an object',
    behaviour: { crashOnNonObject: true },
    caughtBy: /a body that is an array/,
  },
  {
    fault: 'malformed JSON answered with an HTML 500',
    behaviour: { malformedJsonHtml: true },
    caughtBy: /malformed JSON gets 400/,
  },
  {
    fault: 'create answers 201 with an empty body',
    behaviour: { emptyCreateBody: true },
    caughtBy: /rule 4: a valid body gets 201/,
  },
  // Credentials: near-misses of the valid key.
  {
    fault: 'an empty bearer token accepted',
    behaviour: { auth: 'empty-token' },
    caughtBy: /rule 3: an empty bearer token gets 401/,
  },
  {
    fault: 'a token that contains the key accepted',
    behaviour: { auth: 'contains' },
    caughtBy: /rule 3: the key with characters added before/,
  },
  {
    fault: 'a token that extends the key accepted',
    behaviour: { auth: 'extends' },
    caughtBy: /rule 3: the key with characters added after/,
  },
  {
    fault: 'a token compared only as far as it goes (a proper part accepted)',
    behaviour: { auth: 'prefix' },
    caughtBy: /rule 3: a proper part of the key/,
  },
  {
    fault: 'the key compared without letter case',
    behaviour: { auth: 'case-insensitive' },
    caughtBy: /rule 3: the key in other letter case/,
  },
  {
    fault: 'whitespace removed from the token',
    behaviour: { auth: 'whitespace-stripped' },
    caughtBy: /rule 3: the key with whitespace inside it/,
  },
  {
    fault: 'the token trimmed with trim(), a no-break space included',
    behaviour: { auth: 'trimmed' },
    caughtBy: /rule 3: the key with whitespace inside it/,
  },
  // Values a real client sends.
  {
    fault: 'names trimmed',
    behaviour: { transformName: (name) => name.trim() },
    caughtBy: /a `name` with surrounding whitespace/,
  },
  {
    fault: 'names stored trimmed, echoed as sent',
    behaviour: { storeName: (name) => name.trim() },
    caughtBy: /a `name` with surrounding whitespace/,
  },
  {
    fault: 'non-ASCII characters stripped',
    behaviour: { transformText: (text) => text.replace(/[^\x20-\x7e]/g, '') },
    caughtBy: /a `name` in several scripts, with accents/,
  },
  {
    fault: 'long names truncated to 255 characters',
    behaviour: { transformName: (name) => name.slice(0, 255) },
    caughtBy: /a `name` of hundreds to thousands of characters/,
  },
  {
    fault: 'an empty description dropped',
    behaviour: { dropEmptyDescription: true },
    caughtBy: /a `description` that is empty/,
  },
  {
    fault: '500 on long names',
    behaviour: { crashWhen: (body) => body.name.length > 255 },
    caughtBy: /a `name` of hundreds to thousands of characters/,
  },
  {
    fault: '500 on characters outside the BMP',
    behaviour: {
      crashWhen: (body) => /[\u{10000}-\u{10FFFF}]/u.test(`${body.name}${body.description ?? ''}`),
    },
    caughtBy: /a `name` with characters outside the Basic Multilingual Plane/,
  },
  {
    fault: '500 on an unknown extra field',
    behaviour: {
      crashWhen: (body) => Object.keys(body).some((key) => !['name', 'description'].includes(key)),
    },
    caughtBy: /a body with unknown extra fields/,
  },
  // Only generated bodies find these.
  {
    fault: 'markup stripped from text (an HTML sanitizer)',
    behaviour: { transformText: (text) => text.replace(/[<>]/g, '') },
    caughtBy: /generated valid bodies/,
  },
  {
    fault: 'a whole number accepted as a name',
    behaviour: { coerceWholeNumbers: true },
    caughtBy: /generated invalid bodies/,
  },
  // Ids and consistency.
  {
    fault: 'a client-sent id used as the new id',
    behaviour: { useClientId: true },
    caughtBy: /a client-sent `id`/,
  },
  {
    fault: 'ids collide under concurrent creates',
    behaviour: { racyIds: true },
    caughtBy: /concurrent creates get/,
  },
  {
    fault: 'a list read in the last 30 s served again after a create',
    behaviour: { cacheList: true, preload: 2 },
    caughtBy: /on the very next list, whatever was read before/,
  },
  // The key where the spec does not put it, taken when the Authorization header is absent.
  {
    fault: 'the key also taken from a query parameter (?api_key=)',
    behaviour: { keyAlsoIn: 'query' },
    caughtBy: /rule 3: the valid key in a query parameter gets 401/,
  },
  {
    fault: 'the key also taken from an X-API-Key header',
    behaviour: { keyAlsoIn: 'header' },
    caughtBy: /rule 3: the valid key in another header gets 401/,
  },
  {
    fault: 'the key also taken from a cookie',
    behaviour: { keyAlsoIn: 'cookie' },
    caughtBy: /rule 3: the valid key in a cookie gets 401/,
  },
  // JSON as real clients send it.
  {
    fault: 'JSON with a charset parameter refused (415)',
    behaviour: { strictJsonType: 'exact' },
    caughtBy: /sent as JSON with a charset parameter/,
  },
  {
    fault: 'the JSON media type compared in lower case only (415)',
    behaviour: { strictJsonType: 'case' },
    caughtBy: /sent as JSON in other letter case/,
  },
  {
    fault: 'a list that carries two records with the same id',
    behaviour: { repeatInList: true, preload: 2 },
    caughtBy: /listCategories: ids are unique within the list/,
  },
  // The other operations of the interface.
  {
    fault: 'a pet readable without credential',
    behaviour: { petsOpen: true },
    caughtBy: /getPetById rule 3: a missing credential gets 401/,
  },
  {
    fault: 'store orders listed in an object',
    behaviour: { ordersAsObject: true },
    caughtBy: /listStoreOrders: answers 200 with a JSON array of Order objects/,
  },
  {
    fault: 'an unknown pet answered with an HTML 404',
    behaviour: { petNotFoundHtml: true },
    caughtBy: /getPetById: answers made-up parameters as the spec documents it/,
  },
];

/** The library spec's deployments, each with one realistic defect, and the rule that must catch it. */
const LIBRARY_FAULTY: { fault: string; behaviour: Partial<LibraryBehaviour>; caughtBy: RegExp }[] =
  [
    {
      fault: 'library: email format not checked',
      behaviour: { checkEmail: false },
      caughtBy: /createAuthor: `email` given a string that is not an email address/,
    },
    {
      fault: 'library: status enum not checked',
      behaviour: { checkStatus: false },
      caughtBy: /addBook: `status` given a value outside its enum/,
    },
    {
      fault: 'library: pages bounds not checked',
      behaviour: { checkPages: false },
      caughtBy: /addBook: `pages` above its maximum \(5000\)/,
    },
    {
      fault: 'library: isbn pattern not checked',
      behaviour: { checkIsbn: false },
      caughtBy: /addBook: `isbn` given a string that breaks its pattern/,
    },
    {
      fault: 'library: tag limits not checked',
      behaviour: { checkTags: false },
      caughtBy: /addBook: `tags` with more items than its maxItems/,
    },
    {
      fault: 'library: undeclared author fields taken (the schema is closed)',
      behaviour: { acceptUndeclared: true },
      caughtBy: /createAuthor: a body with a property the schema does not declare/,
    },
    {
      fault: 'library: a replace answered but not stored',
      behaviour: { replaceNotStored: true },
      caughtBy:
        /replaceAuthor: a valid body gets 200 echoing every submitted field, and the next read shows it/,
    },
    {
      fault: 'library: a merge patch that replaces the record',
      behaviour: { patchReplaces: true },
      caughtBy: /updateAuthor: a change of one field gets 200 with it changed and the others kept/,
    },
    {
      fault: 'library: a deleted author still readable',
      behaviour: { deleteKeepsAuthor: true },
      caughtBy: /deleteAuthor: a deleted record is gone/,
    },
    {
      fault: 'library: a removed book still listed',
      behaviour: { removedBookListed: true },
      caughtBy: /removeBook: a deleted record is gone/,
    },
    {
      fault: "library: 401 answers in the framework's shape, not the spec's Problem",
      behaviour: { authErrorsUnshaped: true },
      caughtBy: /a missing credential gets 401 with a Problem body/,
    },
    {
      fault: 'library: Problem bodies sent as application/json',
      behaviour: { problemAsJson: true },
      caughtBy: /gets 4xx with a Problem body/,
    },
    {
      fault: 'library: a book read off by one',
      behaviour: { readOffByOne: true },
      caughtBy: /getBook: a record just created reads back|its link GetBook leads to getBook/,
    },
    {
      fault: 'library: the key also taken from ?access_token=',
      behaviour: { keyInQuery: true },
      caughtBy: /the valid key in a query parameter gets 401/,
    },
    {
      fault: 'library: a credential asked on /health, which the spec leaves open',
      behaviour: { healthNeedsKey: true },
      caughtBy: /health: answers 200/,
    },
  ];

/** Each conforms while differing from our mock in what the interface leaves open. */
const CORRECT: { difference: string; behaviour: Partial<ServerBehaviour> }[] = [
  { difference: 'a plain reference implementation (ignores a client-sent id)', behaviour: {} },
  { difference: 'preloaded with 500 categories', behaviour: { preload: 500 } },
  { difference: 'large ids', behaviour: { firstId: 4_503_599_627_370_496, preload: 3 } },
  { difference: 'random, non-sequential ids', behaviour: { randomIds: true, preload: 20 } },
  {
    difference: 'extra fields on categories and errors',
    behaviour: { extraFields: true, preload: 2 },
  },
  { difference: 'other error codes', behaviour: { errorCode: (status) => `E${status}-PETSTORE` } },
  { difference: 'newest first', behaviour: { newestFirst: true, preload: 5 } },
  { difference: 'content type without a charset', behaviour: { jsonType: 'application/json' } },
  {
    difference: 'content type with an upper-case charset',
    behaviour: { jsonType: 'application/json;charset=UTF-8' },
  },
  { difference: 'long error messages, no WWW-Authenticate', behaviour: { longMessages: true } },
  {
    difference: 'behind a rate limiter (429 with Retry-After and an Error body)',
    behaviour: { limiter: { status: 429, requests: 120, retryAfter: 1 } },
  },
  {
    difference: 'briefly down for maintenance (503 with Retry-After)',
    behaviour: { limiter: { status: 503, requests: 30, retryAfter: 1, times: 1 } },
  },
  { difference: 'gzip-encoded answers', behaviour: { gzip: true } },
  {
    difference: 'refuses non-ASCII names with a 400 Error',
    behaviour: { refuseWhen: (body) => /[^\x20-\x7e]/.test(body.name) },
  },
  {
    difference: 'refuses descriptions over 200 characters with a 400 Error',
    behaviour: { refuseWhen: (body) => (body.description ?? '').length > 200 },
  },
  {
    difference: 'refuses empty names and descriptions with a 400 Error',
    behaviour: { refuseWhen: (body) => body.name === '' || body.description === '' },
  },
  { difference: 'a list sorted by name', behaviour: { sortByName: true, preload: 5 } },
  { difference: 'connections closed after each answer', behaviour: { closeConnections: true } },
  {
    difference: 'one connection in 25 dropped without an answer',
    behaviour: { dropEvery: 25 },
  },
  {
    difference: 'the media type in upper case (APPLICATION/JSON)',
    behaviour: { jsonType: 'APPLICATION/JSON; charset=UTF-8' },
  },
  { difference: 'strong ETags and Cache-Control: no-cache', behaviour: { etags: true } },
  { difference: 'chunked answers, without Content-Length', behaviour: { chunked: true } },
  {
    difference: 'still warming up: 503 with Retry-After for its first second',
    behaviour: { warming: 1 },
  },
];

/** The library spec with other schemes: its key in an X-API-Key header, deletes behind HTTP basic. */
const KEYS_FAULTY: { fault: string; behaviour: Partial<LibraryBehaviour>; caughtBy: RegExp }[] = [
  {
    fault: 'keys: the API key also taken as a bearer token',
    behaviour: { keyAsBearerToo: true },
    caughtBy: /listAuthors: the valid key as a bearer token \(key\) gets 401/,
  },
  {
    fault: 'keys: the basic password compared only as far as the one sent goes',
    behaviour: { passwordPrefix: true },
    caughtBy: /deleteAuthor: a proper part of the password \(basic\) gets 401/,
  },
];

/** Correct deployments of the library spec that differ from our mock. */
const LIBRARY_CORRECT: { difference: string; behaviour: Partial<LibraryBehaviour> }[] = [
  { difference: 'library: a plain reference implementation', behaviour: {} },
  { difference: 'library: preloaded with 20 authors and books', behaviour: { preload: 20 } },
  { difference: 'library: invalid bodies refused with 422', behaviour: { invalidStatus: 422 } },
  { difference: 'library: gzip-encoded answers', behaviour: { gzip: true, preload: 2 } },
  {
    difference: "library: a book's authorId must name an author it holds (422 otherwise)",
    behaviour: { authorMustExist: true },
  },
];
/** The library spec with its lists wrapped, as inference that finds envelopes reads them. */
const WRAPPED_CORRECT = [
  { difference: 'wrapped: lists in {data, total}', behaviour: { wrapLists: true, preload: 2 } },
];
const KEYS_CORRECT = [
  { difference: 'keys: an API key in a header, HTTP basic for deletes', behaviour: {} },
];

/**
 * The mutation check: with a family of rules disabled, the faults they catch slip through.
 * A family no fault depends on would be dead weight; a fault caught anyway would prove nothing.
 */
const MUTATIONS: { check: string; disabled: RegExp; faults: string[]; stores?: true }[] = [
  {
    check: 'the negative cases of forms and multipart forms',
    disabled: /a (multipart )?form (without|with)/,
    faults: [
      'forms: a multipart form accepted unvalidated',
      'forms: an HTML form accepted unvalidated',
    ],
  },
  {
    check: 'the calls whose path parameters are inferred from their names',
    disabled: /\(inferred from the names\)/,
    faults: [
      'orgs: the summary of an organisation that exists answers 404',
      'orgs: archiving an organisation that exists answers 404',
      'media: a valid plain-text note refused (400)',
    ],
  },
  {
    check: 'the negative cases of text, XML and bytes bodies',
    disabled: /an? (application\/xml|text\/plain|application\/octet-stream) body/,
    faults: [
      'media: an XML create accepted unvalidated',
      'media: XML that does not parse answered with a 500',
      "media: a plain-text note's length not checked",
      'media: an empty photo (application/octet-stream) accepted',
      'media: an XML label over its maxLength accepted (labels are written in XML only)',
    ],
  },
  {
    check: 'the scoping of nested collections',
    disabled: /is not found under another/,
    faults: ['projects: tickets read under any project (not scoped to their parent)'],
  },
  {
    check: 'rule 3 (missing and invalid credentials)',
    disabled: /rule 3/,
    faults: [
      'token checked for presence only',
      'non-bearer scheme accepted',
      '400 answered before 401',
      'list open without credential',
      'create open without credential',
      '403 instead of 401 for an unknown key',
    ],
  },
  {
    check: 'the near-miss credentials',
    disabled:
      /an empty bearer token|characters added|a proper part|other letter case|whitespace inside/,
    faults: [
      'an empty bearer token accepted',
      'a token that contains the key accepted',
      'a token that extends the key accepted',
      'a token compared only as far as it goes (a proper part accepted)',
      'the key compared without letter case',
      'whitespace removed from the token',
    ],
  },
  {
    check: 'the realistic values and the generated valid bodies',
    disabled: /rule 4: a `(name|description)`|generated valid bodies/,
    faults: [
      'names trimmed',
      'names stored trimmed, echoed as sent',
      'non-ASCII characters stripped',
      'long names truncated to 255 characters',
      'an empty description dropped',
      '500 on long names',
      '500 on characters outside the BMP',
    ],
  },
  {
    check: 'the generated bodies',
    disabled: /generated (valid|invalid) bodies/,
    faults: ['markup stripped from text (an HTML sanitizer)', 'a whole number accepted as a name'],
  },
  {
    check: 'the id rules',
    disabled: /client-sent `id`|concurrent creates/,
    faults: ['a client-sent id used as the new id', 'ids collide under concurrent creates'],
  },
  {
    check: 'the next list after a create (in every rule that looks)',
    disabled: /next list|holds every record|client-sent `id`|rule 4: a `|unknown extra fields/,
    faults: ['a list read in the last 30 s served again after a create'],
  },
  {
    check: 'the key where the spec does not put it',
    disabled: /the valid key in (a query parameter|another header|a cookie)/,
    faults: [
      'the key also taken from a query parameter (?api_key=)',
      'the key also taken from an X-API-Key header',
      'the key also taken from a cookie',
    ],
  },
  {
    check: 'JSON with a charset or in another case',
    disabled: /sent as JSON (with a charset parameter|in other letter case)/,
    faults: [
      'JSON with a charset parameter refused (415)',
      'the JSON media type compared in lower case only (415)',
    ],
  },
  {
    check: 'unique ids within a list',
    disabled: /ids are unique within the list/,
    faults: ['a list that carries two records with the same id'],
  },
  {
    check: 'the values a schema refuses (formats, enums, bounds, patterns, items, closed objects)',
    disabled:
      /not an email address|outside its enum|above its|below its|breaks its pattern|items than|item repeated|does not declare/,
    faults: [
      'library: email format not checked',
      'library: status enum not checked',
      'library: pages bounds not checked',
      'library: isbn pattern not checked',
      'library: tag limits not checked',
      'library: undeclared author fields taken (the schema is closed)',
    ],
    // What these faults let through is stored: later rules meet an invalid record in a list.
    stores: true,
  },
  {
    check: 'the conditional requests (ETag, If-Match, If-None-Match)',
    disabled: /If-Match|If-None-Match/,
    faults: [
      'shelves: If-Match compared with nothing (any tag taken)',
      'shelves: a write without If-Match applied, not refused with 428',
      'shelves: a write leaves the ETag as it was',
      'shelves: If-Match compared weakly (W/ matches the strong tag)',
      'shelves: If-None-Match ignored (200, never 304)',
      'shelves: a stale write answered 412, and applied all the same',
    ],
  },
  {
    check: 'the documented conflicts (409)',
    disabled: /a create reusing the|takes the state (below|above) what it allows/,
    faults: [
      'shelves: a barcode reused within its branch accepted',
      'shelves: a reused barcode answered 409, and the copy shelved all the same',
      'ledger: an entry may overdraw the account (no 409)',
    ],
  },
  {
    check: "a PUT under a client's key replacing what it created",
    disabled: /a new key gets 201, the same key again/,
    faults: ['shelves: a PUT of a known code answers 201 again'],
  },
  {
    check: 'the documented redirects followed',
    disabled: /whose Location leads to a 2xx/,
    faults: [
      'ledger: redirects lead to a 404 (the base path left out)',
      'ledger: the statement answered inline (200), not redirected as documented',
    ],
  },
  {
    check: 'the writes without a body',
    disabled: /called without a body/,
    faults: ['ledger: closing the day refuses a request without a JSON content type (415)'],
  },
  {
    check: 'updates and deletes seen by the next read and list',
    disabled: /the next read shows it|a deleted record is gone/,
    faults: [
      'library: a replace answered but not stored',
      'library: a merge patch that replaces the record',
      'library: a deleted author still readable',
      'library: a removed book still listed',
    ],
  },
];

/** Two interfaces written for the proof alone: neither the categories nor the library. */
const BOOKSHOP = fileURLToPath(new URL('./fixtures/specs/bookshop.yaml', import.meta.url));
const HELPDESK = fileURLToPath(new URL('./fixtures/specs/helpdesk.yaml', import.meta.url));
const HELPDESK_BASIC = KEYS.basic;

/** The bookshop's deployments, each with one realistic defect, and the rule that must catch it. */
const BOOKSHOP_FAULTY: {
  fault: string;
  behaviour: Partial<BookshopBehaviour>;
  caughtBy: RegExp;
}[] = [
  {
    fault: 'bookshop: 500 on an emoji in a title',
    behaviour: { crashOnTitle: (title) => /\p{Extended_Pictographic}/u.test(title) },
    caughtBy: /createBook: a `title` with characters outside the Basic Multilingual Plane/,
  },
  {
    fault: 'bookshop: title maxLength not checked',
    behaviour: { titleUnbounded: true },
    caughtBy: /createBook: `title` longer than its maxLength \(10000\)/,
  },
  {
    fault: 'bookshop: a label repeated accepted (uniqueItems)',
    behaviour: { labelsRepeat: true },
    caughtBy: /createBook: `labels` with an item repeated/,
  },
  {
    fault: 'bookshop: a published date not checked',
    behaviour: { dateUnchecked: true },
    caughtBy: /createBook: `published` given a string that is not a date/,
  },
  {
    fault: 'bookshop: the key also taken as HTTP Basic base64(key:), Stripe-style',
    behaviour: { keyAsBasicUser: true },
    caughtBy: /listBooks: the valid key as HTTP Basic credentials gets 401/,
  },
  {
    fault: 'bookshop: the key also taken as HTTP Basic base64(:key)',
    behaviour: { keyAsBasicPassword: true },
    caughtBy: /getBook: the valid key as HTTP Basic credentials gets 401/,
  },
  {
    fault: 'bookshop: the key also taken raw after Basic',
    behaviour: { keyAsRawBasic: true },
    caughtBy: /createBook: the valid key as HTTP Basic credentials gets 401/,
  },
  {
    fault: 'bookshop: a year sent as "1999" coerced to a number',
    behaviour: { coerceYear: true },
    caughtBy: /createBook: `year` given a number as a string gets 400/,
  },
  {
    fault: 'bookshop: 500 on a bookRef that is not a UUID',
    behaviour: { crashOnBadRef: true },
    caughtBy:
      /getBook: `bookRef` in the path breaking its schema \(not a UUID\) gets 4xx, never 5xx/,
  },
  {
    fault: 'bookshop: a merge-patch null ignored',
    behaviour: { patchNullIgnored: true },
    caughtBy: /updateBook: a merge patch setting an optional field to null/,
  },
  {
    fault: 'bookshop: a delete answered but not stored',
    behaviour: { deleteNotStored: true },
    caughtBy: /deleteBook: a deleted record is gone/,
  },
];

/** Correct deployments of the bookshop. */
const BOOKSHOP_CORRECT: { difference: string; behaviour: Partial<BookshopBehaviour> }[] = [
  { difference: 'bookshop: a plain reference implementation', behaviour: {} },
  { difference: 'bookshop: newest first', behaviour: { newestFirst: true, preload: 5 } },
];

/** The helpdesk's deployments, each with one realistic defect, and the rule that must catch it. */
const HELPDESK_FAULTY: {
  fault: string;
  behaviour: Partial<HelpdeskBehaviour>;
  caughtBy: RegExp;
}[] = [
  {
    fault: 'helpdesk: title maxLength not checked',
    behaviour: { titleUnbounded: true },
    caughtBy: /createTicket: `title` longer than its maxLength \(120\)/,
  },
  {
    fault: 'helpdesk: a label repeated accepted (uniqueItems)',
    behaviour: { labelsRepeat: true },
    caughtBy: /createTicket: `labels` with an item repeated/,
  },
  {
    fault: 'helpdesk: a due date not checked',
    behaviour: { dueUnchecked: true },
    caughtBy: /createTicket: `due` given a string that is not a date/,
  },
  {
    fault: 'helpdesk: the required status missing from answers',
    behaviour: { statusMissing: true },
    caughtBy: /createTicket: a valid body gets 201 and a Ticket/,
  },
  {
    fault: 'helpdesk: each page starts one record late (a record skipped)',
    behaviour: { pageSkips: true, pageSize: 5, preload: 12 },
    caughtBy: /all in the next list|the list holds every record/,
  },
  {
    fault: 'helpdesk: deletes, behind HTTP basic, also take the global API key',
    behaviour: { deleteTakesKey: true },
    caughtBy: /deleteTicket: the valid credential of apiKey, which other operations take/,
  },
  {
    fault: 'helpdesk: 500 on a limit outside its bounds',
    behaviour: { crashOnBadLimit: true },
    caughtBy: /listTickets: `limit` in the query breaking its schema .* gets 4xx, never 5xx/,
  },
  {
    fault: 'helpdesk: 500 on a ticketId that is not a number',
    behaviour: { crashOnBadId: true },
    caughtBy: /getTicket: `ticketId` in the path breaking its schema .* gets 4xx, never 5xx/,
  },
  {
    fault: 'helpdesk: each page starts with the last record of the page before',
    behaviour: { pageRepeats: true, pageSize: 5, preload: 12 },
    caughtBy: /listTickets: the list holds every record/,
  },
  {
    fault: 'helpdesk: a delete answered but not stored',
    behaviour: { deleteNotStored: true },
    caughtBy: /deleteTicket: a deleted record is gone/,
  },
];

const PROJECTS = fileURLToPath(new URL('./fixtures/specs/projects.yaml', import.meta.url));
/** The projects spec, loaded once: the mock serving it is its reference deployment. */
let projectsSpec: Awaited<ReturnType<typeof loadSpec>>;

/** The mock serving the projects spec (a nested collection, links), with the proof's credentials. */
function projectsMock(): Express {
  return express().use(
    createApp({
      spec: projectsSpec,
      apiKeys: [KEY],
      basic: [`${KEYS.basic.user}:${KEYS.basic.password}`],
    }),
  );
}

/**
 * `reference` behind a defect of scoping: a ticket is read by its id under any project (of its
 * organisation, two levels down), as a server that forgets the parent in its lookup does. It
 * learns each ticket's project from the answer to its create; `under` is the path up to
 * `/projects/{projectId}`, as a pattern.
 */
function unscoped(under: string, reference: () => Express): Express {
  const owners = new Map<string, string>();
  const created = new RegExp(`^/api${under}/projects/([^/]+)/tickets$`);
  const item = new RegExp(`^/api${under}/projects/([^/]+)/tickets/([^/]+)$`);
  return express()
    .use((req, res, next) => {
      const create = created.exec(req.path);
      if (req.method === 'POST' && create) {
        const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
        res.end = ((chunk?: unknown, ...rest: unknown[]) => {
          try {
            const id = (JSON.parse(String(chunk)) as { id?: unknown }).id;
            if (id !== undefined) owners.set(String(id), create[1]!);
          } catch {
            // Not a record: nothing to learn.
          }
          return end(chunk, ...rest);
        }) as typeof res.end;
      }
      const read = item.exec(req.path);
      const owner = read && req.method === 'GET' ? owners.get(read[2]!) : undefined;
      if (read && owner !== undefined)
        req.url = req.url.replace(`/projects/${read[1]}/`, `/projects/${owner}/`);
      next();
    })
    .use(reference());
}

const unscopedTickets = (): Express => unscoped('', projectsMock);

const ORGS = fileURLToPath(new URL('./fixtures/specs/orgs.yaml', import.meta.url));
/** The orgs spec (tickets two levels down), loaded once: the mock serving it is its reference. */
let orgsSpec: Awaited<ReturnType<typeof loadSpec>>;

function orgsMock(): Express {
  return express().use(createApp({ spec: orgsSpec, apiKeys: [KEY] }));
}

const unscopedDeepTickets = (): Express => unscoped('/orgs/[^/]+', orgsMock);

/**
 * The orgs mock, but for a route (`use`: any method) that answers 404 to every request with the
 * key: keys are checked first, as in the mock, then every organisation is missing.
 */
function orgsMissing(method: 'use' | 'post', path: string): Express {
  const app = express();
  app[method](path, (req: Request, res: Response, next: NextFunction) => {
    if (req.headers['x-api-key'] !== KEY) return next();
    res
      .status(404)
      .type('application/problem+json')
      .send(JSON.stringify({ title: 'Not Found', status: 404 }));
  });
  return app.use(orgsMock());
}

/** Collections nested two levels down get the same state rules as top-level ones. */
const ORGS_FAULTY: { fault: string; app: () => Express; caughtBy: RegExp }[] = [
  {
    fault: 'orgs: tickets found under another project of their organisation',
    app: unscopedDeepTickets,
    caughtBy: /getTicket: a record created under one projects record is not found under another/,
  },
  {
    fault: 'orgs: the summary of an organisation that exists answers 404',
    app: () => orgsMissing('use', '/api/orgs/:orgId/summary'),
    caughtBy:
      /getOrgSummary: answers 200 .* for `orgId` naming a record of orgs \(inferred from the names\)/,
  },
  {
    fault: 'orgs: archiving an organisation that exists answers 404',
    app: () => orgsMissing('post', '/api/orgs/:orgId/archive'),
    caughtBy:
      /archiveOrg: answers 204 for `orgId` naming a record of orgs the suite created \(inferred from the names\)/,
  },
];
const ORGS_CORRECT: { difference: string; app: () => Express }[] = [
  { difference: 'orgs: our mock, tickets under projects under organisations', app: orgsMock },
];

const FORMS = fileURLToPath(new URL('./fixtures/specs/forms.yaml', import.meta.url));
/** The forms spec, loaded once: the mock serving it is its reference deployment. */
let formsSpec: Awaited<ReturnType<typeof loadSpec>>;

function formsMock(): Express {
  return express().use(createApp({ spec: formsSpec, apiKeys: [KEY] }));
}

/**
 * The mock serving the forms spec behind a handler that takes one form media type without
 * validating it, as a server whose JSON path alone checks bodies does.
 */
function unvalidatedForm(mediaType: string): () => Express {
  return () =>
    express()
      .use((req, res, next) => {
        const type = (req.headers['content-type'] ?? '').toLowerCase();
        if (req.method !== 'POST' || req.path !== '/api/pets' || !type.startsWith(mediaType))
          return next();
        if (req.headers['x-api-key'] !== KEY) return next();
        req.resume();
        req.on('end', () => {
          res.status(201).json({ id: 987_654, name: 'unchecked' });
        });
      })
      .use(formsMock());
}

/** The projects and forms specs' deployments with a defect, and the rule that must catch it. */
const NESTED_AND_FORMS_FAULTY: { fault: string; app: () => Express; caughtBy: RegExp }[] = [
  {
    fault: 'forms: a multipart form accepted unvalidated',
    app: unvalidatedForm('multipart/form-data'),
    caughtBy: /createPet: a multipart form without `name` gets 400/,
  },
  {
    fault: 'forms: an HTML form accepted unvalidated',
    app: unvalidatedForm('application/x-www-form-urlencoded'),
    caughtBy: /createPet: a form with letters in `age` gets 400/,
  },
  {
    fault: 'projects: tickets read under any project (not scoped to their parent)',
    app: unscopedTickets,
    caughtBy: /getTicket: a record created under one projects record is not found under another/,
  },
];

/** Correct deployments of the projects and forms specs: the mock is their reference. */
const NESTED_AND_FORMS_CORRECT: { difference: string; app: () => Express }[] = [
  { difference: 'forms: the mock, pets created from JSON, forms and multipart', app: formsMock },
  { difference: 'projects: the mock, tickets nested under projects', app: projectsMock },
];

/** Correct deployments of the helpdesk: the order and page size are the server's. */
const HELPDESK_CORRECT: { difference: string; behaviour: Partial<HelpdeskBehaviour> }[] = [
  { difference: 'helpdesk: a plain reference implementation', behaviour: {} },
  {
    difference: 'helpdesk: oldest first, pages of 20, 30 preloaded',
    behaviour: { preload: 30 },
  },
  { difference: 'helpdesk: pages of 5 by default', behaviour: { pageSize: 5, preload: 12 } },
  {
    difference: 'helpdesk: a limit outside its bounds clamped to them, not refused',
    behaviour: { clampsLimit: true },
  },
  {
    difference: 'helpdesk: newest first, pages of 5',
    behaviour: { newestFirst: true, pageSize: 5, preload: 7 },
  },
];

const NOTES = fileURLToPath(new URL('./fixtures/specs/notes.yaml', import.meta.url));

/** Notes: a create answers 201, an empty body and `Location`; the suite reads the id there. */
const NOTES_FAULTY: { fault: string; behaviour: Partial<NotesBehaviour>; caughtBy: RegExp }[] = [
  {
    fault: 'notes: Location names a note that does not exist',
    behaviour: { locationNowhere: true },
    caughtBy: /createNote: a valid body gets 201/,
  },
  {
    fault: 'notes: a create answers no Location',
    behaviour: { noLocation: true },
    caughtBy: /createNote: a valid body gets 201/,
  },
];
const NOTES_CORRECT: { difference: string; behaviour: Partial<NotesBehaviour> }[] = [
  { difference: 'notes: Location a path, the body empty', behaviour: {} },
  { difference: 'notes: Location an absolute URL', behaviour: { absoluteLocation: true } },
];

const MEDIA = fileURLToPath(new URL('./fixtures/specs/media.yaml', import.meta.url));

/** Media: bodies in XML, plain text and bytes must be refused when they break their schema. */
const MEDIA_FAULTY: { fault: string; behaviour: Partial<MediaBehaviour>; caughtBy: RegExp }[] = [
  {
    fault: 'media: an XML create accepted unvalidated',
    behaviour: { xmlUnchecked: true },
    caughtBy: /createPet: an application\/xml body without `name` gets 400/,
  },
  {
    fault: 'media: XML that does not parse answered with a 500',
    behaviour: { malformedXml500: true },
    caughtBy: /createPet: an application\/xml body that is not well-formed/,
  },
  {
    fault: "media: a plain-text note's length not checked",
    behaviour: { noteUnchecked: true },
    caughtBy: /setPetNote: a text\/plain body over its maxLength \(40\)/,
  },
  {
    fault: 'media: an empty photo (application/octet-stream) accepted',
    behaviour: { emptyPhotoAccepted: true },
    caughtBy:
      /putPetPhoto: an application\/octet-stream body that is empty, where the body is required/,
  },
  {
    fault: 'media: an XML label over its maxLength accepted (labels are written in XML only)',
    behaviour: { labelUnchecked: true },
    caughtBy: /createLabel: an application\/xml body with `text` over its maxLength \(20\)/,
  },
  {
    fault: 'media: a valid plain-text note refused (400)',
    behaviour: { validNoteRefused: true },
    caughtBy:
      /setPetNote: answers 204 for `petId` naming a record of pets the suite created \(inferred from the names\)/,
  },
];
/**
 * Correct deployments of the media spec. Labels are created from XML only, which the state
 * rules do not write (they send JSON): those rules are skipped, saying so, never sent JSON a
 * correct deployment would refuse. Without owners, a pet's owner cannot be named: the rules
 * that need one are skipped too (`skips`). Nothing fails.
 */
const LABELS_SKIPPED = /^(createLabel|getLabel|listLabels): /;
const MEDIA_CORRECT: {
  difference: string;
  behaviour: Partial<MediaBehaviour>;
  skips?: RegExp;
}[] = [
  { difference: 'media: a plain reference implementation', behaviour: {}, skips: LABELS_SKIPPED },
  {
    difference: 'media: bodies that break their schema refused with 422, not 400',
    behaviour: { refusesWith422: true },
    skips: LABELS_SKIPPED,
  },
  {
    difference: "media: no owner to name (the owners are the deployment's own, and it has none)",
    behaviour: { noOwners: true },
    skips: /^(setPetOwner|getOwner|createLabel|getLabel|listLabels): /,
  },
];

const SHELVES = fileURLToPath(new URL('./fixtures/specs/shelves.yaml', import.meta.url));

/**
 * Shelves: the HTTP a description states. Branches by PUT under a client's code, shelves whose
 * id only `Location` gives, copies three levels down, ETags and preconditions, a unique barcode.
 */
const SHELVES_FAULTY: { fault: string; behaviour: Partial<ShelvesBehaviour>; caughtBy: RegExp }[] =
  [
    {
      fault: 'shelves: If-Match compared with nothing (any tag taken)',
      behaviour: { ifMatchIgnored: true },
      caughtBy: /updateShelf: a write whose If-Match a write before made stale gets 412/,
    },
    {
      fault: 'shelves: a write without If-Match applied, not refused with 428',
      behaviour: { ifMatchOptional: true },
      caughtBy: /updateShelf: a write without If-Match gets 428/,
    },
    {
      fault: 'shelves: a write leaves the ETag as it was',
      behaviour: { tagNeverChanges: true },
      caughtBy: /the write before changed the ETag/,
    },
    {
      fault: 'shelves: If-Match compared weakly (W/ matches the strong tag)',
      behaviour: { weakIfMatch: true },
      caughtBy:
        /a write whose If-Match is the weak form \(W\/\) of the current strong ETag gets 412/,
    },
    {
      fault: 'shelves: If-None-Match ignored (200, never 304)',
      behaviour: { noNotModified: true },
      caughtBy: /getShelf: a read sent its current ETag in If-None-Match gets 304/,
    },
    {
      fault: 'shelves: a stale write answered 412, and applied all the same',
      behaviour: { staleApplied: true },
      caughtBy: /gets 412 and changes nothing/,
    },
    {
      fault: 'shelves: a PUT of a new code answers 200, not 201',
      behaviour: { putCreates200: true },
      caughtBy: /putBranch: a valid body gets 201/,
    },
    {
      fault: 'shelves: a PUT of a known code answers 201 again',
      behaviour: { putReplaces201: true },
      caughtBy: /putBranch: a new key gets 201, the same key again 200/,
    },
    {
      fault: 'shelves: a barcode reused within its branch accepted',
      behaviour: { barcodeNotUnique: true },
      caughtBy: /createCopy: a create reusing the `barcode` of a record it holds gets 409/,
    },
    {
      fault: 'shelves: a reused barcode answered 409, and the copy shelved all the same',
      behaviour: { conflictStored: true },
      caughtBy: /createCopy: a create reusing the `barcode` .* makes no second record/,
    },
    {
      fault: 'shelves: a copy read under any shelf of its branch',
      behaviour: { copiesUnscoped: true },
      caughtBy: /getCopy: a record created under one shelves record is not found under another/,
    },
    {
      fault: "shelves: a new shelf's Location names the next one",
      behaviour: { shelfLocationOffByOne: true },
      caughtBy: /createShelf: a valid body gets 201/,
    },
  ];
const SHELVES_CORRECT: { difference: string; behaviour: Partial<ShelvesBehaviour> }[] = [
  { difference: 'shelves: a plain reference implementation', behaviour: {} },
  { difference: 'shelves: ETags a hash of the fields', behaviour: { hashTags: true } },
  { difference: 'shelves: Location an absolute URL', behaviour: { absoluteLocation: true } },
  {
    difference: 'shelves: three branches to start with, newest first',
    behaviour: { preload: 3, newestFirst: true },
  },
];

const LEDGER = fileURLToPath(new URL('./fixtures/specs/ledger.yaml', import.meta.url));

/** Ledger: writes without a body, documented redirects, a balance an entry may not overdraw. */
const LEDGER_FAULTY: { fault: string; behaviour: Partial<LedgerBehaviour>; caughtBy: RegExp }[] = [
  {
    fault: 'ledger: an entry may overdraw the account (no 409)',
    behaviour: { overdraftAllowed: true },
    caughtBy: /addEntry: a create whose `amount` .* gets 409/,
  },
  {
    fault: 'ledger: freezing refuses a request without a body (400)',
    behaviour: { freezeNeedsBody: true },
    caughtBy: /freezeAccount: answers 204/,
  },
  {
    fault: 'ledger: closing the day refuses a request without a JSON content type (415)',
    behaviour: { closeNeedsJson: true },
    caughtBy: /closeDay: called without a body, as it takes none, answers 202 or 204/,
  },
  {
    fault: 'ledger: redirects lead to a 404 (the base path left out)',
    behaviour: { statementNowhere: true },
    caughtBy: /getStatement: answers 302 or 303 whose Location leads to a 2xx/,
  },
  {
    fault: 'ledger: the statement answered inline (200), not redirected as documented',
    behaviour: { statementInline: true },
    caughtBy: /getStatement: answers 302 or 303 whose Location leads to a 2xx/,
  },
  {
    fault: "ledger: the latest account's redirect carries no Location",
    behaviour: { latestWithoutLocation: true },
    caughtBy: /latestAccount: answers 307/,
  },
];
const LEDGER_CORRECT: { difference: string; behaviour: Partial<LedgerBehaviour> }[] = [
  { difference: 'ledger: a plain reference implementation', behaviour: {} },
  { difference: 'ledger: redirects to absolute URLs', behaviour: { absoluteLocation: true } },
  { difference: 'ledger: the statement as 303 See Other', behaviour: { statementSeeOther: true } },
  {
    difference: 'ledger: the day closed at once (204), three accounts to start with',
    behaviour: { closesAtOnce: true, preload: 3 },
  },
];

type SpecName =
  | 'shelves'
  | 'ledger'
  | 'media'
  | 'categories'
  | 'library'
  | 'keys'
  | 'wrapped'
  | 'bookshop'
  | 'helpdesk'
  | 'projects'
  | 'forms'
  | 'notes'
  | 'orgs';
const plans: Partial<Record<SpecName, ContractPlan>> = {};
const score = { caught: 0, falseAlarms: 0 };
const FAULTY_COUNT =
  FAULTY.length +
  LIBRARY_FAULTY.length +
  KEYS_FAULTY.length +
  BOOKSHOP_FAULTY.length +
  HELPDESK_FAULTY.length +
  NESTED_AND_FORMS_FAULTY.length +
  NOTES_FAULTY.length +
  ORGS_FAULTY.length +
  MEDIA_FAULTY.length +
  SHELVES_FAULTY.length +
  LEDGER_FAULTY.length;
/** The correct servers, and our mock on the two specs it serves. */
const CORRECT_COUNT =
  CORRECT.length +
  LIBRARY_CORRECT.length +
  KEYS_CORRECT.length +
  WRAPPED_CORRECT.length +
  BOOKSHOP_CORRECT.length +
  HELPDESK_CORRECT.length +
  NESTED_AND_FORMS_CORRECT.length +
  NOTES_CORRECT.length +
  ORGS_CORRECT.length +
  MEDIA_CORRECT.length +
  SHELVES_CORRECT.length +
  LEDGER_CORRECT.length +
  2;

beforeAll(async () => {
  plans.categories = buildContractPlan((await loadSpec()).resolved);
  const library = (await loadSpec(LIBRARY)).resolved;
  plans.library = buildContractPlan(library);
  // The same interface behind other schemes: the rules follow the spec's security.
  plans.keys = buildContractPlan(withKeySchemes(library));
  plans.wrapped = wrappedLists(plans.library);
  plans.bookshop = buildContractPlan((await loadSpec(BOOKSHOP)).resolved);
  plans.helpdesk = buildContractPlan((await loadSpec(HELPDESK)).resolved);
  projectsSpec = await loadSpec(PROJECTS);
  plans.projects = buildContractPlan(projectsSpec.resolved);
  formsSpec = await loadSpec(FORMS);
  plans.forms = buildContractPlan(formsSpec.resolved);
  plans.notes = buildContractPlan((await loadSpec(NOTES)).resolved);
  orgsSpec = await loadSpec(ORGS);
  plans.orgs = buildContractPlan(orgsSpec.resolved);
  plans.media = buildContractPlan((await loadSpec(MEDIA)).resolved);
  plans.shelves = buildContractPlan((await loadSpec(SHELVES)).resolved);
  plans.ledger = buildContractPlan((await loadSpec(LEDGER)).resolved);
});

/** What each faulty server and correct deployment got, by its name, for the listing. */
const outcomes = new Map<string, string>();

afterAll(() => {
  console.log(
    `contract suite: caught ${score.caught}/${FAULTY_COUNT} faulty servers, ${score.falseAlarms}/${CORRECT_COUNT} false alarms`,
  );
  // The closing note of the proof lists every server it ran: CONTRACT_PROOF_LIST=1 prints it.
  if (process.env.CONTRACT_PROOF_LIST !== '1') return;
  const row = (spec: string, name: string) =>
    `  ${(outcomes.get(name) ?? 'not run').padEnd(15)} ${spec.padEnd(10)} ${name}`;
  console.log(
    [
      `faulty servers (${FAULTY_COUNT}):`,
      ...ALL_FAULTY.map(({ spec, fault }) => row(spec, fault)),
      `correct deployments (${CORRECT_COUNT}):`,
      ...MOCK_RUNS.map(([spec, name]) => row(spec, name)),
      ...ALL_CORRECT.map(({ spec, difference }) => row(spec, difference)),
    ].join('\n'),
  );
});

interface SuiteRun {
  violations: { rule: string; kind: string; message: string }[];
  skipped: string[];
  /** Why each skipped rule did not run, by rule name. */
  skipNotes: Map<string, string>;
  advisories: Set<string>;
}

/**
 * Where the suite reaches a server answered in process: a URL as any, no socket behind it. A
 * deployment whose connections are its difference is served on a port (`overSocket`).
 */
const IN_PROCESS_ORIGIN = 'http://deployment.localhost';

/** Whether a deployment's difference is in its connections: then only a socket shows it. */
const inConnections = (b: DeploymentBehaviour) =>
  b.closeConnections !== undefined || b.dropEvery !== undefined;

/** Serves an app on a free port, under a base path; resolves with its URL and how to stop it. */
async function serve(
  app: Express,
  basePath: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${basePath}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Runs every rule of the suite (but the `without` ones) against a base URL, as the CLI would,
 * through `dispatcher` when given (in process) or else over a socket.
 */
async function runRules(
  plan: ContractPlan,
  baseUrl: string,
  without?: RegExp,
  dispatcher?: InProcessDispatcher,
): Promise<SuiteRun> {
  const target: ContractTarget = {
    baseUrl,
    ...(dispatcher ? { dispatcher } : {}),
    // One user and password for every spec that asks for HTTP basic.
    credentials: { token: KEY, basic: KEYS.basic },
    refusedSchemes: {},
    readOnly: false,
    namePrefix: 'contract-proof',
    timeoutMs: 5_000,
    ruleTimeMs: 120_000,
    replay: REPLAY,
    ...GENERATED,
  };
  const run: SuiteRun = {
    violations: [],
    skipped: [],
    skipNotes: new Map(),
    advisories: new Set(),
  };
  const ctx = {
    target,
    advise: (text: string) => run.advisories.add(text),
    circuit: {},
    memo: new Map(),
  };
  for (const rule of contractRules(plan, target)) {
    if (without?.test(rule.name)) continue;
    try {
      await rule.check(ctx);
    } catch (err) {
      if (err instanceof Error && err.name === 'RuleSkipped') {
        run.skipped.push(rule.name);
        run.skipNotes.set(rule.name, err.message);
      } else
        run.violations.push({
          rule: rule.name,
          kind: err instanceof Error ? err.name : typeof err,
          message: err instanceof Error ? err.message : String(err),
        });
    }
  }
  return run;
}

async function runSuite(
  app: Express,
  spec: SpecName,
  options: { without?: RegExp; overSocket?: boolean } = {},
): Promise<SuiteRun> {
  const basePath = spec === 'categories' ? '/v1' : '/api';
  if (!options.overSocket)
    return runRules(
      plans[spec]!,
      `${IN_PROCESS_ORIGIN}${basePath}`,
      options.without,
      new InProcessDispatcher(app),
    );
  const server = await serve(app, basePath);
  try {
    return await runRules(plans[spec]!, server.url, options.without);
  } finally {
    await server.close();
  }
}

type AnyFault = {
  fault: string;
  spec: SpecName;
  app: () => Express;
  caughtBy: RegExp;
};
const ALL_FAULTY: AnyFault[] = [
  ...FAULTY.map(({ fault, behaviour, caughtBy }) => ({
    fault,
    caughtBy,
    spec: 'categories' as const,
    app: () => categoriesServer({ apiKey: KEY, ...behaviour }),
  })),
  ...LIBRARY_FAULTY.map(({ fault, behaviour, caughtBy }) => ({
    fault,
    caughtBy,
    spec: 'library' as const,
    app: () => libraryServer({ apiKey: KEY, ...behaviour }),
  })),
  ...KEYS_FAULTY.map(({ fault, behaviour, caughtBy }) => ({
    fault,
    caughtBy,
    spec: 'keys' as const,
    app: () => libraryServer({ apiKey: KEY, ...KEYS, ...behaviour }),
  })),
  ...BOOKSHOP_FAULTY.map(({ fault, behaviour, caughtBy }) => ({
    fault,
    caughtBy,
    spec: 'bookshop' as const,
    app: () => bookshopServer({ apiKey: KEY, ...behaviour }),
  })),
  ...HELPDESK_FAULTY.map(({ fault, behaviour, caughtBy }) => ({
    fault,
    caughtBy,
    spec: 'helpdesk' as const,
    app: () => helpdeskServer({ apiKey: KEY, basic: HELPDESK_BASIC, ...behaviour }),
  })),
  ...NESTED_AND_FORMS_FAULTY.map(({ fault, app, caughtBy }) => ({
    fault,
    caughtBy,
    spec: fault.startsWith('forms:') ? ('forms' as const) : ('projects' as const),
    app,
  })),
  ...NOTES_FAULTY.map(({ fault, behaviour, caughtBy }) => ({
    fault,
    caughtBy,
    spec: 'notes' as const,
    app: () => notesServer({ apiKey: KEY, ...behaviour }),
  })),
  ...ORGS_FAULTY.map((entry) => ({ ...entry, spec: 'orgs' as const })),
  ...MEDIA_FAULTY.map(({ fault, behaviour, caughtBy }) => ({
    fault,
    caughtBy,
    spec: 'media' as const,
    app: () => mediaServer({ apiKey: KEY, ...behaviour }),
  })),
  ...SHELVES_FAULTY.map(({ fault, behaviour, caughtBy }) => ({
    fault,
    caughtBy,
    spec: 'shelves' as const,
    app: () => shelvesServer({ apiKey: KEY, ...behaviour }),
  })),
  ...LEDGER_FAULTY.map(({ fault, behaviour, caughtBy }) => ({
    fault,
    caughtBy,
    spec: 'ledger' as const,
    app: () => ledgerServer({ apiKey: KEY, ...behaviour }),
  })),
];
const ALL_CORRECT: {
  difference: string;
  spec: SpecName;
  app: () => Express;
  /** The skips a correct server may get, each saying why (all others are false alarms too). */
  skips?: RegExp;
  /** Served on a port: its difference is in its connections. */
  overSocket?: boolean;
}[] = [
  ...CORRECT.map(({ difference, behaviour }) => ({
    difference,
    spec: 'categories' as const,
    app: () => categoriesServer({ apiKey: KEY, ...behaviour }),
    overSocket: inConnections(behaviour),
  })),
  ...LIBRARY_CORRECT.map(({ difference, behaviour }) => ({
    difference,
    spec: 'library' as const,
    app: () => libraryServer({ apiKey: KEY, ...behaviour }),
    overSocket: inConnections(behaviour),
  })),
  ...KEYS_CORRECT.map(({ difference, behaviour }) => ({
    difference,
    spec: 'keys' as const,
    app: () => libraryServer({ apiKey: KEY, ...KEYS, ...behaviour }),
  })),
  ...WRAPPED_CORRECT.map(({ difference, behaviour }) => ({
    difference,
    spec: 'wrapped' as const,
    app: () => libraryServer({ apiKey: KEY, ...behaviour }),
  })),
  ...BOOKSHOP_CORRECT.map(({ difference, behaviour }) => ({
    difference,
    spec: 'bookshop' as const,
    app: () => bookshopServer({ apiKey: KEY, ...behaviour }),
  })),
  ...HELPDESK_CORRECT.map(({ difference, behaviour }) => ({
    difference,
    spec: 'helpdesk' as const,
    app: () => helpdeskServer({ apiKey: KEY, basic: HELPDESK_BASIC, ...behaviour }),
  })),
  ...NESTED_AND_FORMS_CORRECT.map(({ difference, app }) => ({
    difference,
    spec: difference.startsWith('forms:') ? ('forms' as const) : ('projects' as const),
    app,
  })),
  ...NOTES_CORRECT.map(({ difference, behaviour }) => ({
    difference,
    spec: 'notes' as const,
    app: () => notesServer({ apiKey: KEY, ...behaviour }),
  })),
  ...ORGS_CORRECT.map((entry) => ({ ...entry, spec: 'orgs' as const })),
  ...MEDIA_CORRECT.map(({ difference, behaviour, skips }) => ({
    difference,
    spec: 'media' as const,
    app: () => mediaServer({ apiKey: KEY, ...behaviour }),
    ...(skips ? { skips } : {}),
  })),
  ...SHELVES_CORRECT.map(({ difference, behaviour }) => ({
    difference,
    spec: 'shelves' as const,
    app: () => shelvesServer({ apiKey: KEY, ...behaviour }),
  })),
  ...LEDGER_CORRECT.map(({ difference, behaviour }) => ({
    difference,
    spec: 'ledger' as const,
    app: () => ledgerServer({ apiKey: KEY, ...behaviour }),
  })),
];

/**
 * The library plan with its lists documented as `{data: [...], total}`, and the envelopes an
 * inference that finds them puts in the plan: the rules read the records out of them.
 */
function wrappedLists(library: ContractPlan): ContractPlan {
  const plan = structuredClone(library);
  for (const collection of plan.collections) {
    const list = plan.operations.find((op) => op.operationId === collection.operations.list)!;
    const content = list.responses['200']!.content;
    content['application/json'] = {
      type: 'object',
      required: ['data', 'total'],
      properties: { data: content['application/json']!, total: { type: 'integer' } },
    };
    collection.envelopes.list = 'data';
  }
  return plan;
}

/** A named faulty server. */
function faultyServer(fault: string): AnyFault {
  const found = ALL_FAULTY.find((entry) => entry.fault === fault);
  if (!found) throw new Error(`no faulty server "${fault}"`);
  return found;
}

const runs = new Map<string, Promise<SuiteRun>>();
/** The full suite against a named fixture server, run once however many tests read it. */
function runOnce(
  entry: { spec: SpecName; app: () => Express; overSocket?: boolean },
  name: string,
): Promise<SuiteRun> {
  let run = runs.get(name);
  if (!run) {
    run = runSuite(entry.app(), entry.spec, { overSocket: entry.overSocket ?? false });
    runs.set(name, run);
  }
  return run;
}
const runFault = (fault: string) => runOnce(faultyServer(fault), fault);

/** The two runs against our own mock, counted among the correct deployments. */
const MOCK_RUNS = [
  ['categories', 'our mock, seeded as `npm start` seeds it'],
  ['library', 'our mock serving the library spec'],
] as const;

describe('the contract suite passes our own mock', { timeout: PROOF_TIMEOUT }, () => {
  it('violates no rule against the mock, seeded as `npm start` seeds it', async () => {
    const store = categoryStore();
    for (const category of animalKinds(10, seededFaker(1)))
      await store.collection(CATEGORIES).create(category);
    const run = await runSuite(
      express().use(createApp({ spec: await loadSpec(), apiKeys: [KEY], store })),
      'categories',
    );
    if (run.violations.length > 0) score.falseAlarms += 1;
    outcomes.set(MOCK_RUNS[0][1], run.violations.length > 0 ? 'FALSE ALARM' : 'passed');
    expect(run.violations).toEqual([]);
    expect(run.skipped).toEqual([]);
    expect(run.advisories).toEqual(new Set());
  });

  it('violates no rule against the mock serving the library spec, which is unlike it', async () => {
    const mock = await startMock({
      spec: LIBRARY,
      apiKeys: [KEY],
      seedCount: 5,
      port: 0,
      logRequests: false,
    });
    try {
      const run = await runRules(plans.library!, mock.url);
      if (run.violations.length > 0) score.falseAlarms += 1;
      outcomes.set(MOCK_RUNS[1][1], run.violations.length > 0 ? 'FALSE ALARM' : 'passed');
      expect(run.violations).toEqual([]);
      expect(run.skipped).toEqual([]);
    } finally {
      await mock.close();
    }
  });
});

// Servers are proven a few at a time: some make the suite wait seconds (Retry-After), and
// every run waits on its server.
describe('the contract suite catches every faulty server', { timeout: PROOF_TIMEOUT }, () => {
  it.concurrent.each(ALL_FAULTY)('$fault', async ({ fault, caughtBy }) => {
    const { violations } = await runFault(fault);
    if (violations.length > 0) score.caught += 1;
    const right = violations.some((v) => caughtBy.test(v.rule));
    outcomes.set(
      fault,
      violations.length === 0 ? 'MISSED' : right ? 'caught' : 'caught (other rule)',
    );
    expect(violations.map((v) => v.rule)).toContainEqual(expect.stringMatching(caughtBy));
    expect(violations.map((v) => v.kind)).not.toContain('TargetUnavailable');
  });

  it('shows the rule, the request and the response in its failure message', async () => {
    const {
      violations: [first],
    } = await runFault('create answers 200 instead of 201');
    expect(first?.message).toMatch(
      /^200 answers where the spec wants 201\nexpected status 201, got 200/,
    );
    expect(first?.message).toContain(`Request:  POST ${IN_PROCESS_ORIGIN}/v1/categories`);
    expect(first?.message).toContain('Authorization: Bearer ***');
    expect(first?.message).not.toContain(KEY);
    expect(first?.message).toMatch(/Response: 200\n {2}content-type: application\/json/);
  });

  it('names the near-miss it sent, the key still masked', async () => {
    const { violations } = await runFault('a token that extends the key accepted');
    const message = violations.find((v) => /characters added after/.test(v.rule))?.message;
    expect(message).toMatch(
      /^wrong credentials let through\nsent key \+ "0": expected status 401, got 20[01]/,
    );
    expect(message).not.toContain(KEY);
  });

  it('masks the key in a query parameter, a header and a cookie too', async () => {
    for (const [fault, shown] of [
      ['the key also taken from a query parameter (?api_key=)', /\?api_key=\*\*\*/],
      ['the key also taken from an X-API-Key header', /X-API-Key: \*\*\*/],
      ['the key also taken from a cookie', /Cookie: api_key=\*\*\*/],
    ] as const) {
      const { violations } = await runFault(fault);
      const message = violations.find((v) => /the valid key in/.test(v.rule))?.message;
      expect(message, fault).toMatch(shown);
      expect(message, fault).not.toContain(KEY);
    }
  });

  it('shrinks a generated counterexample to a minimal body, with the command to replay it', async () => {
    const { violations } = await runFault('markup stripped from text (an HTML sanitizer)');
    const message = violations.find((v) => /generated valid bodies/.test(v.rule))?.message;
    expect(message).toMatch(
      new RegExp(
        `^sent values answered altered\ngenerated body \\d+ of \\d+ broke the rule \\(seed ${GENERATED.seed}\\)`,
      ),
    );
    expect(message).toMatch(/shrunk in \d+ steps to:\n {2}\{"name":"[<>]"\}\n/);
    expect(message).toContain(`Replay: ${REPLAY}`);
    expect(message).toMatch(/`name` was sent as "[<>]", answered as ""/);
  });
});

describe(
  'the contract suite raises no false alarm on correct servers that differ',
  { timeout: PROOF_TIMEOUT },
  () => {
    it.concurrent.each(ALL_CORRECT)('$difference', async (entry) => {
      const { violations, skipped, skipNotes } = await runOnce(entry, entry.difference);
      if (violations.length > 0) score.falseAlarms += 1;
      outcomes.set(
        entry.difference,
        violations.length > 0 ? 'FALSE ALARM' : skipped.length > 0 ? 'passed (skips)' : 'passed',
      );
      expect(violations).toEqual([]);
      // A wrong-credential probe of a write that names no record and takes no body is never
      // sent: a deployment that wrongly let it through would act on it (the suite never harms).
      const unsafe = skipped.filter((rule) =>
        /^not sent: .* would act on it$/.test(skipNotes.get(rule) ?? ''),
      );
      const others = skipped.filter((rule) => !unsafe.includes(rule));
      if (!entry.skips) return expect(others).toEqual([]);
      // Only the rules that need the value it could not make skip, and each says so.
      expect(others.length).toBeGreaterThan(0);
      for (const rule of others) {
        expect(rule).toMatch(entry.skips);
        expect(skipNotes.get(rule)).toMatch(/^a required value it could not make: /);
      }
    });

    it('reports what HTTP recommends as an advisory, never as a failure', async () => {
      const noChallenge = ALL_CORRECT.find((entry) =>
        /no WWW-Authenticate/.test(entry.difference),
      )!;
      const run = await runOnce(noChallenge, noChallenge.difference);
      expect(run.violations).toEqual([]);
      expect([...run.advisories]).toEqual([expect.stringMatching(/no WWW-Authenticate header/)]);
    });
  },
);

describe(
  'the mutation check: disable a check and its faults slip through',
  { timeout: PROOF_TIMEOUT },
  () => {
    it.concurrent.each(MUTATIONS)('without $check', async ({ disabled, faults, stores }) => {
      // A fault that stores what it should refuse fails later rules too, which then meet the
      // record: for those, the runs without the family below are the proof.
      for (const fault of stores ? [] : faults) {
        // Every rule that caught it belongs to the family: without the family, nothing does.
        const { violations } = await runFault(fault);
        expect(
          violations.map((v) => v.rule).filter((rule) => !disabled.test(rule)),
          fault,
        ).toEqual([]);
      }
      // And so it goes, run for real without the family, for the first of them (for each of
      // them when they store what they let through).
      for (const fault of stores ? faults : faults.slice(0, 1)) {
        const server = faultyServer(fault);
        const { violations } = await runSuite(server.app(), server.spec, { without: disabled });
        expect(violations, fault).toEqual([]);
      }
    });
  },
);
