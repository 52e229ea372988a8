// The clause of the description a violation breaks, as a JSON Pointer into the description
// (RFC 6901): the operation the failing request went to, and the part of it the kind of
// failure is about (its security, its documented statuses, one answer's body or header).
import type { Exchange } from './http.js';
import { responseFor, type ContractPlan, type PlanOperation } from './plan.js';

/**
 * The clause a failure breaks, from its summary (the first line, which names its kind) and
 * the exchange that shows it; `undefined` when the request went to no operation of the plan.
 * @example clauseOf(plan, '500 answers where the spec wants 201', exchange) // '#/paths/~1books/post/responses'
 */
export function clauseOf(
  plan: ContractPlan,
  summary: string,
  exchange: Exchange | undefined,
): string | undefined {
  if (!exchange) return undefined;
  const operation = operationOf(plan, exchange);
  if (!operation) return undefined;
  const at = `#/paths/${token(operation.path)}/${operation.method}`;
  // A credential let through is the scheme's cause, whichever operations show it.
  if (/let through|where the spec wants 401\b|where the spec wants 401 or 403/.test(summary)) {
    const scheme = Object.keys(operation.security.find((r) => Object.keys(r).length > 0) ?? {})[0];
    return scheme === undefined
      ? `${at}/security`
      : `#/components/securitySchemes/${token(scheme)}`;
  }
  const status = /^(\d{3}) answers/.exec(summary)?.[1];
  const key = status === undefined ? undefined : responseFor(operation, Number(status))?.key;
  if (/answers where the spec wants|^undocumented \d{3} answers/.test(summary))
    return `${at}/responses`;
  if (key === undefined) return at;
  const header = /the required (\S+) header|whose (\S+) header/.exec(summary);
  if (header) return `${at}/responses/${key}/headers/${token(header[1] ?? header[2] ?? '')}`;
  // An answer that does not fit a named schema: that schema, whichever operations answer it.
  const named = /that do not fit the (\S+) schema/.exec(summary)?.[1];
  if (named !== undefined && named !== 'documented') return `#/components/schemas/${token(named)}`;
  if (/that do not fit|whose body|that are not/.test(summary))
    return `${at}/responses/${key}/content`;
  return `${at}/responses/${key}`;
}

/** The operation whose method and path template the request matches. */
function operationOf(plan: ContractPlan, exchange: Exchange): PlanOperation | undefined {
  const { method, path } = exchange.request;
  // A literal path (`/books/mine`) before a template that also matches (`/books/{id}`).
  const byLiteralness = [...plan.operations].sort(
    (a, b) => a.path.split('{').length - b.path.split('{').length,
  );
  return byLiteralness.find(
    (operation) =>
      operation.method === method &&
      new RegExp(
        `^${operation.path
          .split(/\{[^}]+\}/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}/?$`,
      ).test(path),
  );
}

/** A JSON Pointer reference token (RFC 6901, section 4). */
function token(text: string): string {
  return text.replace(/~/g, '~0').replace(/\//g, '~1');
}
