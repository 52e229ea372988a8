import type { At, Context, Section } from './context.js';
import { isJsonObject } from '../../vocabulary/record.js';
import { HELPERS, METHODS, SECTIONS, entriesOf, followed } from './context.js';
import type { OperationSink } from './operation-types.js';
import {
  headerType,
  parameterType,
  pathItemType,
  requestBodyType,
  responseType,
} from './operation-types.js';
import type { TypeOptions } from './options.js';
import { requestReach } from './request-reach.js';
import { schemaType } from './schema-type.js';
import type { Member, TypeText } from './text.js';
import { NEVER, indexed, objectType } from './text.js';

/** The two readings of a document the generator needs (both of `loadSpec`'s result). */
export interface TypeSource {
  /** OpenAPI 3.1, `$ref`s kept. */
  readonly document: object;
  /** Every `$ref` replaced: where a `$ref` to another file is read. */
  readonly resolved: object;
}

/**
 * The TypeScript module of a document's types, as openapi-typescript 7 writes it: `paths`,
 * `webhooks`, `components`, `$defs` and `operations`, for openapi-fetch or a typed client.
 * Written as text, with no compiler: any TypeScript (5 or 7) reads it.
 * @example typesModule(await loadSpec('openapi.yaml'), typeOptions()) // 'export interface paths {...'
 */
export function typesModule(source: TypeSource, options: TypeOptions): string {
  const document = source.document as Record<string, unknown>;
  const ctx: Context = {
    document,
    resolved: source.resolved as Record<string, unknown>,
    options,
    requestReach: requestReach(document),
    open: new Set(),
    helpers: new Set(),
  };
  const operations: Member[] = [];
  const sink = operationSink(operations, ctx);
  const declarations = [
    root('paths', pathsType(document.paths, ['paths'], ctx, sink), ctx),
    root('webhooks', pathsType(document.webhooks, ['webhooks'], ctx, sink), ctx),
    root('components', componentsType(ctx, sink), ctx),
    root('$defs', defsType(document.$defs, ctx), ctx),
    root('operations', objectType(operations), ctx),
  ];
  if (options.rootTypes) declarations.push(...rootTypes(ctx));
  for (const helper of ctx.helpers) declarations.push(HELPERS[helper]);
  return `${declarations.join('\n')}\n`;
}

/** `export interface name {...}`, or a type alias (for none, or when the options say so). */
function root(name: string, type: TypeText, ctx: Context): string {
  if (type.text === 'never') return `export type ${name} = Record<string, never>;`;
  if (ctx.options.exportType || !type.text.startsWith('{'))
    return `export type ${name} = ${type.text};`;
  return `export interface ${name} ${type.text}`;
}

/** Each operation with an `operationId` once in `operations`; a repeated one in place. */
function operationSink(operations: Member[], ctx: Context): OperationSink {
  const claimed = new Set<string>();
  return {
    claim(operationId) {
      if (typeof operationId !== 'string' || operationId === '') return undefined;
      const name = operationId.replace(/#/g, '/');
      if (claimed.has(name)) return undefined;
      claimed.add(name);
      return name;
    },
    add(name, type, doc) {
      operations.push({ name, type, readonly: ctx.options.immutable, doc });
    },
  };
}

function pathsType(paths: unknown, path: string[], ctx: Context, sink: OperationSink): TypeText {
  const at: At = { path, request: false };
  const members: Member[] = [];
  const templated: string[] = [];
  for (const [url, item] of entriesOf(paths, ctx)) {
    if (!isJsonObject(item)) continue;
    const type = pathItemType(item, { ...at, path: [...path, url] }, ctx, sink);
    const pattern =
      ctx.options.pathParamsAsTypes && url.includes('{') ? urlPattern(url, item, ctx) : undefined;
    if (pattern)
      templated.push(
        `${ctx.options.immutable ? 'readonly ' : ''}[path: ${pattern}]: ${type.text};`,
      );
    else members.push({ name: url, type, readonly: ctx.options.immutable, doc: item });
  }
  return members.length + templated.length > 0 ? objectType(members, templated) : NEVER;
}

/** `/pets/{id}` as a template literal type, `${number}` for a numeric parameter. */
function urlPattern(url: string, item: Record<string, unknown>, ctx: Context): string {
  const kinds = new Map<string, string>();
  const at: At = { path: [], request: true };
  const parameters = [
    item.parameters,
    ...METHODS.map((m) => followed(item[m], at, ctx)?.parameters),
  ];
  for (const list of parameters)
    for (const parameter of Array.isArray(list) ? list : []) {
      const read = followed(parameter, at, ctx);
      const schema = read && followed(read.schema, at, ctx);
      if (read?.in === 'path' && typeof read.name === 'string')
        kinds.set(
          read.name,
          schema?.type === 'integer' || schema?.type === 'number'
            ? 'number'
            : schema?.type === 'boolean'
              ? 'boolean'
              : 'string',
        );
    }
  const body = url
    .replace(/[`\\]/g, (c) => `\\${c}`)
    .replace(/\$(?=\{)/g, '\\$')
    .replace(/\{([^}]+)\}/g, (_, name: string) => `\${${kinds.get(name) ?? 'string'}}`);
  return `\`${body}\``;
}

/** `components`: every section, `never` for an empty one. */
function componentsType(ctx: Context, sink: OperationSink): TypeText {
  const components = isJsonObject(ctx.document.components) ? ctx.document.components : {};
  const members: Member[] = SECTIONS.map((section) => {
    const entries = entriesOf(components[section], ctx).map(([name, value]) => {
      const at: At = {
        path: ['components', section, name],
        request:
          section === 'requestBodies' ||
          section === 'parameters' ||
          ctx.requestReach.has(`components/${section}/${name}`),
      };
      return {
        name,
        type: componentType(section, value, at, ctx, sink),
        readonly: ctx.options.immutable,
        doc: followed(value, at, ctx),
      };
    });
    return { name: section, type: entries.length > 0 ? objectType(entries) : NEVER };
  });
  return objectType(members);
}

function componentType(
  section: Section,
  value: unknown,
  at: At,
  ctx: Context,
  sink: OperationSink,
): TypeText {
  switch (section) {
    case 'schemas':
      return schemaType(value, at, ctx);
    case 'responses':
      return responseType(value, at, ctx);
    case 'parameters': {
      const read = followed(value, at, ctx);
      return read ? parameterType(read, at, ctx) : NEVER;
    }
    case 'requestBodies':
      return requestBodyType(value, at, ctx);
    case 'headers':
      return headerType(followed(value, at, ctx), at, ctx);
    case 'pathItems':
      return pathItemType(value, at, ctx, sink);
  }
}

function defsType(defs: unknown, ctx: Context): TypeText {
  const members = entriesOf(defs, ctx).map(([name, schema]) => ({
    name,
    type: schemaType(schema, { path: ['$defs', name], request: false }, ctx),
    doc: schema,
  }));
  return members.length > 0 ? objectType(members) : NEVER;
}

/** `export type SchemaPet = components['schemas']['Pet'];` for each component. */
function rootTypes(ctx: Context): string[] {
  const components = isJsonObject(ctx.document.components) ? ctx.document.components : {};
  const taken = new Set(['paths', 'webhooks', 'components', 'operations', '$defs']);
  const lines: string[] = [];
  for (const section of SECTIONS) {
    const prefix = section === 'requestBodies' ? 'RequestBody' : pascal(section.slice(0, -1));
    for (const [name] of entriesOf(components[section], ctx)) {
      const alias = `${prefix}${pascal(name)}`;
      if (taken.has(alias)) continue;
      taken.add(alias);
      lines.push(`export type ${alias} = ${indexed('components', section, name).text};`);
    }
  }
  return lines;
}

function pascal(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}
