import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dereference } from '@apidevtools/json-schema-ref-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

/** A JSON Schema as the spec writes it (resolved, so without `$ref`). */
export interface Schema {
  type?: string | string[];
  required?: string[];
  properties?: Record<string, Schema>;
  readOnly?: boolean;
  allOf?: Schema[];
  [keyword: string]: unknown;
}

/** What the suite reads of one operation of the spec. */
export interface SpecOperation {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Path relative to the base URL, e.g. `/categories`. */
  path: string;
  /** The JSON schema of the request body, if the operation takes one. */
  requestSchema?: Schema;
}

/** The interface as the spec describes it: its operations and the schemas of their answers. */
export interface ContractSpec {
  operation(operationId: string): SpecOperation;
  /** The reasons a response breaks the spec; empty when it conforms. */
  checkResponse(operationId: string, status: number, body: unknown): string[];
  /** Whether a request body is valid for the operation's request schema. */
  acceptsRequest(operationId: string, body: unknown): boolean;
}

interface RawOperation {
  operationId?: string;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

const SPEC_PATH = fileURLToPath(new URL('../spec/openapi.yaml', import.meta.url));

/**
 * Reads spec/openapi.yaml, the same document the mock serves, and compiles its response
 * schemas. Responses are checked with the spec's status, else its `default`.
 * @example (await loadContractSpec()).checkResponse('listCategories', 200, [{ id: 1, name: 'Dog' }]) // []
 */
export async function loadContractSpec(path: string = SPEC_PATH): Promise<ContractSpec> {
  const document = (await dereference(parse(readFileSync(path, 'utf8')))) as {
    paths: Record<string, Record<string, RawOperation>>;
  };
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  // OpenAPI's own integer formats, which JSON Schema does not define (the mock's
  // src/openapi/schemas.ts defines them alike; this suite imports nothing from src/).
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });

  const operations = new Map<string, { operation: SpecOperation; raw: RawOperation }>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!raw?.operationId) continue;
      const requestSchema = raw.requestBody?.content?.['application/json']?.schema;
      operations.set(raw.operationId, {
        operation: {
          operationId: raw.operationId,
          method: method as SpecOperation['method'],
          path,
          requestSchema,
        },
        raw,
      });
    }
  }

  const validators = new Map<string, ValidateFunction>();
  function find(operationId: string) {
    const found = operations.get(operationId);
    if (!found) throw new Error(`the spec has no operation "${operationId}"`);
    return found;
  }

  return {
    operation: (operationId) => find(operationId).operation,
    checkResponse(operationId, status, body) {
      const { raw } = find(operationId);
      const key = raw.responses?.[String(status)] ? String(status) : 'default';
      const schema = raw.responses?.[key]?.content?.['application/json']?.schema;
      if (!raw.responses?.[key])
        return [`the spec documents no ${status} answer for ${operationId}`];
      if (!schema) return [];
      const cacheKey = `${operationId} ${key}`;
      let validate = validators.get(cacheKey);
      if (!validate) {
        validate = ajv.compile(schema);
        validators.set(cacheKey, validate);
      }
      if (validate(body)) return [];
      return (validate.errors ?? []).map((e) => `body${e.instancePath} ${e.message}`);
    },
    acceptsRequest(operationId, body) {
      const { operation } = find(operationId);
      if (!operation.requestSchema) return body === undefined;
      const cacheKey = `${operationId} request`;
      let validate = validators.get(cacheKey);
      if (!validate) {
        validate = ajv.compile(operation.requestSchema);
        validators.set(cacheKey, validate);
      }
      return validate(body);
    },
  };
}
