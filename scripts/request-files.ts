// How many of the project's files (and functions, and calls) one `POST /v1/categories` enters,
// through the Node server (`startMock`, logging as `npm start` does) and through
// `petstore-kit/msw` (`mockHandlers` under MSW's `setupServer`).
//
//   npx tsx scripts/request-files.ts            # a table
//   npx tsx scripts/request-files.ts --files    # and the files each path enters, in order of first call
//   npx tsx scripts/request-files.ts --proxy    # and through `startProxy` to a target answering 201
//
// Method: V8's precise coverage with call counts (the inspector's `Profiler.takePreciseCoverage`,
// which resets the counts each time it is taken): the mock is started and warmed up with a few
// creates (so that compiling and first-use work are not counted), the counts are taken and
// dropped, one create is sent and answered and its log line written, and the counts are taken
// again. A file is entered when one of its functions ran; the calls are the sum of the counts of
// the functions that ran (a module's top level, run once at import, is not counted again).
// Only files under src/ are counted; the client's side (undici, MSW's own code) is not.
import { openSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { setupServer } from 'msw/node';
import { createLogger } from '../src/http/logger.js';
import { mockHandlers } from '../src/wiring/msw-handlers.js';
import { startMock } from '../src/wiring/start-mock.js';
import { startProxy } from '../src/wiring/start-proxy.js';

const SRC = new URL('../src/', import.meta.url).href;
const KEY = 'request-files-key';
const WARM_UP = 20;

interface Entered {
  /** Files of src/ entered, in order of their first function's place in V8's list. */
  files: string[];
  /** Functions of src/ that ran at least once. */
  functions: number;
  /** Calls of those functions, all together. */
  calls: number;
}

async function entered(session: Session, send: () => Promise<void>): Promise<Entered> {
  await session.post('Profiler.takePreciseCoverage');
  await send();
  // The log line is written after the answer: let it be.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const files: string[] = [];
  let functions = 0;
  let calls = 0;
  for (const script of result) {
    if (!script.url.startsWith(SRC)) continue;
    let any = false;
    for (const fn of script.functions) {
      // The first range of a function is its whole body: its count is how often it was called.
      const count = fn.ranges[0]?.count ?? 0;
      // A module's top level (the nameless function spanning the file) ran at import, not now.
      if (count === 0 || (fn.functionName === '' && fn.ranges[0]?.startOffset === 0)) continue;
      any = true;
      functions++;
      calls += count;
    }
    if (any) files.push(script.url.slice(SRC.length));
  }
  return { files, functions, calls };
}

function create(url: string): Promise<void> {
  return fetch(`${url}/categories`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Birds' }),
  }).then(async (response) => {
    if (response.status !== 201) throw new Error(`expected 201, got ${response.status}`);
    await response.arrayBuffer();
  });
}

async function throughNode(session: Session): Promise<Entered> {
  // As `npm start` logs: JSON lines, buffered, here to /dev/null rather than stdout.
  const logger = createLogger(undefined, { bufferedFd: openSync('/dev/null', 'w') });
  const mock = await startMock({ port: 0, apiKeys: [KEY], logger, logRequests: true });
  try {
    for (let i = 0; i < WARM_UP; i++) await create(mock.url);
    return await entered(session, () => create(mock.url));
  } finally {
    await mock.close();
  }
}

async function throughMsw(session: Session): Promise<Entered> {
  const mock = await mockHandlers({ apiKeys: [KEY] });
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  const url = `http://mock.test${mock.mock.basePath}`;
  try {
    for (let i = 0; i < WARM_UP; i++) await create(url);
    return await entered(session, () => create(url));
  } finally {
    server.close();
    await mock.close();
  }
}

/** The proxy in front of a target that answers every create with 201, logging as the CLI does. */
async function throughProxy(session: Session): Promise<Entered> {
  let id = 0;
  const target = createServer((req, res) => {
    req.resume().on('end', () => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: ++id, name: 'Birds' }));
    });
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const { port } = target.address() as AddressInfo;
  const logger = createLogger(undefined, { bufferedFd: openSync('/dev/null', 'w') });
  const proxy = await startProxy({
    target: `http://127.0.0.1:${port}/v1`,
    apiKeys: [KEY],
    logger,
    logRequests: true,
  });
  try {
    for (let i = 0; i < WARM_UP; i++) await create(proxy.url);
    return await entered(session, () => create(proxy.url));
  } finally {
    await proxy.close();
    target.close();
  }
}

const { values } = parseArgs({
  options: {
    files: { type: 'boolean', default: false },
    proxy: { type: 'boolean', default: false },
  },
});
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const rows = [
  ['Node (startMock)', await throughNode(session)],
  ['MSW (mockHandlers)', await throughMsw(session)],
  ...(values.proxy ? ([['Proxy (startProxy)', await throughProxy(session)]] as const) : []),
] as const;
await session.post('Profiler.stopPreciseCoverage');
session.disconnect();

console.log('| POST /v1/categories | files of src/ | functions | calls |');
console.log('| --- | --- | --- | --- |');
for (const [name, row] of rows)
  console.log(`| ${name} | ${row.files.length} | ${row.functions} | ${row.calls} |`);
if (values.files)
  for (const [name, row] of rows) console.log(`\n${name}:\n  ${row.files.join('\n  ')}`);
