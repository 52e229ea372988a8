import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { expect } from 'vitest';
import { stringify } from 'yaml';
import { loadSpec, type LoadedSpec, type OpenApiDocument } from '../src/spec/load.js';

export const KEY = 'test-key';
export const AUTH = { Authorization: `Bearer ${KEY}` };

/** Asserts an answer is the spec's Error body with this status and code, as JSON. */
export function expectError(res: Response, status: number, code?: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual({
    code: code ?? expect.any(String),
    message: expect.any(String),
    status,
  });
  expect(res.text).not.toMatch(/\bat .*\.(js|ts):\d+|node_modules|<html/i);
}

/** The bundled spec, changed by `edit`, written to a temporary file and loaded from there. */
export async function editedSpec(edit: (document: OpenApiDocument) => void): Promise<LoadedSpec> {
  const { document } = await loadSpec();
  const copy = structuredClone(document);
  edit(copy);
  const dir = await mkdtemp(join(tmpdir(), 'petstore-kit-spec-'));
  const path = join(dir, 'openapi.yaml');
  await writeFile(path, stringify(copy));
  return loadSpec(path);
}
