// Bodies in XML as OpenAPI's `xml` object shapes them (element and attribute names, wrapped
// and unwrapped arrays), read into the value the schema describes, its texts converted to the
// schema's types, and written from one. Parsing and escaping are fast-xml-parser's; which
// element holds which property is the spec's, read here.
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import type { SchemaObject } from '../openapi/load.js';
import { propertiesOf, typesOf } from '../openapi/schema-parts.js';
import { isJsonObject } from '../vocabulary/record.js';

/** What the parser puts before an attribute's name, beside the element's children. */
const ATTRIBUTE = '@_';
/** Deeper than this, a value is read and written as it is (the checks judge it). */
const MAX_DEPTH = 64;

/** OpenAPI's XML object, as far as names go. */
interface XmlNames {
  name?: string;
  attribute?: boolean;
  wrapped?: boolean;
}

/** A schema's `xml` object, from itself or an `allOf` part (composed records keep it there). */
function xmlOf(schema: SchemaObject): XmlNames {
  for (const part of [schema, ...((schema.allOf ?? []) as SchemaObject[])]) {
    const xml = (part as { xml?: unknown }).xml;
    if (isJsonObject(xml)) return xml as XmlNames;
  }
  return {};
}

function itemsOf(schema: SchemaObject): SchemaObject | undefined {
  for (const part of [schema, ...((schema.allOf ?? []) as SchemaObject[])]) {
    const items = (part as { items?: unknown }).items;
    if (isJsonObject(items)) return items as SchemaObject;
  }
  return undefined;
}

function isArraySchema(schema: SchemaObject): boolean {
  return typesOf(schema).includes('array') || itemsOf(schema) !== undefined;
}

function isObjectSchema(schema: SchemaObject): boolean {
  return typesOf(schema).includes('object') || Object.keys(propertiesOf(schema)).length > 0;
}

const asList = (node: unknown): unknown[] =>
  node === undefined ? [] : Array.isArray(node) ? node : [node];

/** The element name of an array's items: theirs, else the property's (OpenAPI 3, XML Object). */
function itemName(array: SchemaObject, property: string): string {
  return xmlOf(itemsOf(array) ?? {}).name ?? property;
}

/**
 * Whether a schema describes the structure of an XML body (an object or an array), and not the
 * document as one text or as bytes (`type: string`, or no schema), which is kept as it came.
 */
export function describesXmlStructure(schema: SchemaObject): boolean {
  return isObjectSchema(schema) || isArraySchema(schema);
}

/**
 * Reads an XML body as the value `schema` describes: the root element's children and
 * attributes by the names the `xml` objects give, texts as the schema's numbers and booleans
 * where they read as such (otherwise left as text, for the check to refuse). The root element's
 * own name is not judged.
 * @example readXml('<planet><name>Mars</name></planet>', planet) // { value: { name: 'Mars' }, problems: [] }
 */
export function readXml(
  text: string,
  schema: SchemaObject,
): { value: unknown; problems: string[] } {
  // A document type may declare entities that expand without bound: an API takes none.
  if (/<!DOCTYPE/i.test(text))
    return { value: undefined, problems: ['/body must not declare a DOCTYPE'] };
  let document: Record<string, unknown>;
  try {
    document = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: ATTRIBUTE,
      parseTagValue: false,
      parseAttributeValue: false,
      ignoreDeclaration: true,
      ignorePiTags: true,
      processEntities: true,
      htmlEntities: true,
    }).parse(text, true) as Record<string, unknown>;
  } catch (err) {
    return { value: undefined, problems: [`/body is not well-formed XML: ${messageOf(err)}`] };
  }
  const roots = Object.values(document);
  if (roots.length !== 1)
    return { value: undefined, problems: ['/body must be an XML document with one root element'] };
  return { value: fromXml(roots[0], schema, 0), problems: [] };
}

function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0] ?? text;
}

function fromXml(node: unknown, schema: SchemaObject, depth: number): unknown {
  if (depth > MAX_DEPTH) return node;
  if (isArraySchema(schema) && !isObjectSchema(schema)) {
    // A root array: its items are the root's children, by their name or any.
    const items = itemsOf(schema) ?? {};
    const name = xmlOf(items).name;
    const children = isJsonObject(node)
      ? name !== undefined
        ? node[name]
        : Object.entries(node).find(([key]) => !key.startsWith(ATTRIBUTE))?.[1]
      : undefined;
    return asList(children).map((child) => fromXml(child, items, depth + 1));
  }
  if (isObjectSchema(schema)) {
    if (node === '') return {};
    if (!isJsonObject(node)) return node;
    const value: Record<string, unknown> = {};
    for (const [property, inner] of Object.entries(propertiesOf(schema))) {
      const xml = xmlOf(inner);
      const name = xml.name ?? property;
      if (xml.attribute) {
        const text = node[`${ATTRIBUTE}${name}`];
        if (text !== undefined) value[property] = scalar(text, inner);
      } else if (isArraySchema(inner) && !isObjectSchema(inner)) {
        const items = itemsOf(inner) ?? {};
        const children = xml.wrapped
          ? wrappedItems(node[name] ?? node[property], itemName(inner, property), property)
          : (node[itemName(inner, property)] ?? node[property]);
        if (children === undefined) continue;
        value[property] = asList(children).map((child) => fromXml(child, items, depth + 1));
      } else {
        // The property's name or its schema's (a `$ref`'d User says `user`): either is read.
        const element = node[name] ?? node[property];
        if (element !== undefined) value[property] = fromXml(element, inner, depth + 1);
      }
    }
    return value;
  }
  return scalar(node, schema);
}

/**
 * The items inside an array's wrapper element: those named as the spec says, else the wrapper's
 * one kind of child (the Pet Store's `photoUrls` says wrapper `photoUrl` and items `photoUrls`,
 * and its own server writes them the other way round).
 */
function wrappedItems(wrapper: unknown, item: string, property: string): unknown {
  if (wrapper === undefined) return undefined;
  if (!isJsonObject(wrapper)) return [];
  const named = wrapper[item] ?? wrapper[property];
  if (named !== undefined) return named;
  const children = Object.keys(wrapper).filter((key) => !key.startsWith(ATTRIBUTE));
  return children.length === 1 ? wrapper[children[0] ?? ''] : [];
}

/** A text as the schema's number or boolean where it reads as one; anything else as it is. */
function scalar(node: unknown, schema: SchemaObject): unknown {
  if (typeof node !== 'string') return node;
  const types = typesOf(schema);
  if ((types.includes('integer') || types.includes('number')) && !types.includes('string')) {
    const number = Number(node);
    if (node.trim() !== '' && Number.isFinite(number)) return number;
  }
  if (types.includes('boolean') && !types.includes('string')) {
    if (node === 'true') return true;
    if (node === 'false') return false;
  }
  return node;
}

/**
 * Writes a value as the XML `schema` describes, under the root element the schema's `xml`
 * object names, else `fallback`.
 * @example writeXml({ name: 'Mars' }, planet, 'Planet') // '<?xml version="1.0" encoding="UTF-8"?><planet><name>Mars</name></planet>'
 */
export function writeXml(
  value: unknown,
  schema: SchemaObject,
  fallback: string,
  nameOf: (schema: SchemaObject) => string | undefined = () => undefined,
): string {
  const name = xmlOf(schema).name ?? fallback;
  const tree =
    isArraySchema(schema) && !isObjectSchema(schema) && Array.isArray(value)
      ? {
          [itemName(schema, 'item')]: value.map((item) =>
            toXml(item, itemsOf(schema) ?? {}, nameOf, 1),
          ),
        }
      : toXml(value, schema, nameOf, 0);
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: ATTRIBUTE,
    suppressEmptyNode: true,
  });
  return `<?xml version="1.0" encoding="UTF-8"?>${builder.build({ [name]: tree }) as string}`;
}

function toXml(
  value: unknown,
  schema: SchemaObject,
  nameOf: (schema: SchemaObject) => string | undefined,
  depth: number,
): unknown {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value))
    return value.map((item) => toXml(item, itemsOf(schema) ?? {}, nameOf, depth + 1));
  if (!isJsonObject(value)) return value;
  if (depth > MAX_DEPTH) return JSON.stringify(value);
  const properties = propertiesOf(schema);
  const tree: Record<string, unknown> = {};
  for (const [property, inner] of Object.entries(value)) {
    const described = properties[property] ?? {};
    const xml = xmlOf(described);
    // A schema of the components keeps its own name for where it is the root: as a property,
    // it is the property's element (OpenAPI 3.1.1, XML Object).
    const name = (nameOf(described) === undefined ? xml.name : undefined) ?? property;
    if (xml.attribute && (typeof inner !== 'object' || inner === null)) {
      if (inner !== null && inner !== undefined) tree[`${ATTRIBUTE}${name}`] = inner;
    } else if (Array.isArray(inner)) {
      const items = inner.map((item) => toXml(item, itemsOf(described) ?? {}, nameOf, depth + 1));
      const element = itemName(described, property);
      if (xml.wrapped) tree[name] = { [element]: items };
      else tree[element] = items;
    } else {
      tree[name] = toXml(inner, described, nameOf, depth + 1);
    }
  }
  return tree;
}
