// Recorded traffic judged against the description, exchange by exchange, with the judge the
// validating proxy applies live: what `petstore-kit traffic` reports.
import { coverageOf, schemesSent, type Coverage } from '../../openapi/coverage-table.js';
import { listOperations, type Operation } from '../../openapi/operations.js';
import type { OpenApiDocument } from '../../openapi/load.js';
import { securitySchemesOf, type SecurityScheme } from '../../openapi/security-schemes.js';
import { credentialPartsOf } from '../admin/coverage.js';
import { REDACTED } from '../admin/redact.js';
import { judgeExchange, type JudgeReading } from '../proxy/judge.js';
import type { Breach } from '../proxy/request-rules.js';
import { apiTargetOf, exchangeOf, isPreflight, type HarEntry } from './har.js';

/** Whose the problem of an exchange is. */
type TrafficSide =
  /** The answer breaks the description: the server's. */
  | 'answer'
  /** A request the description forbids got a 2xx: the server accepted what it must refuse. */
  | 'accepted'
  /** A request the description forbids, refused: the client's, not the server's. */
  | 'client';

/** One exchange of the recording that breaks the description. */
export interface TrafficFinding {
  /** Its index among the recording's entries. */
  index: number;
  method: string;
  url: string;
  status: number;
  operation?: string;
  side: TrafficSide;
  breaches: Breach[];
}

export interface TrafficReport {
  /** The exchanges judged: those to the API the description describes. */
  judged: number;
  /** Exchanges left aside, by why: another origin or path, a CORS preflight, no answer. */
  aside: Record<string, number>;
  /** What the server did wrong (`answer`, `accepted`), then what clients sent wrong (`client`). */
  findings: TrafficFinding[];
  /** What requests held that the description does not describe but does not forbid. */
  advisories: TrafficFinding[];
  coverage: Coverage;
}

export interface TrafficScope {
  /**
   * The API's URL as the recording reached it, base path included
   * (`https://staging.example.com/v1`): only exchanges under it are judged.
   * @default every exchange whose path is under the description's base path
   */
  baseUrl?: URL;
}

/**
 * Judges every exchange of a recording that went to the described API.
 * @example await judgeTraffic(document, reading, readHar(text), {}) // { judged: 12, findings: [], ... }
 */
export async function judgeTraffic(
  document: OpenApiDocument,
  reading: JudgeReading & { basePath: string },
  entries: readonly HarEntry[],
  scope: TrafficScope = {},
): Promise<TrafficReport> {
  const operations = listOperations(document);
  let schemes: ReadonlyMap<string, SecurityScheme> = new Map();
  try {
    schemes = securitySchemesOf(document);
  } catch {
    // A scheme the mock cannot read: the table counts the statuses alone.
  }
  const hits = new Map<
    string,
    { statuses: Map<string, number>; schemes: Map<string, Map<string, number>> }
  >();
  const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  const aside: Record<string, number> = {};
  const setAside = (why: string) => (aside[why] = (aside[why] ?? 0) + 1);
  const findings: TrafficFinding[] = [];
  const advisories: TrafficFinding[] = [];
  let judged = 0;

  for (const [index, entry] of entries.entries()) {
    const exchange = exchangeOf(entry, index);
    const target = apiTargetOf(exchange.url, reading.basePath, scope.baseUrl);
    if (target === undefined) {
      setAside('outside the API');
      continue;
    }
    if (isPreflight(exchange)) {
      setAside('CORS preflight');
      continue;
    }
    if (exchange.answer.status === 0) {
      setAside('no answer (failed or blocked)');
      continue;
    }
    const request = unredacted({ ...exchange.request, target });
    const verdict = await judgeExchange(reading, { request, answer: exchange.answer });
    // An unknown path under a root base path is a page's asset, not an API call.
    if (!verdict.operation && !scope.baseUrl && reading.basePath === '') {
      setAside('outside the API');
      continue;
    }
    judged++;
    const status = exchange.answer.status;
    const about = {
      index,
      method: request.method,
      url: exchange.url.href,
      status,
      ...(verdict.operation ? { operation: verdict.operation.operationId } : {}),
    };
    if (verdict.answer.length > 0)
      findings.push({ ...about, side: 'answer', breaches: verdict.answer });
    if (verdict.request.length > 0)
      findings.push({
        ...about,
        side: status >= 200 && status < 300 ? 'accepted' : 'client',
        breaches: verdict.request,
      });
    if (verdict.advisories.length > 0)
      advisories.push({ ...about, side: 'client', breaches: verdict.advisories });
    if (verdict.operation) tally(verdict.operation, request, status);
  }

  function tally(
    operation: Operation,
    request: { target: string; headers: Record<string, unknown> },
    status: number,
  ) {
    let seen = hits.get(operation.operationId);
    if (!seen)
      hits.set(operation.operationId, (seen = { statuses: new Map(), schemes: new Map() }));
    count(seen.statuses, String(status));
    if (schemes.size === 0) return;
    const q = request.target.indexOf('?');
    const parts = credentialPartsOf(
      { method: 'GET', target: request.target, headers: request.headers as Record<string, string> },
      q === -1 ? '' : request.target.slice(q + 1),
    );
    const scheme = schemesSent(parts, schemes);
    let byScheme = seen.schemes.get(scheme);
    if (!byScheme) seen.schemes.set(scheme, (byScheme = new Map()));
    count(byScheme, String(status));
  }

  const none = { statuses: new Map(), schemes: new Map() };
  const coverage = coverageOf(
    operations,
    reading.basePath,
    schemes,
    (operation) => hits.get(operation.operationId) ?? none,
  );
  const order: Record<TrafficSide, number> = { answer: 0, accepted: 1, client: 2 };
  findings.sort((a, b) => order[a.side] - order[b.side] || a.index - b.index);
  return { judged, aside, findings, advisories, coverage };
}

/**
 * A request whose credentials a recorder redacted (`Bearer ***`, as the proxy's --har and the
 * request log write them), with a value of a credential's form in their place: a credential was
 * sent there, and its value is the server's to judge, not the recording's.
 */
function unredacted<T extends { target: string; headers: Readonly<Record<string, unknown>> }>(
  request: T,
): T {
  const placeholder = 'redacted';
  const headers: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(request.headers))
    headers[name] = typeof value === 'string' ? value.replaceAll(REDACTED, placeholder) : value;
  const target = request.target
    .replaceAll(encodeURIComponent(REDACTED), placeholder)
    .replaceAll(REDACTED, placeholder);
  return { ...request, headers, target };
}
