import type { OpenAPIV3_1 } from 'openapi-types';
import type { OpenApiDocument } from '../openapi/load.js';
import { report, type DiffRun, type Where } from './change.js';

type SecurityRequirement = OpenAPIV3_1.SecurityRequirementObject;

/** One side of an operation's security: its requirements and the document's schemes. */
export interface SecuritySide {
  readonly requirements: readonly SecurityRequirement[];
  readonly document: OpenApiDocument;
}

/**
 * What a scheme asks of a client, as text: its type and where the credential goes. Two
 * schemes alike but for their names are the same scheme (a renamed scheme is no change).
 */
function schemeKey(document: OpenApiDocument, name: string): string {
  const declared = (document.components?.securitySchemes ?? {}) as Record<string, unknown>;
  const scheme = declared[name] as Record<string, unknown> | undefined;
  if (!scheme) return `undeclared ${name}`;
  const where =
    scheme.in === 'header' && typeof scheme.name === 'string'
      ? scheme.name.toLowerCase()
      : scheme.name;
  const flows = Object.keys((scheme.flows ?? {}) as object).sort();
  return JSON.stringify([
    scheme.type,
    scheme.in,
    where,
    typeof scheme.scheme === 'string' ? scheme.scheme.toLowerCase() : scheme.scheme,
    flows,
    scheme.openIdConnectUrl,
  ]);
}

/** A requirement as the schemes it asks for, by what they ask, each with its scopes. */
function alternativeOf(document: OpenApiDocument, requirement: SecurityRequirement) {
  return new Map(
    Object.entries(requirement).map(([name, scopes]) => [
      schemeKey(document, name),
      new Set(scopes),
    ]),
  );
}

type Alternative = ReturnType<typeof alternativeOf>;

/** Whether a client that satisfies `held` satisfies `asked`: each scheme, with all its scopes. */
function satisfies(held: Alternative, asked: Alternative): boolean {
  for (const [scheme, scopes] of asked) {
    const have = held.get(scheme);
    if (!have || [...scopes].some((scope) => !have.has(scope))) return false;
  }
  return true;
}

function describe(requirement: SecurityRequirement | undefined): string {
  if (!requirement || Object.keys(requirement).length === 0) return 'no credential';
  return Object.entries(requirement)
    .map(([name, scopes]) => (scopes.length ? `${name} (${scopes.join(', ')})` : name))
    .join(' and ');
}

/**
 * Reports the ways of authenticating that OLD accepted and NEW does not (breaking: a client
 * using one is refused) and those NEW adds.
 */
export function diffSecurity(
  run: DiffRun,
  where: Where,
  old: SecuritySide,
  now: SecuritySide,
): void {
  const before = old.requirements.length ? old.requirements : [{}];
  const after = now.requirements.length ? now.requirements : [{}];
  const newAlternatives = after.map((requirement) => alternativeOf(now.document, requirement));
  const oldAlternatives = before.map((requirement) => alternativeOf(old.document, requirement));
  before.forEach((requirement, index) => {
    const held = oldAlternatives[index] ?? new Map();
    if (newAlternatives.some((asked) => satisfies(held, asked))) return;
    const alike = newAlternatives.findIndex(
      (asked) => asked.size === held.size && [...asked.keys()].every((scheme) => held.has(scheme)),
    );
    const changedScheme = Object.keys(requirement).find(
      (name) =>
        now.document.components?.securitySchemes?.[name] !== undefined &&
        schemeKey(old.document, name) !== schemeKey(now.document, name),
    );
    const accepted = `accepted ${describe(requirement)}, now it asks for ${after.map(describe).join(' or ')}`;
    if (alike >= 0)
      report(run, 'security-scope-added', where, `more scopes required: it ${accepted}`);
    else if (changedScheme)
      report(
        run,
        'security-scheme-changed',
        where,
        `security scheme ${changedScheme} changed: it ${accepted}`,
      );
    else report(run, 'security-requirement-added', where, `it ${accepted}`);
  });
  after.forEach((requirement, index) => {
    const asked = newAlternatives[index] ?? new Map();
    // A scheme that changed is reported above.
    const changed = Object.keys(requirement).some(
      (name) =>
        old.document.components?.securitySchemes?.[name] !== undefined &&
        schemeKey(old.document, name) !== schemeKey(now.document, name),
    );
    // A client holding these credentials was refused before.
    if (!changed && !oldAlternatives.some((held) => satisfies(asked, held)))
      report(
        run,
        'security-requirement-removed',
        where,
        `it now also accepts ${describe(requirement)}`,
      );
  });
}
