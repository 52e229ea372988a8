// Example answers echo the request where the schema allows: GET /v1/pets/3 is pet 3.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { echoed } from '../src/core/example-answers.js';
import { KEY, AUTH } from './helpers.js';
import { inProcessMock, type InProcessMock } from './in-process.js';

let mock: InProcessMock;

beforeAll(async () => {
  mock = await inProcessMock({ apiKeys: [KEY] });
});
afterAll(() => mock.close());

it('carries the requested path parameter into the example (petId -> id)', async () => {
  const answer = await mock.fetch(`${mock.url}/pets/3`, { headers: AUTH });
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual({ id: 3, name: 'Rex' });
});

it('keeps the example when the value does not fit the answer’s schema', async () => {
  const answer = await mock.fetch(`${mock.url}/pets/rex`, { headers: AUTH });
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual({ id: 10, name: 'Rex' });
});

it('echoes a parameter of the property’s own name, in the example’s type, and only when it fits', () => {
  expect(echoed({ code: 'a', n: 1 }, { code: 'b' }, () => true)).toEqual({ code: 'b', n: 1 });
  expect(echoed({ id: 1.5 }, { itemId: '2.5' }, () => true)).toEqual({ id: 2.5 });
  expect(echoed({ id: 1 }, { petId: '3' }, () => false)).toEqual({ id: 1 });
  expect(echoed([{ id: 1 }], { petId: '3' }, () => true)).toEqual([{ id: 1 }]);
});
