// The Playwright fixture's controls for a mock in the page (MSW's worker): the channel the fixture
// keeps them in, and the page's mock applying them before each request, here with the page's
// binding on globalThis as Playwright's exposeBinding puts it there.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_SPEC_PATH } from '../src/openapi/bundled.js';
import { loadSpec } from '../src/openapi/load.js';
import { createApp } from '../src/wiring/create-app.js';
import { PAGE_CHANNEL, pageChannel, type PageChannel } from '../src/wiring/page-channel.js';
import { pageControlled, type Answerer } from '../src/wiring/page-controlled.js';
import { KEY } from './helpers.js';

const page = globalThis as Record<string, unknown>;
let channel: PageChannel;

beforeEach(() => {
  channel = pageChannel();
  // A turn of the event loop, as a call from the page to Playwright's process takes.
  page[PAGE_CHANNEL] = (report?: Parameters<PageChannel['answer']>[0]) =>
    new Promise((resolve) => setTimeout(() => resolve(channel.answer(report)), 0));
});

afterEach(() => {
  Reflect.deleteProperty(page, PAGE_CHANNEL);
});

/** A page's mock, as a page load starts it: a fresh mock under the channel. */
async function pageMock(): Promise<Answerer> {
  const [spec, adminSpec] = await Promise.all([loadSpec(), loadSpec(ADMIN_SPEC_PATH)]);
  const { mock } = createApp({ spec, adminSpec, apiKeys: [KEY] });
  await mock.seed({ count: 3, seed: 1 });
  await mock.store.markInitial();
  return pageControlled(mock, (request) => mock.fetch(request));
}

function call(answer: Answerer, method = 'GET', body?: unknown): Promise<Response> {
  return answer(
    new Request('http://page.test/v1/categories', {
      method,
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

async function statuses(answer: Answerer, count: number): Promise<number[]> {
  const answers: number[] = [];
  for (let i = 0; i < count; i++) answers.push((await call(answer)).status);
  return answers;
}

describe('a mock in the page under the fixture’s channel', () => {
  it('plays a force until it is cleared', async () => {
    const answer = await pageMock();
    channel.change({ force: { prefer: 'code=500' } });
    expect(await statuses(answer, 3)).toEqual([500, 500, 500]);
    channel.change({ force: null });
    expect(await statuses(answer, 1)).toEqual([200]);
  });

  it('counts a force across page loads: the next page gets what the last one left', async () => {
    channel.change({ force: { prefer: 'code=500', times: 3 } });
    expect(await statuses(await pageMock(), 2)).toEqual([500, 500]);
    expect(await statuses(await pageMock(), 2)).toEqual([500, 200]);
    expect(await statuses(await pageMock(), 1)).toEqual([200]);
  });

  it('spends a count once among requests made at once', async () => {
    const answer = await pageMock();
    channel.change({ force: { prefer: 'code=500', times: 2 } });
    const answers = await Promise.all([call(answer), call(answer), call(answer)]);
    expect(answers.map((response) => response.status).sort()).toEqual([200, 500, 500]);
  });

  it('resets a page already running: its records and its force', async () => {
    const answer = await pageMock();
    expect((await call(answer, 'POST', { name: 'Axolotls' })).status).toBe(201);
    channel.change({ force: { prefer: 'code=500' } });
    channel.reset();
    const list = await call(answer);
    expect(list.status).toBe(200);
    expect(await list.json()).toHaveLength(3);
  });

  it('holds answers back for the latency the test set', async () => {
    const answer = await pageMock();
    channel.change({ delay: { min: 300, max: 300 } });
    const started = performance.now();
    expect(await statuses(answer, 1)).toEqual([200]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('keeps no report on a force the test has since replaced', () => {
    channel.change({ force: { prefer: 'code=500', times: 2 } });
    const { version } = channel.answer();
    channel.change({ force: { prefer: 'code=503', times: 5 } });
    expect(channel.answer({ version, force: null }).settings.force).toEqual({
      prefer: 'code=503',
      times: 5,
    });
  });

  it('answers as it is without the fixture’s channel', async () => {
    const answer = await pageMock();
    channel.change({ force: { prefer: 'code=500' } });
    Reflect.deleteProperty(page, PAGE_CHANNEL);
    expect(await statuses(answer, 1)).toEqual([200]);
  });
});
