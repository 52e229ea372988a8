import { METHODS } from 'node:http';
import type { Operation } from '../openapi/operations.js';

/**
 * The operations whose method Node's HTTP parser refuses before any code sees the request
 * (it answers 400 itself): an OpenAPI 3.2 `additionalOperations` method outside the list
 * llhttp knows (`QUERY`, `LINK`, `PURGE` are in it). Served through `mock.fetch` or MSW they
 * work; through a socket they cannot.
 * @example unparsedOperations(operations) // ['FROBNICATE /widgets']
 */
export function unparsedOperations(operations: readonly Operation[]): string[] {
  return operations
    .filter((operation) => !METHODS.includes(operation.method.toUpperCase()))
    .map((operation) => `${operation.method.toUpperCase()} ${operation.path}`);
}
