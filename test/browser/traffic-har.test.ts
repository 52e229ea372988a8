// A HAR that Chromium saved (Playwright's recordHar) of a page using the mock: judged by
// `petstore-kit traffic`, and turned by `workflow from-har` into a flow whose steps carry the id
// the create gave, not the recorded value (issue 49).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, startMock, type RunningMock } from '../../src/index.js';
import { runCli } from '../helpers.js';
import { sharedChromium } from './shared-chromium.js';
import { withChromium } from './with-chromium.js';
import { tempFolder } from '../temp-folders.js';

const KEY = 'har-key';
const LIBRARY = fileURLToPath(new URL('../fixtures/specs/library.yaml', import.meta.url));
const chromiumLookup = withChromium();

let browser: Browser;
let mock: RunningMock;
let har: string;
let created: string;

beforeAll(async () => {
  if (!chromiumLookup.found) return;
  const folder = await tempFolder('har');
  har = join(folder, 'page.har');
  [mock, browser] = await Promise.all([
    startMock({ spec: await loadSpec(LIBRARY), apiKeys: [KEY], port: 0, seedCount: 2 }),
    sharedChromium(chromiumLookup.path),
  ]);
  const context = await browser.newContext({ recordHar: { path: har } });
  const page = await context.newPage();
  await page.goto(`${mock.url}/health`);
  // What a page of authors does: create one, read it, rename it, delete it, find it gone.
  created = await page.evaluate(async (key) => {
    const auth = { Authorization: `Bearer ${key}` };
    const post = await fetch('/api/authors', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', displayName: 'Ada' }),
    });
    const { id } = (await post.json()) as { id: string };
    await (await fetch(`/api/authors/${id}`, { headers: auth })).text();
    await (
      await fetch(`/api/authors/${id}`, {
        method: 'PATCH',
        headers: { ...auth, 'Content-Type': 'application/merge-patch+json' },
        body: JSON.stringify({ displayName: 'Ada L.' }),
      })
    ).text();
    await fetch(`/api/authors/${id}`, { method: 'DELETE', headers: auth });
    await (await fetch(`/api/authors/${id}`, { headers: auth })).text();
    return id;
  }, KEY);
  await context.close();
});

afterAll(async () => {
  await mock?.close();
});

describe('a HAR saved by Chromium of a page using the mock', () => {
  it('is judged by petstore-kit traffic: the mock kept to its description', async () => {
    const run = await runCli('traffic', har, '--spec', LIBRARY);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/traffic: conforms \(6 exchanges judged/);
  });

  it('becomes a workflow whose steps carry the created id as a runtime expression', async () => {
    const out = join(await tempFolder('flow'), 'flow.arazzo.yaml');
    const run = await runCli('workflow', 'from-har', har, '--spec', LIBRARY, '-o', out);
    expect(run.code).toBe(0);
    const text = await readFile(out, 'utf8');
    expect(text).not.toContain(created);
    const flow = parse(text) as {
      workflows: {
        steps: {
          stepId: string;
          parameters?: { name: string; value: string }[];
          successCriteria: { condition: string }[];
          outputs?: Record<string, string>;
        }[];
      }[];
    };
    const steps = flow.workflows[0]?.steps ?? [];
    expect(steps.map((step) => [step.stepId, step.successCriteria[0]?.condition])).toEqual([
      ['health', '$statusCode == 200'],
      ['createAuthor', '$statusCode == 201'],
      ['getAuthor', '$statusCode == 200'],
      ['updateAuthor', '$statusCode == 200'],
      ['deleteAuthor', '$statusCode == 204'],
      ['getAuthor-2', '$statusCode == 404'],
    ]);
    expect(steps[1]?.outputs).toEqual({ id: '$response.body#/id' });
    // The flow a person clicked through runs again on a fresh mock, where the ids differ.
    const replay = await runCli('workflow', out, '--mock', '--api-key', KEY);
    expect(replay.out).toContain('1 workflow: 1 passed, 0 failed');
    expect(replay.code).toBe(0);
    for (const step of steps.slice(2))
      expect(step.parameters).toEqual([
        { name: 'authorId', in: 'path', value: '$steps.createAuthor.outputs.id' },
      ]);
  });
});
