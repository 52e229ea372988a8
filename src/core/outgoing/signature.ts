// Standard Webhooks signatures (https://www.standardwebhooks.com, spec/standard-webhooks.md):
// `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by the bytes of a
// `whsec_`-prefixed base64 secret.
import { createHmac, randomUUID } from 'node:crypto';

/** The prefix the standard gives symmetric secrets. */
export const SECRET_PREFIX = 'whsec_';

/**
 * The key bytes of a `whsec_` secret; undefined when it is not one (no prefix, not base64, or
 * not 24 to 64 bytes, the sizes the standard allows).
 * @example secretKey('whsec_' + Buffer.alloc(32).toString('base64'))?.length // 32
 */
export function secretKey(secret: string): Buffer | undefined {
  if (!secret.startsWith(SECRET_PREFIX)) return undefined;
  const text = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  const key = Buffer.from(text, 'base64');
  return key.length >= 24 && key.length <= 64 ? key : undefined;
}

/**
 * The three headers of a signed webhook: a new `webhook-id` (`msg_…`), the time in seconds,
 * and the `v1` signature of `id.timestamp.body` with `key`.
 * @example signedHeaders(key, '{"id":1}', new Date())['webhook-signature'] // 'v1,K5oZ…='
 */
export function signedHeaders(
  key: Uint8Array,
  body: string,
  now: Date,
  id = `msg_${randomUUID().replaceAll('-', '')}`,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
  };
}
