// What a contract run covered: the contract command, run in process, runs the suite against
// our mock and reports every operation by documented status (text, JSON, JUnit);
// `--min-coverage` fails a run below its floor and passes one at or above it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Coverage } from '../src/openapi/coverage-table.js';
import { loadSpec } from '../src/openapi/load.js';
import { createApp } from '../src/wiring/create-app.js';
import { startMock } from '../src/wiring/start-mock.js';
import { runContractCli, serveOnFreePort, type Served } from './contract-helpers.js';
import { mediaServer } from './fixtures/media-server.js';
import { categoryStore } from './helpers.js';
import { tempFolder } from './temp-folders.js';

const KEY = 'coverage-key';
const PROJECTS = fileURLToPath(new URL('./fixtures/specs/projects.yaml', import.meta.url));
const MEDIA = fileURLToPath(new URL('./fixtures/specs/media.yaml', import.meta.url));
/** Two whole runs of the CLI: minutes on a busy machine, as a bound only. */
const RUNS_TIMEOUT = 240_000;
let served: Served;

/** The contract command against `target`, with a fixed seed and no generated bodies. */
function contract(args: string[], target = served.url) {
  return runContractCli(['--base-url', target, '--seed', '5', '--budget', '0', ...args], {
    API_KEY: KEY,
  });
}

beforeAll(async () => {
  served = await serveOnFreePort(
    express().use(createApp({ spec: await loadSpec(), apiKeys: [KEY], store: categoryStore() })),
  );
});

afterAll(() => served.close());

describe('petstore-kit contract coverage', () => {
  it(
    'fails below --min-coverage with the table of what was missed, and passes at its floor',
    async () => {
      const dir = await tempFolder('coverage');
      // Every documented status is more than any run exercises (a 500 the mock never answers).
      const below = await contract([
        '--reporter',
        'json',
        '--output',
        join(dir, 'run.json'),
        '--min-coverage',
        '100',
      ]);
      expect(below.code, below.stderr).toBe(1);
      const json = JSON.parse(await readFile(join(dir, 'run.json'), 'utf8')) as {
        verdict: string;
        exitCode: number;
        rules: { name: string; state: string }[];
        coverage: Coverage;
      };
      const { coverage } = json;
      expect(coverage.percent).toBeLessThan(100);
      expect(coverage.percent).toBeGreaterThan(0);
      expect(json.exitCode).toBe(1);
      expect(json.verdict).toBe(
        `petstore-kit contract: does NOT conform: ${coverage.percent}% of the documented statuses exercised (${coverage.covered} of ${coverage.total}), below --min-coverage 100%`,
      );
      expect(json.rules.every((rule) => rule.state === 'passed')).toBe(true);
      expect(below.stderr.trim()).toBe(json.verdict);
      // Each operation of the spec is a row, each documented status in it, with its hits.
      const listed = coverage.operations.find((row) => row.operationId === 'listCategories');
      expect(listed?.path).toBe('/v1/categories');
      expect(listed?.statuses.find((row) => row.status === '200')?.hits).toBeGreaterThan(0);
      expect(listed?.statuses.find((row) => row.status === '401')?.hits).toBeGreaterThan(0);

      // The same run at its own floor conforms; the text report opens with the verdict and
      // holds the table, the JUnit file the table as a suite of its own.
      const floor = String(Math.floor(coverage.percent) - 5);
      const at = await contract([
        '--reporter',
        'junit',
        '--output',
        join(dir, 'run.xml'),
        '--min-coverage',
        floor,
      ]);
      expect(at.code, at.stdout + at.stderr).toBe(0);
      const lines = at.stdout.split('\n');
      expect(lines[0]).toMatch(/^petstore-kit contract: conforms: \d+ rules passed, 0 failed/);
      expect(at.stdout).toMatch(/\ncoverage: [\d.]+% \(\d+ of \d+ documented statuses\)\n/);
      expect(at.stdout).toMatch(/\n {2}GET \/v1\/categories {2}200 {2}\d+\n/);
      expect(at.stdout).toMatch(/ {2}missed\n/);
      const xml = await readFile(join(dir, 'run.xml'), 'utf8');
      expect(xml).toMatch(/<testsuite name="coverage" tests="\d+" failures="0"/);
      expect(xml).toContain('<testcase classname="GET /v1/categories" name="200"/>');
      expect(xml.trim().endsWith('</testsuites>')).toBe(true);
    },
    RUNS_TIMEOUT,
  );
});

describe('petstore-kit contract coverage by security scheme', () => {
  it(
    'shows an operation that takes a scheme the spec does not give it: expected 401, got 200',
    async () => {
      const projects = await loadSpec(PROJECTS);
      // Audit entries take HTTP basic alone; this deployment also lets the API key read them.
      const faulty = await serveOnFreePort(
        express()
          .get('/api/audit/:entryId', (req, res, next) => {
            if (req.headers['x-api-key'] !== KEY) return next();
            res.json({ what: 'read with the API key' });
          })
          .use(createApp({ spec: projects, apiKeys: [KEY] })),
        { path: '/api' },
      );
      try {
        const dir = await tempFolder('schemes');
        const run = await contract(
          ['--spec', PROJECTS, '--reporter', 'json', '--output', join(dir, 'run.json')],
          faulty.url,
        );
        expect(run.code, run.stdout + run.stderr).toBe(1);
        const json = JSON.parse(await readFile(join(dir, 'run.json'), 'utf8')) as {
          rules: { name: string; state: string }[];
          coverage: Coverage;
        };
        expect(
          json.rules.filter((rule) => rule.state === 'failed').map((rule) => rule.name),
        ).toContainEqual(expect.stringMatching(/^getAuditEntry: .*apiKey/));
        const row = json.coverage.operations
          .find(({ operationId }) => operationId === 'getAuditEntry')
          ?.schemes.find(({ scheme }) => scheme === 'apiKey');
        expect(row).toMatchObject({ expected: '401', documented: true });
        expect(row?.got).toContainEqual({ status: '200', hits: expect.any(Number) });
        // With the JSON in a file, standard output holds the text report of the same run.
        expect(run.stdout).toMatch(
          /\n {2}GET \/api\/audit\/\{entryId\} {2}scheme apiKey {2}expected 401 {2}got 200 ×\d+.* {2}\(a 2xx the spec refuses\)\n/,
        );
      } finally {
        await faulty.close();
      }
    },
    RUNS_TIMEOUT,
  );
});

describe('petstore-kit contract flows', () => {
  it(
    'follows a nested collection under a record of its parent and the links, and names what it could not reach; --min-coverage fails the run for an (operation, scheme) pair it missed, naming the pair, with the table row that says missed',
    async () => {
      const mock = await startMock({
        spec: PROJECTS,
        apiKeys: [KEY],
        seedCount: 3,
        port: 0,
        logRequests: false,
      });
      try {
        const dir = await tempFolder('flows');
        // One run for both (each run of the CLI costs seconds of CPU to start its suite): no
        // rule fails, and only the coverage floor fails the run.
        const run = await contract(
          [
            '--spec',
            PROJECTS,
            '--reporter',
            'json',
            '--output',
            join(dir, 'run.json'),
            '--min-coverage',
            '100',
          ],
          mock.url,
        );
        expect(run.code, run.stdout + run.stderr).toBe(1);
        const json = JSON.parse(await readFile(join(dir, 'run.json'), 'utf8')) as {
          rules: { name: string; state: string }[];
          coverage: Coverage;
          unreached: { operation: string; why: string }[];
        };
        // No rule fails or goes unjudged: without the floor, the run conforms.
        expect(json.rules.filter((rule) => ['failed', 'unjudged'].includes(rule.state))).toEqual(
          [],
        );
        // HTTP basic is not given: audit entries never get a basic credential. With the JSON in
        // a file, standard output holds the text report of the same run.
        const verdict = run.stdout.split('\n')[0];
        expect(verdict).toMatch(
          /^petstore-kit contract: does NOT conform: [\d.]+% of the documented statuses exercised \(\d+ of \d+\) and [\d.]+% of the documented \(operation, scheme\) pairs \(\d+ of \d+; missed: getAuditEntry basic\), below --min-coverage 100%$/,
        );
        expect(run.stdout).toMatch(
          /\n {2}GET \/api\/audit\/\{entryId\} {2}scheme basic {2}expected accepted {2}missed\n/,
        );
        const passed = json.rules.filter((rule) => rule.state === 'passed').map((r) => r.name);
        // Tickets are created, listed and read under a project, and under that one only.
        expect(passed).toContain(
          'listTickets: the list holds every record, one just created included',
        );
        expect(passed).toContain(
          'getTicket: a record created under one projects record is not found under another (404)',
        );
        // The links of the creates are followed, the nested one's too.
        expect(passed).toContain(
          'createProject: its link ListTickets leads to listTickets, which answers 200',
        );
        expect(passed).toContain(
          'createTicket: its link GetTicket leads to getTicket, which answers 200',
        );
        const hits = (operationId: string, status: string) =>
          json.coverage.operations
            .find((row) => row.operationId === operationId)
            ?.statuses.find((row) => row.status === status)?.hits;
        expect(hits('createTicket', '201')).toBeGreaterThan(0);
        expect(hits('getTicket', '200')).toBeGreaterThan(0);
        // The table by security scheme is the one the mock makes of the same requests: the
        // same rows, each with what the spec expects, and the suite's answers among the mock's
        // (which also counts the requests of the CLI's pre-flight).
        const mine = (await (
          await fetch(new URL('/__mock/coverage', mock.url), {
            headers: { Authorization: `Bearer ${KEY}` },
          })
        ).json()) as Coverage;
        const rows = (table: Coverage) =>
          table.operations.map(({ operationId, schemes }) => ({
            operationId,
            schemes: schemes
              .filter((row) => row.documented)
              .map(({ scheme, expected }) => ({ scheme, expected })),
          }));
        expect(rows(json.coverage)).toEqual(rows(mine));
        expect(json.coverage.schemesTotal).toBe(mine.schemesTotal);
        for (const row of json.coverage.operations)
          for (const { scheme, got } of row.schemes)
            for (const { status, hits } of got) {
              const seen = mine.operations
                .find(({ operationId }) => operationId === row.operationId)
                ?.schemes.find((other) => other.scheme === scheme)
                ?.got.find((other) => other.status === status)?.hits;
              expect(seen, `${row.operationId} ${scheme} ${status}`).toBeGreaterThanOrEqual(hits);
            }
        const scheme = (operationId: string, name: string) =>
          json.coverage.operations
            .find((row) => row.operationId === operationId)
            ?.schemes.find((row) => row.scheme === name);
        // Audit entries take HTTP basic alone: the API key is tried there and must get 401.
        expect(scheme('getAuditEntry', 'apiKey')).toMatchObject({ expected: '401' });
        expect(scheme('getAuditEntry', 'apiKey')?.got).toEqual([
          { status: '401', hits: expect.any(Number) },
        ]);
        expect(scheme('createTicket', 'apiKey')).toMatchObject({ expected: 'accepted' });
        expect(scheme('createTicket', 'apiKey')?.got).toContainEqual({
          status: '201',
          hits: expect.any(Number),
        });
        expect(scheme('createTicket', 'none')?.got).toContainEqual({
          status: '401',
          hits: expect.any(Number),
        });
        expect(json.coverage.schemesCovered).toBeGreaterThan(0);
        // Audit entries take HTTP basic, which this run was not given.
        expect(json.unreached).toEqual([
          {
            operation: 'getAuditEntry (GET /api/audit/{entryId})',
            why: expect.stringMatching(/needs HTTP basic .*give --basic user:password/),
          },
        ]);
      } finally {
        await mock.close();
      }
    },
    RUNS_TIMEOUT,
  );
});

describe('petstore-kit contract reach', () => {
  it(
    'names a required value it could not make among the operations it could not reach',
    async () => {
      // Owners are the deployment's own, and it has none: no pet's owner can be named.
      const deployment = await serveOnFreePort(mediaServer({ apiKey: KEY, noOwners: true }), {
        path: '/api',
      });
      try {
        const dir = await tempFolder('reach');
        const run = await contract(
          ['--spec', MEDIA, '--reporter', 'json', '--output', join(dir, 'run.json')],
          deployment.url,
        );
        // A correct deployment: nothing fails for the value the suite could not make.
        expect(run.code, run.stdout + run.stderr).toBe(0);
        const json = JSON.parse(await readFile(join(dir, 'run.json'), 'utf8')) as {
          unreached: { operation: string; why: string }[];
        };
        expect(json.unreached).toEqual([
          {
            operation: 'setPetOwner (PUT /api/pets/{petId}/owner)',
            why: 'a required value it could not make: `ownerId` names a record of owners, and there is none: its list is empty, and the spec has no create for it',
          },
          // Labels are created from XML only; the suite writes records as JSON.
          {
            operation: 'createLabel (POST /api/labels)',
            why: "a required value it could not make: a createLabel body as application/xml: the suite sends this call's body as JSON only",
          },
          {
            operation: 'getLabel (GET /api/labels/{labelId})',
            why: "a required value it could not make: a createLabel body as application/xml: the suite sends this call's body as JSON only",
          },
          {
            operation: 'getOwner (GET /api/owners/{ownerId})',
            why: 'a required value it could not make: no owners record to read: its list is empty, and the spec has no create for it',
          },
        ]);
        // With the JSON in a file, standard output holds the text report of the same run.
        expect(run.stdout).toContain(
          '\n      setPetOwner (PUT /api/pets/{petId}/owner): a required value it could not make: `ownerId` names a record of owners',
        );
      } finally {
        await deployment.close();
      }
    },
    RUNS_TIMEOUT,
  );
});
