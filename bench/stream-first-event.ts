// Time to first event of a Server-Sent Events answer, straight from a target and through the
// validating proxy, which checks each event as it passes (decisions/020): the target sends one
// event, then holds the stream open for HOLD_MS before it ends it. A proxy that buffered the
// stream would show the hold in its time to first event.
// Usage: npx tsx bench/stream-first-event.ts [runs]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../src/openapi/load.js';
import { startProxy } from '../src/wiring/start-proxy.js';

const SPEC = fileURLToPath(new URL('../test/fixtures/specs/stream-items-32.yaml', import.meta.url));
const HOLD_MS = 300;
const runs = Number(process.argv[2] ?? 30);

const target = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write('event: tick\nid: 1\ndata: {"n":1}\n\n');
  setTimeout(() => res.end('event: done\nid: 2\ndata: {"n":2}\n\n'), HOLD_MS);
});
await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
const direct = `http://127.0.0.1:${(target.address() as AddressInfo).port}/v1`;
const proxy = await startProxy({ spec: await loadSpec(SPEC), target: direct, apiKeys: ['k'] });

/** Milliseconds from the request to the first event's bytes, then the stream read to its end. */
async function firstEvent(base: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/ticks`);
  const reader = res.body!.getReader();
  let first: number | undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (first === undefined && new TextDecoder().decode(value).includes('\n\n'))
      first = performance.now() - started;
  }
  return first ?? Number.NaN;
}

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `median ${at(0.5).toFixed(2)} ms, p90 ${at(0.9).toFixed(2)} ms, max ${at(1).toFixed(2)} ms`;
}

// A warm-up of each, then runs taken in turn so that both see the same machine.
await firstEvent(direct);
await firstEvent(proxy.url);
const straight: number[] = [];
const proxied: number[] = [];
for (let run = 0; run < runs; run++) {
  straight.push(await firstEvent(direct));
  proxied.push(await firstEvent(proxy.url));
}
console.log(`first event of ${runs} streams (the target holds each open ${HOLD_MS} ms after it)`);
console.log(`  direct:        ${summary(straight)}`);
console.log(`  through proxy: ${summary(proxied)}`);
await proxy.close();
target.closeAllConnections();
target.close();
