// The ports tests hand to a server before it listens: outside the range the kernel gives
// outgoing connections, so that no client takes one in between (an EADDRINUSE seen in a whole run:
// the contract CLI's receiver on a port a connection of the other worker had taken).
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralStart, freePorts } from './free-port.js';

describe('freePort', () => {
  it('gives a port below the kernel’s ephemeral range, where no outgoing connection is given one', async () => {
    const start = ephemeralStart();
    for (const port of await freePorts(20)) {
      expect(port).toBeGreaterThanOrEqual(1024);
      expect(port).toBeLessThan(start);
    }
  });

  it('gives a port a server can listen on, and distinct ones when asked for several', async () => {
    const ports = await freePorts(3);
    expect(new Set(ports).size).toBe(3);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(ports[0], '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
