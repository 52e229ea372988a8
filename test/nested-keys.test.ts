// Records keyed by a nested property: Kubernetes names its objects by `metadata.name` under a
// `{namespace}` that is itself a record, other services key by a `spec.id` the server sets.
// No store could key by a property within an object, so no such collection was inferred: every
// create was answered with an example, and nothing created could be read, listed or deleted.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SPEC_PATH } from '../src/openapi/bundled.js';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { AUTH, KEY } from './helpers.js';
import { jsonCaller, request } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/nested-keys.yaml', import.meta.url));

const widget = (name: string | undefined, replicas: number) => ({
  apiVersion: 'v1',
  kind: 'Widget',
  metadata: { ...(name === undefined ? {} : { name }), labels: { app: 'shop' } },
  spec: { replicas, image: 'shop:1' },
});

describe('records keyed by a property within an object of theirs', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);
  const widgets = '/namespaces/default/widgets';

  beforeAll(async () => {
    const [spec, adminSpec] = await Promise.all([loadSpec(SPEC), loadSpec(ADMIN_SPEC_PATH)]);
    app = createApp({ spec, adminSpec, apiKeys: [KEY], seed: 1 });
    const made = await call('POST', '/namespaces', { metadata: { name: 'default' } });
    expect(made.status).toBe(201);
  });

  it('keeps the name the client chose, and lists, reads, replaces and deletes by it', async () => {
    const created = await call('POST', widgets, widget('web', 2));
    expect(created.status).toBe(201);
    expect(created.body.metadata).toMatchObject({ name: 'web', labels: { app: 'shop' } });

    const listed = await call('GET', widgets);
    expect(listed.status).toBe(200);
    expect(
      listed.body.items.map((one: { metadata: { name: string } }) => one.metadata.name),
    ).toContain('web');
    const read = await call('GET', `${widgets}/web`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ metadata: { name: 'web' }, spec: { replicas: 2 } });

    const replaced = await call('PUT', `${widgets}/web`, widget('web', 3));
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ metadata: { name: 'web' }, spec: { replicas: 3 } });
    // The name is the record's for life: a replace naming another keeps it where it is.
    const renamed = await call('PUT', `${widgets}/web`, widget('other', 4));
    expect(renamed.status).toBe(200);
    expect(renamed.body.metadata.name).toBe('web');
    expect((await call('GET', `${widgets}/web`)).body.spec.replicas).toBe(4);
    expect((await call('GET', `${widgets}/other`)).status).toBe(404);

    expect((await call('DELETE', `${widgets}/web`)).status).toBe(200);
    expect((await call('GET', `${widgets}/web`)).status).toBe(404);
  });

  it('patches with a merge patch, the key kept', async () => {
    expect((await call('POST', widgets, widget('api', 1))).status).toBe(201);
    for (const type of ['application/merge-patch+json', 'application/strategic-merge-patch+json']) {
      const patched = await request(app)
        .patch(`${widgets}/api`)
        .set(AUTH)
        .set('content-type', type)
        .send({ metadata: { labels: { tier: 'back' } }, spec: { replicas: 5 } });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        metadata: { name: 'api', labels: { tier: 'back' } },
        spec: { replicas: 5, image: 'shop:1' },
      });
    }
    expect((await call('GET', `${widgets}/api`)).body.spec.replicas).toBe(5);
  });

  it('refuses a name taken in the namespace with a 409, and takes it in another', async () => {
    expect((await call('POST', widgets, widget('db', 1))).status).toBe(201);
    expect((await call('POST', widgets, widget('db', 1))).status).toBe(409);
    expect((await call('POST', '/namespaces', { metadata: { name: 'staging' } })).status).toBe(201);
    expect((await call('POST', '/namespaces/staging/widgets', widget('db', 1))).status).toBe(201);
    const staging = await call('GET', '/namespaces/staging/widgets');
    expect(
      staging.body.items.filter(
        (one: { metadata: { name: string } }) => one.metadata.name === 'db',
      ),
    ).toHaveLength(1);
  });

  it('names a record the client left unnamed, readable at that name', async () => {
    const created = await call('POST', widgets, widget(undefined, 1));
    expect(created.status).toBe(201);
    const name = created.body.metadata.name as string;
    expect(typeof name).toBe('string');
    expect((await call('GET', `${widgets}/${encodeURIComponent(name)}`)).body.metadata.name).toBe(
      name,
    );
  });

  it('reads each seeded namespace at the name it holds', async () => {
    const { body } = await call('GET', '/namespaces');
    expect(body.items.length).toBeGreaterThan(0);
    for (const one of body.items as { metadata: { name: string } }[])
      expect(
        (await call('GET', `/namespaces/${encodeURIComponent(one.metadata.name)}`)).status,
      ).toBe(200);
  });

  it('keys by the object the other collections key by, where two objects hold a name', async () => {
    const binding = { metadata: { name: 'admins' }, roleRef: { kind: 'Role', name: 'admin' } };
    expect((await call('POST', '/namespaces/default/bindings', binding)).status).toBe(201);
    const read = await call('GET', '/namespaces/default/bindings/admins');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject(binding);
    expect((await call('GET', '/namespaces/default/bindings/admin')).status).toBe(404);
  });

  it('counts the records under each parent the admin API names by its nested key', async () => {
    const { body } = await call('GET', '/__mock/collections');
    const namespaced = (body.collections as { name: string; parents?: { path: string }[] }[]).find(
      (one) => one.name === 'namespaces/{namespace}/widgets',
    );
    expect(namespaced?.parents?.map((one) => one.path)).toContain(widgets);
  });

  it('gives a server-set nested integer id, read and deleted by it', async () => {
    const created = await call('POST', '/clusters', { spec: { region: 'eu' } });
    expect(created.status).toBe(201);
    const id = created.body.spec.id as number;
    expect(Number.isInteger(id)).toBe(true);
    expect((await call('GET', `/clusters/${id}`)).body.spec).toEqual({ id, region: 'eu' });
    expect((await call('DELETE', `/clusters/${id}`)).status).toBe(204);
    expect((await call('GET', `/clusters/${id}`)).status).toBe(404);
  });
});
