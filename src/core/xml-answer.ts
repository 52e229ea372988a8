// An answer in XML for a client that prefers it, where the spec documents XML for that answer
// (the Pet Store answers `application/xml` and `application/json` alike): the checked JSON
// answer written as the XML the response's schema describes. Errors stay in the spec's error
// shape, JSON.
import Negotiator from 'negotiator';
import type { SchemaObject } from '../openapi/load.js';
import { isJsonMediaType, isXmlMediaType } from '../openapi/media-types.js';
import { responseFor, type Operation } from '../openapi/operations.js';
import { CheckedJson, CheckedList, type CheckedAnswer } from '../vocabulary/answer.js';
import type { MockRequest } from '../vocabulary/request.js';
import { headerValue } from './headers.js';
import { writeXml } from './xml-body.js';

/**
 * Answers larger than this stay JSON: written again as XML in one go, they would hold the
 * process for longer than a turn may (a client that asks for XML of a 100,000-record list
 * gets it as JSON, which it accepts through a wildcard or not at all).
 */
const MOST_XML_BYTES = 4 * 1024 * 1024;

/**
 * The answer as XML when the request's `Accept` prefers the XML media type the spec documents
 * for it over its JSON one; otherwise the answer as it is.
 * @param nameOf the name of a schema of the document's components (the root element of a
 * schema whose `xml` object names none).
 * @example inXml(request, getPetById, answer) // { status: 200, headers: { 'Content-Type': 'application/xml; charset=utf-8' }, body }
 */
export function createXmlAnswers(
  nameOf: (schema: SchemaObject) => string | undefined,
): (request: MockRequest, operation: Operation, answer: CheckedAnswer) => CheckedAnswer {
  return function inXml(request, operation, answer) {
    const { body } = answer;
    if (body === undefined) return answer;
    const accept = headerValue(request, 'accept');
    // Most clients never ask for XML: one look at the header before anything else.
    if (accept === undefined || !accept.includes('xml')) return answer;
    const content = responseFor(operation, answer.status)?.response.content ?? {};
    const types = Object.keys(content);
    const xmlType = types.find(isXmlMediaType);
    if (xmlType === undefined) return answer;
    const offered = [types.find(isJsonMediaType) ?? 'application/json', xmlType];
    if (new Negotiator({ headers: { accept } }).mediaType(offered) !== xmlType) return answer;
    const bytes = body instanceof CheckedList ? body.length : body.bytes.length;
    if (bytes > MOST_XML_BYTES) return answer;
    const json = body instanceof CheckedList ? body.joined() : body.bytes;
    const schema = (content[xmlType]?.schema ?? {}) as SchemaObject;
    const xml = writeXml(
      JSON.parse(json.toString('utf8')),
      schema,
      nameOf(schema) ?? 'response',
      nameOf,
    );
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers))
      if (name.toLowerCase() !== 'content-type') headers[name] = value;
    headers['Content-Type'] = `${xmlType}; charset=utf-8`;
    return { ...answer, headers, body: new CheckedJson(Buffer.from(xml)) };
  };
}
