// The bundled spec's types, for the tests of the categories interface, derived from
// spec/openapi.yaml by `npm run generate:types`: the schemas are written once, in the spec.
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

/** What a client sends to create a category (the spec's NewCategory). */
export type NewCategory = Omit<Schemas['NewCategory'], 'id'>;

/** A category as the service returns it (the spec's Category): `id` is always assigned. */
export type Category = Schemas['Category'] & Required<Pick<Schemas['Category'], 'id'>>;

/** The body of every error response (the spec's Error). */
export type ErrorBody = Schemas['Error'];
