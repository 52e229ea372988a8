// Run as `node --import tsx bench/list-clients.ts <url> <clients>`: that many clients fetch the
// list at <url> back to back, each on its own keep-alive connection, until SIGTERM; then one
// JSON line tells how many lists they got and how long each took. A process of its own, so
// that reading hundreds of megabytes never delays the latency probe's own event loop.
import { keepAlive, send } from './http-client.js';

const [url = '', clients = '1'] = process.argv.slice(2);
const agent = keepAlive(Number(clients));
const times: number[] = [];
let bytes = 0;
let failed = 0;
let stopping = false;

async function client(): Promise<void> {
  while (!stopping) {
    const started = performance.now();
    try {
      const answer = await send(agent, url);
      if (answer.status !== 200) failed++;
      times.push(performance.now() - started);
      bytes += answer.bytes;
    } catch {
      // A list cut off by the stop is no failure.
      if (!stopping) failed++;
    }
  }
}

for (let i = 0; i < Number(clients); i++) void client();
process.stdout.write('started\n');
process.once('SIGTERM', () => {
  stopping = true;
  agent.destroy();
  process.stdout.write(`${JSON.stringify({ times, bytes, failed })}\n`, () => process.exit(0));
});
