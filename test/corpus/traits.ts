// What a description exercises, as short tags: found in the document, never typed by hand.
import { findCollections, listShapeOf, propertiesOf } from './collections.js';
import { isObject, type Json, type JsonObject, type LoadedDocument } from './document.js';
import {
  operationsOf,
  securitySchemesOf,
  successOf,
  type ApiOperation,
  type ApiSecurityScheme,
} from './operations.js';

/** Every trait this module can report, with what it means (for the corpus README). */
export const TRAIT_MEANINGS: Readonly<Record<string, string>> = {
  'apiKey-header': 'an API key sent in a header',
  'apiKey-query': 'an API key sent in the query string',
  'apiKey-cookie': 'an API key sent in a cookie',
  basic: 'HTTP basic authentication',
  bearer: 'HTTP bearer tokens',
  'http-other': 'another HTTP authentication scheme (digest...)',
  oauth2: 'OAuth 2 flows',
  openIdConnect: 'OpenID Connect discovery',
  mutualTLS: 'mutual TLS',
  'security-none': 'operations that need no credentials (no scheme, or an empty requirement)',
  'security-alternatives': 'an operation accepting one of several schemes',
  'security-combined': 'an operation needing two schemes at once',
  'plain-list': 'a list answered as a bare JSON array',
  'wrapped-list': 'a list answered inside an object (`{data: [...]}`, `{items: [...], total}`)',
  'nested-collections': 'collections under an item of another (`/users/{id}/posts`)',
  'non-id-item-param': 'an item path parameter not named like an id (`{username}`, `{slug}`)',
  'suffixed-path': 'a path parameter with a suffix in its segment (`/Calls/{Sid}.json`)',
  'form-body': 'application/x-www-form-urlencoded request bodies',
  multipart: 'multipart/form-data request bodies',
  'binary-body': 'raw binary (octet-stream, images...) request bodies',
  xml: 'XML request or response bodies',
  'merge-patch': 'JSON Merge Patch or JSON Patch bodies',
  'problem-details': 'RFC 7807/9457 Problem Details errors (media type or schema shape)',
  deepObject: 'deepObject-style query parameters (`filter[name]=x`)',
  'cookie-param': 'a cookie parameter (besides security)',
  recursive: 'a schema that refers to itself',
  'external-ref': '`$ref`s into other files (a multi-file description)',
  polymorphism: 'oneOf / anyOf / discriminator schemas',
  callbacks: 'OpenAPI callbacks',
  webhooks: 'OpenAPI 3.1 webhooks',
  'server-variables': 'server URLs with variables',
  'utf8-bom': 'the file starts with a UTF-8 byte order mark',
};

/** The traits of a loaded description, sorted. */
export function traitsOf(loaded: LoadedDocument): string[] {
  const document = loaded.resolved;
  const operations = operationsOf(document);
  const traits = new Set<string>([
    ...securityTraits(securitySchemesOf(document), operations),
    ...shapeTraits(operations),
    ...bodyTraits(operations),
    ...parameterTraits(operations),
  ]);
  if (loaded.circular) traits.add('recursive');
  if (loaded.files.length > 1) traits.add('external-ref');
  if (loaded.bom) traits.add('utf8-bom');
  if (containsKey(document, ['oneOf', 'anyOf', 'discriminator'])) traits.add('polymorphism');
  if (operations.some((operation) => hasCallbacks(document, operation))) traits.add('callbacks');
  if (isObject(document.webhooks) && Object.keys(document.webhooks).length > 0)
    traits.add('webhooks');
  const servers = Array.isArray(document.servers) ? document.servers.filter(isObject) : [];
  if (servers.some((server) => isObject(server.variables))) traits.add('server-variables');
  return [...traits].sort();
}

function securityTraits(schemes: ApiSecurityScheme[], operations: ApiOperation[]): string[] {
  const traits: string[] = [];
  const used = new Set(operations.flatMap((operation) => operation.security.flat()));
  for (const scheme of schemes) {
    if (!used.has(scheme.name) && used.size > 0) continue;
    if (scheme.type === 'apiKey') traits.push(`apiKey-${scheme.in ?? 'header'}`);
    else if (scheme.type === 'http')
      traits.push(
        scheme.scheme === 'basic' || scheme.scheme === 'bearer' ? scheme.scheme : 'http-other',
      );
    else traits.push(scheme.type);
  }
  if (
    schemes.length === 0 ||
    operations.some(
      (operation) =>
        operation.security.length === 0 ||
        operation.security.some((alternative) => alternative.length === 0),
    )
  )
    traits.push('security-none');
  if (operations.some((operation) => operation.security.filter((a) => a.length > 0).length > 1))
    traits.push('security-alternatives');
  if (
    operations.some((operation) => operation.security.some((alternative) => alternative.length > 1))
  )
    traits.push('security-combined');
  return traits;
}

function shapeTraits(operations: ApiOperation[]): string[] {
  const traits: string[] = [];
  for (const operation of operations) {
    if (operation.method !== 'get' || /\}$/.test(operation.path)) continue;
    const shape = listShapeOf(successOf(operation)?.schema);
    if (shape) traits.push(shape.kind === 'array' ? 'plain-list' : 'wrapped-list');
  }
  if (operations.some((operation) => /\}[^/]/.test(operation.path))) traits.push('suffixed-path');
  for (const collection of findCollections(operations)) {
    if (collection.path.includes('{')) traits.push('nested-collections');
    if (collection.itemParam && !/id$/i.test(collection.itemParam))
      traits.push('non-id-item-param');
  }
  for (const operation of operations) {
    for (const response of operation.responses) {
      if (response.mediaTypes.some((type) => /problem\+(json|xml)/i.test(type)))
        traits.push('problem-details');
      else if (
        /^[45]|default/i.test(response.status) &&
        response.schema &&
        isProblemShape(response.schema)
      )
        traits.push('problem-details');
      if (response.mediaTypes.some((type) => /[/+]xml/i.test(type))) traits.push('xml');
    }
  }
  return traits;
}

/** An object with Problem Details' `title` and `status`, and `type` or `detail`. */
function isProblemShape(schema: JsonObject): boolean {
  const names = new Set(Object.keys(propertiesOf(schema)));
  return names.has('title') && names.has('status') && (names.has('type') || names.has('detail'));
}

function bodyTraits(operations: ApiOperation[]): string[] {
  const traits: string[] = [];
  for (const body of operations.flatMap((operation) => operation.bodies)) {
    if (/x-www-form-urlencoded/i.test(body.mediaType)) traits.push('form-body');
    else if (/multipart\/form-data/i.test(body.mediaType)) traits.push('multipart');
    else if (/octet-stream|^image\/|^audio\/|^video\//i.test(body.mediaType))
      traits.push('binary-body');
    else if (/[/+]xml/i.test(body.mediaType)) traits.push('xml');
    else if (/merge-patch|json-patch/i.test(body.mediaType)) traits.push('merge-patch');
  }
  return traits;
}

function parameterTraits(operations: ApiOperation[]): string[] {
  const traits: string[] = [];
  for (const parameter of operations.flatMap((operation) => operation.parameters)) {
    if (parameter.style === 'deepObject') traits.push('deepObject');
    if (parameter.in === 'cookie') traits.push('cookie-param');
  }
  return traits;
}

function hasCallbacks(document: JsonObject, operation: ApiOperation): boolean {
  const paths = isObject(document.paths) ? document.paths : {};
  const item = paths[operation.path];
  const raw = isObject(item) ? item[operation.method] : undefined;
  return isObject(raw) && isObject(raw.callbacks) && Object.keys(raw.callbacks).length > 0;
}

/** Whether any object in the tree has one of these keys (a visited set guards shared nodes). */
function containsKey(root: Json, keys: readonly string[]): boolean {
  const seen = new Set<object>();
  const stack: Json[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) stack.push(...node);
    else {
      if (keys.some((key) => key in node)) return true;
      stack.push(...Object.values(node));
    }
  }
  return false;
}
