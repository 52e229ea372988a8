// node:crypto as the core uses it, in a browser: Web Crypto's UUIDs, and a SHA-256 that stays
// synchronous (the seed data is derived from one; Web Crypto's digest is asynchronous).
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha256';
import { Buffer } from 'buffer';

/** A random v4 UUID; outside a secure context (plain HTTP off loopback) from random bytes. */
export function randomUUID(): string {
  if (typeof globalThis.crypto.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The part of a node:crypto Hash the core calls: update, then digest as bytes or text. */
class Sha256 {
  readonly #hash = sha256.create();

  update(data: string | Uint8Array): this {
    this.#hash.update(typeof data === 'string' ? new TextEncoder().encode(data) : data);
    return this;
  }

  digest(): Buffer;
  digest(encoding: 'hex' | 'base64' | 'base64url'): string;
  digest(encoding?: 'hex' | 'base64' | 'base64url'): Buffer | string {
    const bytes = Buffer.from(this.#hash.digest());
    return encoding === undefined ? bytes : bytes.toString(encoding);
  }
}

/** node:crypto's createHash, for SHA-256 only (the only one the core uses). */
export function createHash(algorithm: string): Sha256 {
  if (algorithm !== 'sha256')
    throw new Error(`only sha256 is available in the browser, not ${algorithm}`);
  return new Sha256();
}

/** The part of a node:crypto Hmac the core calls (webhook signatures): update, then digest. */
class HmacSha256 {
  readonly #mac;

  constructor(key: Uint8Array) {
    this.#mac = hmac.create(sha256, key);
  }

  update(data: string | Uint8Array): this {
    this.#mac.update(typeof data === 'string' ? new TextEncoder().encode(data) : data);
    return this;
  }

  digest(encoding: 'hex' | 'base64' | 'base64url'): string {
    return Buffer.from(this.#mac.digest()).toString(encoding);
  }
}

/** node:crypto's createHmac, for SHA-256 only (Standard Webhooks' `v1` signatures). */
export function createHmac(algorithm: string, key: Uint8Array): HmacSha256 {
  if (algorithm !== 'sha256')
    throw new Error(`only sha256 is available in the browser, not ${algorithm}`);
  return new HmacSha256(key);
}
