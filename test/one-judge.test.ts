// One judge for the validating proxy and the contract suite (issue 44): the same exchange gets
// the same verdict from `petstore-kit proxy`'s judge (judgeExchange, over the proxy's reading)
// and from the suite's judgement of an answer (what kit.conforms asks), conforming and faulty
// exchanges alike, an error body whose `status` disagrees with the answer's among them.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { specOf } from '../contract-tests/spec.js';
import { buildContractPlan } from '../src/cli/contract-plan.js';
import { judgeExchange } from '../src/core/proxy/judge.js';
import { loadSpec } from '../src/openapi/load.js';
import { judgeReadingOf } from '../src/wiring/judge-reading.js';

const THINGS = fileURLToPath(new URL('./fixtures/judge/things.yaml', import.meta.url));

const JSON_TYPE = { 'content-type': 'application/json' };
const PROBLEM = { 'content-type': 'application/problem+json' };
const thing = { id: 't1', name: 'Lamp' };

/** One exchange: the request, the answer, and the parts of the answer at fault (none: it fits). */
interface Row {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  faults: string[];
}

const ROWS: Row[] = [
  {
    name: 'a list that fits',
    method: 'GET',
    path: '/things',
    status: 200,
    headers: { ...JSON_TYPE, 'x-total-count': '1' },
    body: [thing],
    faults: [],
  },
  {
    name: 'a create with a relative Location',
    method: 'POST',
    path: '/things',
    status: 201,
    headers: { ...JSON_TYPE, location: '/api/things/t1' },
    body: thing,
    faults: [],
  },
  {
    name: 'an accepted write with no body, as documented',
    method: 'POST',
    path: '/things',
    status: 202,
    headers: {},
    faults: [],
  },
  {
    name: 'a delete answering 204',
    method: 'DELETE',
    path: '/things/t1',
    status: 204,
    headers: {},
    faults: [],
  },
  {
    name: 'a refusal in the documented error shape',
    method: 'GET',
    path: '/things/t9',
    status: 404,
    headers: PROBLEM,
    body: { title: 'Not Found', status: 404 },
    faults: [],
  },
  {
    name: 'an error body whose status is not the answer’s',
    method: 'GET',
    path: '/things/t9',
    status: 404,
    headers: PROBLEM,
    body: { title: 'Bad Request', status: 400 },
    faults: ['error-shape'],
  },
  {
    name: 'an error body that breaks the error schema',
    method: 'POST',
    path: '/things',
    status: 400,
    headers: PROBLEM,
    body: { message: 'no name' },
    faults: ['error-shape'],
  },
  {
    name: 'a status the operation does not document',
    method: 'GET',
    path: '/things/t1',
    status: 418,
    headers: JSON_TYPE,
    body: thing,
    faults: ['status'],
  },
  {
    name: 'a create without its required Location',
    method: 'POST',
    path: '/things',
    status: 201,
    headers: JSON_TYPE,
    body: thing,
    faults: ['headers'],
  },
  {
    name: 'a header that breaks its schema',
    method: 'GET',
    path: '/things',
    status: 200,
    headers: { ...JSON_TYPE, 'x-total-count': 'many' },
    body: [],
    faults: ['headers'],
  },
  {
    name: 'a media type the answer does not document',
    method: 'GET',
    path: '/things/t1',
    status: 200,
    headers: { 'content-type': 'text/html' },
    body: '<p>Lamp</p>',
    faults: ['content-type'],
  },
  {
    // A response with no content documents nothing of a body: a correct server may send one.
    name: 'a body where the description says nothing of one',
    method: 'POST',
    path: '/things',
    status: 202,
    headers: JSON_TYPE,
    body: thing,
    faults: [],
  },
  {
    name: 'no body where one is documented',
    method: 'GET',
    path: '/things/t1',
    status: 200,
    headers: JSON_TYPE,
    body: '',
    faults: ['body'],
  },
  {
    name: 'a body that is not JSON',
    method: 'GET',
    path: '/things/t1',
    status: 200,
    headers: JSON_TYPE,
    body: '{"id": "t1",',
    faults: ['body'],
  },
  {
    name: 'a record missing a required field',
    method: 'GET',
    path: '/things/t1',
    status: 200,
    headers: JSON_TYPE,
    body: { id: 't1' },
    faults: ['body'],
  },
];

const OPERATIONS: Record<string, string> = {
  'GET /things': 'listThings',
  'POST /things': 'createThing',
  'GET /things/{thingId}': 'getThing',
  'DELETE /things/{thingId}': 'deleteThing',
};

describe('the proxy and the contract suite', async () => {
  const loaded = await loadSpec(THINGS);
  const proxy = await judgeReadingOf(loaded);
  const suite = specOf(buildContractPlan(loaded.resolved));

  for (const row of ROWS)
    it(`give the same verdict on ${row.name}`, async () => {
      const text = typeof row.body === 'string' ? row.body : JSON.stringify(row.body ?? '');
      const bodyText = row.body === undefined ? '' : text;
      const judged = await judgeExchange(proxy, {
        request: {
          method: row.method,
          target: `/api${row.path}`,
          headers: row.method === 'POST' ? JSON_TYPE : {},
          body: row.method === 'POST' ? Buffer.from(JSON.stringify({ name: 'Lamp' })) : undefined,
        },
        answer: {
          method: row.method,
          status: row.status,
          headers: row.headers,
          body: Buffer.from(bodyText),
        },
      });
      const template = row.path.replace(/\/t\d$/, '/{thingId}');
      const operationId = OPERATIONS[`${row.method} ${template}`]!;
      expect(judged.operation?.operationId).toBe(operationId);
      const problems = suite.checkAnswer(suite.operation(operationId), {
        request: { method: row.method },
        status: row.status,
        headers: row.headers,
        text: bodyText,
        json: undefined,
      });

      const proxyFaults = [...new Set(judged.answer.map((breach) => breach.rule))];
      const suiteFaults = [...new Set(problems.map((problem) => problem.rule))];
      expect({ proxy: proxyFaults, suite: suiteFaults }).toEqual({
        proxy: row.faults,
        suite: row.faults,
      });
    });
});
