// Request lines are written buffered and asynchronously (issue 45), and none is lost when the
// mock stops: on SIGTERM, SIGINT (the CLI's graceful stop) or a fatal error.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, fetch } from 'undici';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { createLogger } from '../src/http/logger.js';
import { tempFolderSync } from './temp-folders.js';

// The built bin, as `npm start` runs it: under tsx each start compiled src/ again (2 CPU s, not 0.8).
const BIN = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url));
// A fatal error on demand: an exception nothing catches, thrown when the test asks.
const FATAL_ON_USR2 = `data:text/javascript,process.on('SIGUSR2',()=>setImmediate(()=>{throw new Error('fatal')}))`;

beforeAll(() => {
  if (!existsSync(BIN))
    throw new Error('dist/cli/bin.js is missing: run `npm run build` (npm test does)');
});

interface Cli {
  child: ChildProcess;
  url: string;
  /** All stdout so far. */
  out(): string;
  exited: Promise<number | null>;
  /** Sends `count` requests, ten at a time, and waits for every answer. */
  requests(count: number): Promise<void>;
  /**
   * Closes the test's own keep-alive connections, idle once its requests are answered: the
   * stop then has none to wait out its grace for.
   */
  closeConnections(): Promise<void>;
}

/**
 * `petstore-kit mock` in a child process, as `npm start` runs it (JSON lines on a pipe), killed
 * at the test's end if it still runs, with a fetch agent of its own.
 */
async function startCli({ onTestFinished }: TestContext): Promise<Cli> {
  const child = spawn(
    process.execPath,
    ['--import', FATAL_ON_USR2, BIN, 'mock', '--port', '0', '--api-key', 'k'],
    { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const agent = new Agent();
  onTestFinished(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await agent.destroy();
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const found = /listening on (http:\/\/[^\s"]+)[\s"]/.exec(text);
      if (found) resolve(found[1] as string);
    });
    void exited.then((code) => reject(new Error(`the mock exited with ${code}`)));
  });
  return {
    child,
    url,
    out: () => text,
    exited,
    async requests(count) {
      for (let sent = 0; sent < count; sent += 10) {
        const batch = Array.from({ length: Math.min(10, count - sent) }, async () => {
          const res = await fetch(`${url}/categories`, {
            headers: { Authorization: 'Bearer k' },
            dispatcher: agent,
          });
          expect(res.status).toBe(200);
          return res.arrayBuffer();
        });
        await Promise.all(batch);
      }
    },
    closeConnections: () => agent.close(),
  };
}

const requestLines = (text: string) =>
  text.split('\n').filter((line) => line.includes('"msg":"GET /v1/categories 200'));

// The CLI tests each start a process of their own: they run at once.
describe.concurrent('request lines', () => {
  it('are written asynchronously, in a later turn, not one write each', async ({ expect }) => {
    const file = join(tempFolderSync('log-flush'), 'log');
    const fd = openSync(file, 'w');
    const logger = createLogger(undefined, { bufferedFd: fd });
    for (let i = 0; i < 3; i++) logger.info({ i }, 'line');
    expect(readFileSync(file, 'utf8')).toBe('');
    await expect
      .poll(() => readFileSync(file, 'utf8').split('\n').length - 1, { timeout: 5000 })
      .toBe(3);
    closeSync(fd);
  });

  it.for(['SIGTERM', 'SIGINT'] as const)(
    'are all written when the CLI is stopped with %s',
    { timeout: 60_000 },
    async (signal, ctx) => {
      const { expect } = ctx;
      const cli = await startCli(ctx);
      await cli.requests(300);
      await cli.closeConnections();
      cli.child.kill(signal);
      expect(await cli.exited).toBe(0);
      expect(requestLines(cli.out())).toHaveLength(300);
    },
  );

  it('are all written when the process dies of an error nothing catches', async (ctx) => {
    const { expect } = ctx;
    const cli = await startCli(ctx);
    await cli.requests(300);
    cli.child.kill('SIGUSR2');
    expect(await cli.exited).not.toBe(0);
    expect(requestLines(cli.out())).toHaveLength(300);
  }, 60_000);
});
