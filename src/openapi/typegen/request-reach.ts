import { isJsonObject } from '../../vocabulary/record.js';
import { fragmentTokens } from '../json-pointer.js';
import { METHODS, valueAt } from './context.js';

/**
 * The components (`components/<section>/<name>`) a request body or a parameter reaches
 * through its `$ref`s: in them a property with a default stays optional, since a client may
 * leave it out, whatever `defaultNonNullable` says of answers.
 */
export function requestReach(document: Record<string, unknown>): Set<string> {
  const reached = new Set<string>();
  const pending: unknown[] = [];
  const components = isJsonObject(document.components) ? document.components : {};
  for (const section of ['requestBodies', 'parameters'])
    if (isJsonObject(components[section])) pending.push(components[section]);
  const items = [document.paths, document.webhooks, components.pathItems].flatMap((group) =>
    isJsonObject(group) ? Object.values(group) : [],
  );
  for (const item of items) {
    if (!isJsonObject(item)) continue;
    pending.push(item.parameters);
    for (const method of METHODS) {
      const operation = item[method];
      if (isJsonObject(operation)) pending.push(operation.parameters, operation.requestBody);
    }
  }
  // Iterative, as a long chain of schemas would overflow a recursive walk.
  const seen = new Set<object>();
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (isJsonObject(node) && typeof node.$ref === 'string') {
      const segments = fragmentTokens(node.$ref);
      if (segments?.length === 3 && segments[0] === 'components') {
        const name = segments.join('/');
        if (!reached.has(name)) {
          reached.add(name);
          pending.push(valueAt(document, segments));
        }
      } else if (segments) pending.push(valueAt(document, segments));
    }
    pending.push(...(Array.isArray(node) ? node : Object.values(node)));
  }
  return reached;
}
