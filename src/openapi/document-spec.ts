import { hideDataRefs } from './data-refs.js';
import { lenientReadings } from './defects.js';
import { fragmentTokens } from './json-pointer.js';
import type { LoadedSpec, OpenApiDocument } from './load.js';
import { SpecError } from './spec-error.js';
import { leftoverWarnings, readSchemasAs31, upgradeSwagger, versionOf } from './upgrade.js';

/**
 * An OpenAPI document already parsed (a JSON or YAML file a page's bundler imported) read as
 * loadSpec reads a file, with no file system: upgraded and read as 3.1 by the same code, its
 * `$ref`s resolved within the document (`#/...`). It is not checked against the OpenAPI
 * schema (that check reads its own schema files): check it with `petstore-kit mock` once.
 * The document given is left as it was.
 * @throws {SpecError} when it is no OpenAPI document, has no paths, or has a `$ref` to another
 * file or URL or to nothing.
 * @example specFromDocument(await (await fetch('/openapi.json')).json(), 'openapi.json')
 */
export function specFromDocument(given: unknown, source = 'the document given'): LoadedSpec {
  const version = versionOf(given);
  if (!version) {
    throw new SpecError(
      `${source} is not an OpenAPI document (it needs "openapi: 3.x.y" or "swagger: '2.0'")`,
    );
  }
  const document = structuredClone(given) as Record<string, unknown>;
  const warnings: string[] = [];
  if (typeof document.swagger === 'number') {
    warnings.push('swagger: 2.0 is a number here, where it must be the string "2.0": read as one');
    document.swagger = '2.0';
  }
  if (typeof document.paths !== 'object' && typeof document.webhooks !== 'object') {
    throw new SpecError(`${source} has no paths: there is nothing to serve`);
  }
  const upgraded = upgradeSwagger(document, version);
  const leftovers = readSchemasAs31(upgraded, version);
  const resolved = structuredClone(upgraded);
  // A `$ref` inside an example or a default is part of the value, never resolved.
  const restore = hideDataRefs(resolved);
  resolveLocalRefs(resolved, source);
  restore();
  warnings.push(...leftoverWarnings(leftovers, version), ...lenientReadings(resolved));
  return {
    source,
    version,
    document: upgraded as unknown as OpenApiDocument,
    resolved: resolved as unknown as OpenApiDocument,
    warnings,
    bytes: new TextEncoder().encode(JSON.stringify(given)).length,
  };
}

/**
 * Replaces, in place, every `$ref` of the document by its target, as the file loader's
 * resolver does: one object per target (a recursive schema becomes a cycle), and a `$ref`
 * with keys beside it becomes its target's keys with those over them.
 */
function resolveLocalRefs(root: Record<string, unknown>, source: string): void {
  // Each object once: its own result (itself, or a $ref's target).
  const done = new Map<object, unknown>();
  const visit = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const known = done.get(value);
    if (known !== undefined) return known;
    const object = value as Record<string, unknown>;
    if (!Array.isArray(value) && typeof object.$ref === 'string') {
      // A $ref met again while its target is being resolved (a cycle of bare $refs) stays.
      done.set(value, value);
      const { $ref, ...beside } = object;
      const target = visit(pointAt(root, $ref as string, source));
      const result =
        Object.keys(beside).length === 0 ? target : { ...(target as object), ...beside };
      done.set(value, result);
      if (result !== target) visitKeys(result as Record<string, unknown>);
      return result;
    }
    done.set(value, value);
    visitKeys(object);
    return value;
  };
  const visitKeys = (object: Record<string, unknown>): void => {
    for (const key of Object.keys(object)) object[key] = visit(object[key]);
  };
  visitKeys(root);
}

/** The value a local `$ref` (`#/components/schemas/Pet`) names, as RFC 6901 reads it. */
function pointAt(root: object, ref: string, source: string): unknown {
  if (!ref.startsWith('#')) {
    throw new SpecError(
      `${source} has a $ref to another file or URL (${ref}): a document given as an object ` +
        'must hold all it refers to (bundle it into one file first)',
    );
  }
  const tokens = fragmentTokens(ref);
  if (tokens === undefined)
    throw new SpecError(`${source} has a $ref that cannot be resolved: ${ref} is no JSON pointer`);
  let value: unknown = root;
  for (const key of tokens) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) {
      throw new SpecError(`${source} has a $ref that cannot be resolved: ${ref} names nothing`);
    }
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
