// A spec of 50 operations for the start-up row: 10 resources, each listed, created, read,
// replaced and deleted, with schemas as varied as real ones (formats, patterns, enums, ranges,
// arrays, nested and nullable fields, UUID and integer ids), so that start-up compiles and
// seeds what a real spec of that size asks for.

type Schema = Record<string, unknown>;

const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const int = (minimum: number, maximum: number): Schema => ({ type: 'integer', minimum, maximum });
const num = (minimum: number, maximum: number): Schema => ({ type: 'number', minimum, maximum });
const list = (items: Schema, maxItems = 5): Schema => ({ type: 'array', items, maxItems });

/** Each resource: its path, its id kind, and its fields beyond the id. */
const RESOURCES: readonly { name: string; uuid: boolean; required: string[]; fields: Schema }[] = [
  {
    name: 'users',
    uuid: false,
    required: ['email', 'role'],
    fields: {
      email: str({ format: 'email' }),
      role: str({ enum: ['admin', 'editor', 'viewer'] }),
      createdAt: str({ format: 'date-time', readOnly: true }),
    },
  },
  {
    name: 'devices',
    uuid: true,
    required: ['hostname'],
    fields: {
      hostname: str({ format: 'hostname' }),
      ip: str({ format: 'ipv4' }),
      mac: str({ pattern: '^([0-9a-f]{2}:){5}[0-9a-f]{2}$' }),
    },
  },
  {
    name: 'orders',
    uuid: false,
    required: ['quantity', 'status'],
    fields: {
      quantity: int(1, 100),
      status: str({ enum: ['placed', 'approved', 'delivered'] }),
      total: num(0, 10_000),
      placedOn: str({ format: 'date' }),
    },
  },
  {
    name: 'products',
    uuid: true,
    required: ['sku', 'price'],
    fields: {
      sku: str({ pattern: '^[A-Z]{3}-[0-9]{4}$' }),
      price: num(0, 1000),
      tags: { ...list(str({ minLength: 1, maxLength: 12 })), uniqueItems: true },
    },
  },
  {
    name: 'addresses',
    uuid: false,
    required: ['street', 'country'],
    fields: {
      street: str({ minLength: 1, maxLength: 80 }),
      postcode: str({ pattern: '^[0-9]{5}$' }),
      country: str({ enum: ['FR', 'DE', 'US', 'JP'] }),
      geo: {
        type: 'object',
        required: ['lat', 'lon'],
        properties: { lat: num(-90, 90), lon: num(-180, 180) },
        additionalProperties: false,
      },
    },
  },
  {
    name: 'events',
    uuid: true,
    required: ['startsAt', 'kind'],
    fields: {
      startsAt: str({ format: 'date-time' }),
      endsAt: str({ format: 'date-time' }),
      url: str({ format: 'uri' }),
      kind: str({ enum: ['meetup', 'talk', 'workshop'] }),
    },
  },
  {
    name: 'invoices',
    uuid: false,
    required: ['number', 'amount', 'currency'],
    fields: {
      number: str({ pattern: '^INV-[0-9]{6}$' }),
      amount: int(0, 1_000_000),
      currency: str({ enum: ['EUR', 'USD', 'JPY'] }),
      paid: { type: 'boolean' },
      lines: list({
        type: 'object',
        required: ['sku', 'quantity'],
        properties: { sku: str({ pattern: '^[A-Z]{3}-[0-9]{4}$' }), quantity: int(1, 50) },
      }),
    },
  },
  {
    name: 'teams',
    uuid: true,
    required: ['name'],
    fields: {
      name: str({ minLength: 1, maxLength: 40 }),
      members: list(str({ format: 'uuid' }), 10),
      parentId: { type: ['string', 'null'], format: 'uuid' },
    },
  },
  {
    name: 'tickets',
    uuid: false,
    required: ['title', 'priority'],
    fields: {
      title: str({ minLength: 1, maxLength: 120 }),
      priority: str({ enum: ['low', 'normal', 'high', 'urgent'] }),
      labels: list(str({ pattern: '^[a-z-]{1,16}$' })),
      dueDate: str({ format: 'date' }),
    },
  },
  {
    name: 'webhooks',
    uuid: true,
    required: ['target', 'events'],
    fields: {
      target: str({ format: 'uri' }),
      secret: str({ pattern: '^[A-Za-z0-9]{32}$', writeOnly: true }),
      events: list(str({ enum: ['created', 'updated', 'deleted'] }), 3),
      active: { type: 'boolean' },
    },
  },
];

const json = (schema: Schema) => ({ content: { 'application/json': { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errors = { default: { description: 'Any error.', ...json(ref('Error')) } };

/**
 * The spec, as a JSON text (which is YAML). `nonce` goes into its description: a new text is
 * checked against the OpenAPI meta-schema once, as a user's first start of a new spec is.
 * @example await writeFile(path, spec50(Date.now().toString()));
 */
export function spec50(nonce: string): string {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, Schema> = {
    Error: {
      type: 'object',
      required: ['code', 'message', 'status'],
      properties: { code: str(), message: str(), status: int(100, 599) },
    },
  };
  for (const { name, uuid, required, fields } of RESOURCES) {
    const schema = name[0]!.toUpperCase() + name.slice(1, -1);
    schemas[schema] = {
      type: 'object',
      required: ['id', ...required],
      properties: {
        id: uuid ? str({ format: 'uuid', readOnly: true }) : { type: 'integer', readOnly: true },
        ...fields,
      },
      additionalProperties: false,
    };
    const body = { required: true, ...json(ref(schema)) };
    paths[`/${name}`] = {
      get: {
        operationId: `list${schema}s`,
        responses: {
          '200': { description: 'All.', ...json({ type: 'array', items: ref(schema) }) },
          ...errors,
        },
      },
      post: {
        operationId: `create${schema}`,
        requestBody: body,
        responses: { '201': { description: 'Created.', ...json(ref(schema)) }, ...errors },
      },
    };
    paths[`/${name}/{id}`] = {
      parameters: [
        {
          name: 'id',
          in: 'path',
          required: true,
          schema: uuid ? str({ format: 'uuid' }) : int(1, 2 ** 31),
        },
      ],
      get: {
        operationId: `get${schema}`,
        responses: { '200': { description: 'One.', ...json(ref(schema)) }, ...errors },
      },
      put: {
        operationId: `replace${schema}`,
        requestBody: body,
        responses: { '200': { description: 'Replaced.', ...json(ref(schema)) }, ...errors },
      },
      delete: {
        operationId: `delete${schema}`,
        responses: { '204': { description: 'Deleted.' }, ...errors },
      },
    };
  }
  return JSON.stringify(
    {
      openapi: '3.1.0',
      info: {
        title: 'Bench: 50 operations',
        version: '1.0.0',
        description: `Generated (${nonce}).`,
      },
      servers: [{ url: 'http://localhost/v1' }],
      security: [{ bearer: [] }],
      paths,
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, schemas },
    },
    null,
    2,
  );
}

/** The path of the list the start-up row waits for. */
export const FIRST_LIST = `/${RESOURCES[0]!.name}`;
