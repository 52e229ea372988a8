// A record of two kinds whose create names its fields in other words (`PrivacyPolicyUrl` in
// the form, `privacy_policy_url` in the second kind): the kind was chosen by exact names, the
// first kept the field under the form's name, and the closed answer refused it (a 500 on the
// create and on every list after it, Twilio Messaging's US A2P campaigns).
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/two-kinds-by-words.yaml', import.meta.url));
const KEY = 'two-kinds';

describe('a record of two kinds, its fields sent in other words', () => {
  let app: MockApp;
  const call = async (method: string, target: string, form?: Record<string, string>) => {
    const response = await app.mock.fetch(
      new Request(`http://mock.test${target}`, {
        method,
        headers: {
          Authorization: `Bearer ${KEY}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        ...(form === undefined ? {} : { body: new URLSearchParams(form).toString() }),
      }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('makes the kind the fields name, keeping the client’s values', async () => {
    const created = await call('POST', '/campaigns', {
      Description: 'Reminders',
      PrivacyPolicyUrl: 'https://example.com/privacy',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      description: 'Reminders',
      privacy_policy_url: 'https://example.com/privacy',
    });
    const listed = await call('GET', '/campaigns');
    expect(listed.status).toBe(200);
    expect((listed.body.campaigns as { sid: string }[]).map((one) => one.sid)).toContain(
      created.body.sid,
    );
    const read = await call('GET', `/campaigns/${String(created.body.sid)}`);
    expect(read.status).toBe(200);
    expect(read.body.privacy_policy_url).toBe('https://example.com/privacy');
  });

  it('makes the first kind where the fields name no other', async () => {
    const created = await call('POST', '/campaigns', { Description: 'Alerts' });
    expect(created.status).toBe(201);
    expect(created.body.description).toBe('Alerts');
    expect((await call('GET', '/campaigns')).status).toBe(200);
  });
});
