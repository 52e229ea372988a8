// Ports for a server that must be told its port before it listens (a CLI flag, a config, a
// restart on the same port). A port Node picks with listen(0) is in the kernel's ephemeral range,
// which it also hands to outgoing connections: between the check and the listen, any client on
// the machine could take it (EADDRINUSE). Below that range, only another listener can.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Linux's default range, where /proc cannot be read (another system). */
const DEFAULT_EPHEMERAL_START = 32768;
/** How many ports below the ephemeral range are drawn from. */
const SPAN = 10_000;
/** The lowest port drawn: above the well-known and the usual development ports. */
const LOWEST = 10_000;

/**
 * Where the kernel's ephemeral range starts (`/proc/sys/net/ipv4/ip_local_port_range`).
 * @example ephemeralStart() // 32768
 */
export function ephemeralStart(): number {
  try {
    const [start] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    return start !== undefined && Number.isInteger(start) ? start : DEFAULT_EPHEMERAL_START;
  } catch {
    return DEFAULT_EPHEMERAL_START;
  }
}

/** Whether a listener can take `port` on 127.0.0.1 now; it is released before this resolves. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A loopback port free now that no outgoing connection will take: drawn below the ephemeral
 * range; left to the kernel when that range starts too low to leave room, or nothing there is free.
 * @example spawn(bin, ['--port', String(await freePort())])
 */
export async function freePort(): Promise<number> {
  const top = ephemeralStart();
  const bottom = Math.max(LOWEST, top - SPAN);
  if (top - bottom < 1000) return kernelPort();
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = bottom + Math.floor(Math.random() * (top - bottom));
    if (await bindable(port)) return port;
  }
  return kernelPort();
}

/**
 * `count` distinct ports, each as `freePort` gives.
 * @example const [mockPort, appPort] = await freePorts(2);
 */
export async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/** A port the kernel picks, in its ephemeral range. */
function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}
