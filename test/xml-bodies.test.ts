// Request and answer bodies in XML, where the spec documents XML beside JSON (Scalar's Galaxy
// takes and answers `application/xml`; the Pet Store too, with wrapped arrays): an XML body was
// kept as bytes, never checked, and its values never stored (a create made up every field), and
// a client asking for XML got JSON.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { readXml, writeXml } from '../src/core/xml-body.js';
import type { SchemaObject } from '../src/openapi/load.js';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';

const GALAXY = fileURLToPath(new URL('./fixtures/corpus/scalar-galaxy/3.1.yaml', import.meta.url));

describe('XML bodies on a spec that documents them', () => {
  let app: MockApp;
  const call = async (
    method: string,
    target: string,
    headers: Record<string, string> = {},
    body?: string,
  ) => {
    const response = await app.mock.fetch(
      new Request(`http://mock.test${target}`, {
        method,
        headers: { Authorization: `Bearer ${KEY}`, ...headers },
        ...(body === undefined ? {} : { body }),
      }),
    );
    return {
      status: response.status,
      type: response.headers.get('content-type') ?? '',
      text: await response.text(),
    };
  };
  const xml = { 'Content-Type': 'application/xml' };

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(GALAXY), apiKeys: [KEY], seed: 1 });
  });

  it('stores the values an XML create sends, and reads them back in XML when asked', async () => {
    const created = await call(
      'POST',
      '/planets',
      xml,
      '<?xml version="1.0"?><planet><name>Vulcan &amp; co</name><description>Hot</description></planet>',
    );
    expect(created.status).toBe(201);
    const { id, name, description } = JSON.parse(created.text) as Record<string, unknown>;
    expect({ name, description }).toEqual({ name: 'Vulcan & co', description: 'Hot' });

    const read = await call('GET', `/planets/${String(id)}`, { Accept: 'application/xml' });
    expect(read.status).toBe(200);
    expect(read.type).toMatch(/^application\/xml/);
    expect(read.text).toContain('<planet>');
    expect(read.text).toContain('<name>Vulcan &amp; co</name>');
    // Read back as the spec's XML, it is the same record.
    const planet = readXml(read.text, {
      type: 'object',
      properties: { id: { type: 'integer' }, name: { type: 'string' } },
    } as SchemaObject);
    expect(planet.value).toMatchObject({ id, name: 'Vulcan & co' });
  });

  it('refuses an XML body that breaks the schema, or is not XML, with a 400 in the spec’s shape', async () => {
    const missing = await call('POST', '/planets', xml, '<planet><title>No name</title></planet>');
    expect(missing.status).toBe(400);
    expect(missing.text).toContain("must have required property 'name'");
    const broken = await call('POST', '/planets', xml, '<planet><name>Cut');
    expect(broken.status).toBe(400);
    expect(broken.text).toContain('not well-formed XML');
    const entities = await call(
      'POST',
      '/planets',
      xml,
      '<!DOCTYPE planet [<!ENTITY a "aaaaaaaa">]><planet><name>&a;</name></planet>',
    );
    expect(entities.status).toBe(400);
    expect(entities.text).toContain('DOCTYPE');
  });

  it('answers JSON to a client that prefers it, or names no XML', async () => {
    for (const accept of [
      undefined,
      'application/json',
      'application/json, application/xml;q=0.5',
      '*/*',
    ]) {
      const read = await call('GET', '/planets/1', accept ? { Accept: accept } : {});
      expect(read.status).toBe(200);
      expect(read.type).toMatch(/^application\/json/);
    }
  });
});

describe('the XML the spec describes', () => {
  const pet = {
    type: 'object',
    xml: { name: 'pet' },
    properties: {
      id: { type: 'integer', xml: { attribute: true } },
      name: { type: 'string' },
      available: { type: 'boolean' },
      photoUrls: {
        type: 'array',
        xml: { wrapped: true },
        items: { type: 'string', xml: { name: 'photoUrl' } },
      },
      tags: { type: 'array', items: { type: 'string', xml: { name: 'tag' } } },
    },
  } as unknown as SchemaObject;

  it('writes attributes, wrapped and unwrapped arrays, and reads them back to the same value', () => {
    const value = { id: 7, name: 'Rex <3', available: true, photoUrls: ['a', 'b'], tags: ['x'] };
    const text = writeXml(value, pet, 'Pet');
    expect(text).toContain('<pet id="7">');
    expect(text).toContain('<photoUrls><photoUrl>a</photoUrl><photoUrl>b</photoUrl></photoUrls>');
    expect(text).toContain('<tag>x</tag>');
    expect(readXml(text, pet)).toEqual({ value, problems: [] });
  });

  it('reads a wrapped array whose items are named otherwise, as the Pet Store’s own server writes them', () => {
    const swapped = {
      ...pet,
      properties: {
        photoUrls: {
          type: 'array',
          xml: { name: 'photoUrl', wrapped: true },
          items: { type: 'string' },
        },
      },
    } as unknown as SchemaObject;
    expect(
      readXml('<pet><photoUrls><photoUrl>u1</photoUrl></photoUrls></pet>', swapped).value,
    ).toEqual({
      photoUrls: ['u1'],
    });
  });
});
