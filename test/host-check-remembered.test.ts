// The Host check remembers the Host headers it answered: what it remembers must never answer
// a host it would refuse, however many hosts it has seen.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { hostCheck } from '../src/http/host-check.js';

const withHost = (host: string) => ({ headers: { host } }) as IncomingMessage;

describe('the Host check, asked again and again', () => {
  it('refuses a foreign host every time, after answering the same header many times', () => {
    const check = hostCheck('127.0.0.1', ['mock.internal'])!;
    for (let i = 0; i < 3; i++) {
      expect(check(withHost('localhost:4010'))).toBeUndefined();
      expect(check(withHost('evil.example:4010'))?.status).toBe(403);
    }
  });

  it('reads each header past the ones it remembers as it read the first', () => {
    const check = hostCheck('127.0.0.1', [])!;
    for (let port = 4000; port < 4040; port++)
      expect(check(withHost(`localhost:${port}`))).toBeUndefined();
    for (let port = 4000; port < 4040; port++) {
      expect(check(withHost(`127.0.0.${(port % 200) + 1}:${port}`))).toBeUndefined();
      expect(check(withHost(`rebound-${port}.example`))?.status).toBe(403);
    }
  });
});
