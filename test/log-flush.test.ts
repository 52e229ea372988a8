// Request lines are written buffered and asynchronously (issue 45), and none is lost when the
// mock stops: on SIGTERM, SIGINT (the CLI's graceful stop) or a fatal error.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/http/logger.js';

// The built bin, as `npm start` runs it: under tsx each start compiled src/ again (2 CPU s, not 0.8).
const BIN = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url));
// A fatal error on demand: an exception nothing catches, thrown when the test asks.
const FATAL_ON_USR2 = `data:text/javascript,process.on('SIGUSR2',()=>setImmediate(()=>{throw new Error('fatal')}))`;
const children: ChildProcess[] = [];

beforeAll(() => {
  if (!existsSync(BIN))
    throw new Error('dist/cli/bin.js is missing: run `npm run build` (npm test does)');
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Cli {
  child: ChildProcess;
  url: string;
  /** All stdout so far. */
  out(): string;
  exited: Promise<number | null>;
}

/** `petstore-kit mock` in a child process, as `npm start` runs it (JSON lines on a pipe). */
async function startCli(): Promise<Cli> {
  const child = spawn(
    process.execPath,
    ['--import', FATAL_ON_USR2, BIN, 'mock', '--port', '0', '--api-key', 'k'],
    { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
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
  return { child, url, out: () => text, exited };
}

/** Sends `count` requests, ten at a time, and waits for every answer. */
async function requests(url: string, count: number): Promise<void> {
  for (let sent = 0; sent < count; sent += 10) {
    const batch = Array.from({ length: Math.min(10, count - sent) }, () =>
      fetch(`${url}/categories`, { headers: { Authorization: 'Bearer k' } }).then((res) => {
        expect(res.status).toBe(200);
        return res.arrayBuffer();
      }),
    );
    await Promise.all(batch);
  }
}

const requestLines = (text: string) =>
  text.split('\n').filter((line) => line.includes('"msg":"GET /v1/categories 200'));

describe('request lines', () => {
  it('are written asynchronously, in a later turn, not one write each', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'log-flush-')), 'log');
    const fd = openSync(file, 'w');
    const logger = createLogger(undefined, { bufferedFd: fd });
    for (let i = 0; i < 3; i++) logger.info({ i }, 'line');
    expect(readFileSync(file, 'utf8')).toBe('');
    await expect
      .poll(() => readFileSync(file, 'utf8').split('\n').length - 1, { timeout: 5000 })
      .toBe(3);
    closeSync(fd);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'are all written when the CLI is stopped with %s',
    async (signal) => {
      const cli = await startCli();
      await requests(cli.url, 300);
      cli.child.kill(signal);
      expect(await cli.exited).toBe(0);
      expect(requestLines(cli.out())).toHaveLength(300);
    },
    60_000,
  );

  it('are all written when the process dies of an error nothing catches', async () => {
    const cli = await startCli();
    await requests(cli.url, 300);
    cli.child.kill('SIGUSR2');
    expect(await cli.exited).not.toBe(0);
    expect(requestLines(cli.out())).toHaveLength(300);
  }, 60_000);
});
