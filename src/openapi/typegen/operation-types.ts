import type { At, Context } from './context.js';
import { isJsonObject } from '../../vocabulary/record.js';
import { METHODS, componentOf, entriesOf, followed } from './context.js';
import { schemaType } from './schema-type.js';
import type { Member, TypeText } from './text.js';
import { NEVER, UNKNOWN, atom, indexed, objectType } from './text.js';

const LOCATIONS = ['query', 'header', 'path', 'cookie'] as const;

/**
 * Writes the operations that have an `operationId` into `operations` (by that name, once) and
 * says how a path item refers to them.
 */
export interface OperationSink {
  /** The name to index `operations` by, or undefined to write the operation in place. */
  claim(operationId: unknown): string | undefined;
  add(name: string, type: TypeText, doc: unknown): void;
}

/** A path item: its own parameters, then each method (`?: never` where there is none). */
export function pathItemType(item: unknown, at: At, ctx: Context, sink: OperationSink): TypeText {
  const component = componentType(item, ctx);
  if (component) return component;
  const path = followed(item, at, ctx) ?? {};
  const own = Array.isArray(path.parameters) ? path.parameters : [];
  const members: Member[] = [
    {
      name: 'parameters',
      type: parametersType(own, { ...at, path: [...at.path, 'parameters'] }, ctx),
    },
  ];
  // OpenAPI 3.2's `query` is written where a path item has one, so 3.1 documents' types stay as they were.
  for (const method of path.query === undefined ? METHODS : [...METHODS, 'query']) {
    const operation = followed(path[method], at, ctx);
    if (!operation || (ctx.options.excludeDeprecated && operation.deprecated === true)) {
      members.push({ name: method, type: NEVER, optional: true, readonly: ctx.options.immutable });
      continue;
    }
    const operationAt = { ...at, path: [...at.path, method] };
    const merged = mergedParameters(own, operation.parameters, operationAt, ctx);
    const type = operationType({ ...operation, parameters: merged }, operationAt, ctx);
    const name = sink.claim(operation.operationId);
    if (name !== undefined) sink.add(name, type, operation);
    members.push({
      name: method,
      type: name === undefined ? type : indexed('operations', name),
      readonly: ctx.options.immutable,
      doc: operation,
    });
  }
  return objectType(members);
}

/** The path item's parameters, then the operation's, one per place and name (the last wins). */
function mergedParameters(own: unknown[], operations: unknown, at: At, ctx: Context): unknown[] {
  const keyed = new Map<string, unknown>();
  for (const parameter of [...own, ...(Array.isArray(operations) ? operations : [])]) {
    const read = followed(parameter, at, ctx);
    keyed.set(read ? `${String(read.in)}-${String(read.name)}` : String(keyed.size), parameter);
  }
  return [...keyed.values()];
}

/** An operation: `parameters`, `requestBody` and `responses`, as openapi-fetch reads them. */
function operationType(operation: Record<string, unknown>, at: At, ctx: Context): TypeText {
  const request = { ...at, request: true };
  const readonly = ctx.options.immutable;
  const members: Member[] = [
    {
      name: 'parameters',
      type: parametersType(
        operation.parameters,
        { ...request, path: [...at.path, 'parameters'] },
        ctx,
      ),
      readonly,
    },
  ];
  const body = operation.requestBody;
  if (body === undefined)
    members.push({ name: 'requestBody', type: NEVER, optional: true, readonly });
  else {
    const bodyAt = { ...request, path: [...at.path, 'requestBody'] };
    members.push({
      name: 'requestBody',
      type: requestBodyType(body, bodyAt, ctx),
      optional: followed(body, bodyAt, ctx)?.required !== true,
      readonly,
      doc: body,
    });
  }
  members.push({
    name: 'responses',
    type: responsesType(
      operation.responses,
      { ...at, request: false, path: [...at.path, 'responses'] },
      ctx,
    ),
    readonly,
  });
  return objectType(members);
}

/** `{ query, header, path, cookie }`: each `?` when all its parameters are. */
function parametersType(parameters: unknown, at: At, ctx: Context): TypeText {
  const list = (Array.isArray(parameters) ? parameters : []).map((parameter, i) => ({
    written: parameter,
    read: followed(parameter, { ...at, path: [...at.path, String(i)] }, ctx),
    at: { ...at, request: true, path: [...at.path, String(i)] },
  }));
  if (ctx.options.alphabetize)
    list.sort((a, b) => String(a.read?.name ?? '').localeCompare(String(b.read?.name ?? '')));
  const members: Member[] = LOCATIONS.map((location) => {
    const inPlace: Member[] = list.flatMap(({ written, read, at: parameterAt }) =>
      read?.in === location && typeof read.name === 'string' && !leftOut(read, ctx)
        ? [
            {
              name: read.name,
              type: componentType(written, ctx) ?? parameterType(read, parameterAt, ctx),
              optional: location !== 'path' && read.required !== true,
              readonly: ctx.options.immutable,
              doc: read,
            },
          ]
        : [],
    );
    return {
      name: location,
      type: inPlace.length > 0 ? objectType(inPlace) : NEVER,
      optional: inPlace.every((member) => member.optional),
      readonly: ctx.options.immutable,
    };
  });
  return objectType(members);
}

/** A parameter's value: its schema, or its one media type's. */
export function parameterType(parameter: Record<string, unknown>, at: At, ctx: Context): TypeText {
  if ('schema' in parameter)
    return schemaType(parameter.schema, { ...at, path: [...at.path, 'schema'] }, ctx);
  const [media] = entriesOf(parameter.content, ctx);
  if (media && isJsonObject(media[1]))
    return schemaType(
      media[1].schema,
      { ...at, path: [...at.path, 'content', media[0], 'schema'] },
      ctx,
    );
  return atom('string');
}

/** `{ content: { <media type>: T } }`. */
export function requestBodyType(body: unknown, at: At, ctx: Context): TypeText {
  const component = componentType(body, ctx);
  if (component) return component;
  const read = followed(body, at, ctx) ?? {};
  const content = contentMembers(read.content, at, ctx);
  return objectType([
    {
      name: 'content',
      type: objectType(
        content.length > 0 ? content : [{ name: '*/*', type: NEVER, optional: true }],
      ),
      readonly: ctx.options.immutable,
    },
  ]);
}

function contentMembers(content: unknown, at: At, ctx: Context): Member[] {
  return entriesOf(content, ctx).map(([media, object]) => {
    const mediaAt = { ...at, path: [...at.path, 'content', media] };
    const read = followed(object, mediaAt, ctx);
    return {
      name: media,
      // A stream's (3.2 `itemSchema`): the type of one item, as a 3.1 `schema` of
      // `text/event-stream` is written.
      type:
        read && 'schema' in read
          ? schemaType(read.schema, { ...mediaAt, path: [...mediaAt.path, 'schema'] }, ctx)
          : read && 'itemSchema' in read
            ? schemaType(
                read.itemSchema,
                { ...mediaAt, path: [...mediaAt.path, 'itemSchema'] },
                ctx,
              )
            : UNKNOWN,
      readonly: ctx.options.immutable,
      doc: read,
    };
  });
}

/** `{ 200: {...}; default: {...} }`, by status. */
function responsesType(responses: unknown, at: At, ctx: Context): TypeText {
  const members: Member[] = entriesOf(responses, ctx).map(([status, response]) => ({
    name: status,
    type: responseType(response, { ...at, path: [...at.path, status] }, ctx),
    readonly: ctx.options.immutable,
    doc: followed(response, { ...at, path: [...at.path, status] }, ctx),
  }));
  return members.length > 0 ? objectType(members) : NEVER;
}

/** One answer: its headers (any other allowed), and its content by media type. */
export function responseType(response: unknown, at: At, ctx: Context): TypeText {
  const component = componentType(response, ctx);
  if (component) return component;
  const read = followed(response, at, ctx) ?? {};
  const headers: Member[] = entriesOf(read.headers, ctx).map(([name, header]) => {
    const headerAt = { ...at, path: [...at.path, 'headers', name] };
    const referenced = isJsonObject(header) && typeof header.$ref === 'string';
    const object = followed(header, headerAt, ctx);
    return {
      name,
      type: componentType(header, ctx) ?? headerType(object, headerAt, ctx),
      optional: !referenced && object?.required !== true,
      readonly: ctx.options.immutable,
      doc: object,
    };
  });
  const modifier = ctx.options.immutable ? 'readonly ' : '';
  const content = contentMembers(read.content, at, ctx);
  return objectType([
    { name: 'headers', type: objectType(headers, [`${modifier}[name: string]: unknown;`]) },
    content.length > 0
      ? { name: 'content', type: objectType(content) }
      : { name: 'content', type: NEVER, optional: true },
  ]);
}

/** A header's value: its schema, or its media type's. */
export function headerType(
  header: Record<string, unknown> | undefined,
  at: At,
  ctx: Context,
): TypeText {
  if (!header) return UNKNOWN;
  if ('schema' in header)
    return schemaType(header.schema, { ...at, path: [...at.path, 'schema'] }, ctx);
  const content = contentMembers(header.content, at, ctx);
  return content.length > 0 ? objectType(content) : UNKNOWN;
}

/** `components["<section>"]["<name>"]` for a `$ref` object naming a component, else undefined. */
function componentType(value: unknown, ctx: Context): TypeText | undefined {
  if (!isJsonObject(value) || typeof value.$ref !== 'string') return undefined;
  const component = componentOf(value.$ref, ctx);
  return component && indexed('components', component.section, component.name);
}

/** A deprecated parameter, when the options leave them out. */
function leftOut(parameter: Record<string, unknown>, ctx: Context): boolean {
  if (!ctx.options.excludeDeprecated) return false;
  const schema = parameter.schema;
  return parameter.deprecated === true || (isJsonObject(schema) && schema.deprecated === true);
}
