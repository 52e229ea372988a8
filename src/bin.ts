#!/usr/bin/env node
// The one place that touches the process: argv, env (through commander), signals, exit codes.
import { createCli, type RunningMock } from './cli.js';

const running: RunningMock[] = [];

async function shutdown(): Promise<void> {
  await Promise.all(running.map((mock) => mock.close()));
  process.exit(0);
}

process.once('SIGINT', () => void shutdown());
process.once('SIGTERM', () => void shutdown());

createCli({
  stdout: process.stdout,
  stderr: process.stderr,
  onListening: (mock) => running.push(mock),
})
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    process.stderr.write(`petstore-kit: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
