import type { Kit } from '../kit.js';
import { essenceOf } from '../../src/openapi/media-types.js';
import { type PlanItems, type PlanOperation } from '../plan.js';
import { notJudgedIfRefused } from '../refusals.js';
import type { Rule } from '../rule.js';
import { schemaName } from '../spec.js';
import { checkedValues, streamReader, type EventFraming } from '../../src/openapi/stream-events.js';

/** The most events of one stream read: a stream may never end (a feed), so the read is bounded. */
const STREAM_EVENTS_READ = 50;
/** The longest a stream is read, below the run's timeout (`--timeout`) when that is shorter. */
const STREAM_MS = 5000;

const FRAMINGS: Readonly<Record<string, EventFraming>> = {
  'text/event-stream': 'sse',
  'application/jsonl': 'jsonl',
  'application/x-ndjson': 'jsonl',
  'application/x-jsonlines': 'jsonl',
  'application/json-seq': 'json-seq',
};

/**
 * Every operation that documents a streamed answer (Server-Sent Events, JSON Lines / NDJSON,
 * JSON text sequences), asked for it with the documented `Accept`, streams it: its status and
 * media type as documented, each item framed as its media type says and fitting its item schema
 * (3.2's `itemSchema`, else the media type's `schema` read as one item), and a stream that ends
 * does so between items. A stream is read for at most STREAM_EVENTS_READ events or STREAM_MS;
 * the rule says when it stopped before the end. Reads without path parameters, as the answer
 * rules call them, and creates that stream their answer (a chat completion): sent a valid JSON
 * body, its boolean `stream` set, where the body has one; a documented refusal of that composed
 * body is not judged.
 */
export function streamRules(kit: Kit): Rule[] {
  const rules: Rule[] = [];
  for (const operation of kit.plan.operations) {
    const reads = operation.method === 'get';
    const json = jsonBodyOf(operation);
    if (!reads && (operation.method !== 'post' || json === undefined)) continue;
    if (operation.parameters.some((parameter) => parameter.in === 'path')) continue;
    const streamed = streamedAnswer(operation);
    if (!streamed) continue;
    const { type, framing, items } = streamed;
    const success = kit.success(operation);
    rules.push({
      name: kit.name(
        operation,
        undefined,
        `streams ${type} when asked for it: every event framed as it says and fitting ${schemaName(items.schema)}`,
      ),
      createsData: !reads,
      async check(ctx) {
        let body: string | undefined;
        if (!reads) {
          const value = kit.validBody(operation, 'a streamed answer');
          if (json?.properties?.stream?.type === 'boolean') value.stream = true;
          body = JSON.stringify(value);
        }
        const reader = streamReader(framing);
        const ms = Math.min(STREAM_MS, Math.max(100, ctx.target.timeoutMs - 1000));
        const problems: string[] = [];
        const judge = (found: ReturnType<typeof reader.push>) => {
          for (const item of found) {
            if (item.kind === 'malformed') {
              problems.push(`event ${item.index}: ${item.message}`);
              continue;
            }
            const values = checkedValues(item, framing, items.itemSchema);
            let reasons: string[] = [];
            for (const value of values) {
              reasons = kit.spec.validate(items.schema, value, 'response');
              if (reasons.length === 0) break;
            }
            for (const reason of reasons) problems.push(`event ${item.index}: ${reason}`);
          }
        };
        const exchange = await kit.call(ctx, operation, {
          accept: type,
          ...(body === undefined ? {} : { body }),
          stream: {
            ms,
            onChunk(chunk) {
              judge(reader.push(chunk));
              return reader.count >= STREAM_EVENTS_READ;
            },
          },
        });
        if (body !== undefined) notJudgedIfRefused(operation, exchange, success);
        kit.conforms(ctx, exchange, operation, success);
        if (exchange.status >= 300) return;
        if (exchange.ended === 'end') judge(reader.end());
        if (problems.length > 0)
          kit.fail(
            `${exchange.status} streams events that break their framing or ${schemaName(items.schema)}`,
            problems.slice(0, 10),
            exchange,
          );
        if (reader.count === 0 && exchange.ended === 'end')
          ctx.advise(
            `${operation.operationId} streamed no event at all: nothing of it was checked`,
          );
        if (exchange.ended !== 'end')
          ctx.advise(
            `${operation.operationId}: read ${reader.count} events of its stream, then stopped (${exchange.ended === 'time' ? `after ${ms} ms` : `after ${STREAM_EVENTS_READ} events`}); its end was not checked`,
          );
      },
    });
  }
  return rules;
}

/** The first streamed media type an operation's success answer documents, with its items. */
function streamedAnswer(
  operation: PlanOperation,
): { type: string; framing: EventFraming; items: PlanItems } | undefined {
  for (const [status, response] of Object.entries(operation.responses)) {
    if (!/^2/.test(status)) continue;
    for (const [type, items] of Object.entries(response.items ?? {})) {
      const framing = FRAMINGS[essenceOf(type)];
      if (framing) return { type, framing, items };
    }
  }
  return undefined;
}

/** The JSON schema of an operation's request body, if it takes JSON. */
function jsonBodyOf(
  operation: PlanOperation,
): { properties?: Record<string, { type?: unknown }> } | undefined {
  const content = operation.requestBody?.content ?? {};
  const type = Object.keys(content).find((name) => /json/i.test(essenceOf(name)));
  return type === undefined
    ? undefined
    : (content[type] as { properties?: Record<string, { type?: unknown }> });
}
