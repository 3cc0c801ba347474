/**
 * The OpenAPI 3.1 document, generated (never written by hand) from the parameter catalogue
 * (section schemas), the request kinds (request schemas), the routes' entries (routes/) and the
 * result-code catalogue. Served at GET /v1/openapi.json and rendered at /docs.
 */
import { ADMIN_ANSWERS, ADMIN_INPUTS } from '../../shared/contract';
import { contractSchemas } from '../../shared/contract/json-schema';
import { RESULT_CODES } from '../../shared/result-codes';
import {
  envelopeSchemas,
  RESULT_CODE_PATTERN,
  resultCodeCatalogue,
  resultCodeGroupsTable,
  SECURITY_SCHEMES,
} from './components';
import { kindSchemas } from './kinds';
import { operation } from './operation';
import { openApiPath, type RouteDoc, TAGS } from './route-doc';
import { ROUTE_DOCS } from './routes';
import { type JsonSchema, sectionSchemas } from './schema';
import { webhooks } from './webhooks';

export interface Addresses {
  /** The test environment's public address (PORT). */
  readonly test: string;
  /** The live environment's (GATEWAY_LIVE_PORT), when it has one. */
  readonly live?: string;
}

const INTRODUCTION = `A self-hostable payment gateway of the OPP / COPYandPAY API family.

**Requests** are form-encoded (\`application/x-www-form-urlencoded\`) with the spec's dotted names (\`card.number\`, \`customer.email\`, \`cart.items[0].name\`); GET and DELETE take them in the query string. Unknown names are refused. An empty value counts as a parameter not sent. Each parameter's format, pattern, length and R/C/O rule (\`x-req\`: R required, C conditional, O optional) is in the schemas; the conditional rules are in words in each section's and request's description.

**Answers** are JSON in one envelope: \`result.code\` (see Result codes), \`result.description\`, \`result.parameterErrors\` naming every invalid parameter, \`buildNumber\`, \`timestamp\`, \`ndc\`. HTTP 200 for success and pending, 400 for declines and invalid requests.

**Environments**: the test and live addresses are two servers of one gateway; a token, a channel and a payment belong to one of them.

Guides: [widget](/docs/widget), [test cards and triggers](/docs/test-data), [webhooks](/docs/webhooks), [reconciliation file](/docs/reconciliation).

# Result codes

A code's group says what happened: the first group whose pattern matches it (\`x-resultCodes\` lists all ${RESULT_CODES.length} codes, as does GET /v1/resultcodes).

${resultCodeGroupsTable()}`;

function servers(addresses: Addresses): JsonSchema[] {
  return [
    {
      url: addresses.test,
      description: 'Test environment (test channels and tokens; the simulators decide).',
    },
    {
      url: addresses.live ?? 'https://live.gateway.example',
      description:
        addresses.live === undefined
          ? 'Live environment (GATEWAY_LIVE_PORT; not configured here).'
          : 'Live environment (HTTPS only).',
    },
  ];
}

/**
 * Who reads the document: `public` (a production gateway's /v1/openapi.json: the merchants' API
 * and the public files, never the admin API), `admin` (/admin/v1/openapi.json, behind the admin
 * API's own authentication) or `all` (a developer's machine: one document for everything).
 */
export type Audience = 'public' | 'admin' | 'all';

/** The admin API: its routes are under /admin/v1/ (the dashboard's own files at /admin/ are public). */
export const isAdminApi = (doc: Pick<RouteDoc, 'path'>): boolean => doc.path.startsWith('/admin/v1/');

/** The entries an audience reads: the admin document adds the admin API to the public one. */
export const routeDocsFor = (audience: Audience, docs: readonly RouteDoc[] = ROUTE_DOCS): RouteDoc[] =>
  audience === 'public' ? docs.filter((doc) => !isAdminApi(doc)) : [...docs];

/** The security schemes the operations name (the public document has no admin session or operator token). */
function usedSchemes(paths: Record<string, Record<string, JsonSchema>>): JsonSchema {
  const used = new Set<string>();
  for (const operations of Object.values(paths))
    for (const op of Object.values(operations))
      for (const requirement of (op.security ?? []) as Record<string, unknown>[])
        for (const name of Object.keys(requirement)) used.add(name);
  return Object.fromEntries(Object.entries(SECURITY_SCHEMES).filter(([name]) => used.has(name)));
}

/**
 * The components a document without the admin API still names: the admin API's answers and
 * request bodies go with it, and so does a contract schema only they refer to (Notification, the
 * deliveries'); what the operations, the webhooks or a kept schema refer to stays (Payment).
 */
function withoutAdminAnswers(schemas: Record<string, JsonSchema>, used: unknown): Record<string, JsonSchema> {
  const removable = new Set([
    ...Object.keys(ADMIN_ANSWERS),
    ...Object.keys(ADMIN_INPUTS),
    ...Object.keys(contractSchemas()),
  ]);
  const refersTo = (value: unknown) =>
    [...JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1] as string);
  const kept = new Set(Object.keys(schemas).filter((name) => !removable.has(name)));
  const pending = [...refersTo(used), ...[...kept].flatMap((name) => refersTo(schemas[name]))];
  // what is reached from the operations and the kept schemas, to any depth
  for (let name = pending.pop(); name !== undefined; name = pending.pop())
    if (!kept.has(name) && schemas[name] !== undefined) {
      kept.add(name);
      pending.push(...refersTo(schemas[name]));
    }
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => kept.has(name)));
}

export function openApiDocument(addresses: Addresses, docs: readonly RouteDoc[] = ROUTE_DOCS): JsonSchema {
  const schemas: Record<string, JsonSchema> = { ...sectionSchemas(), ...kindSchemas(), ...envelopeSchemas() };
  const paths: Record<string, Record<string, JsonSchema>> = {};
  // OpenAPI's paths have no trailing slash (linters refuse one): the dashboard's `/admin/` is kept
  // beside them, in the same shape, as an extension
  const slashed: Record<string, Record<string, JsonSchema>> = {};
  for (const doc of docs) {
    const path = openApiPath(doc.path);
    const into = path.length > 1 && path.endsWith('/') ? slashed : paths;
    into[path] ??= {};
    into[path][doc.method.toLowerCase()] = operation(doc, schemas);
  }
  const told = webhooks(schemas);
  return {
    openapi: '3.1.1',
    info: {
      title: 'Open Payment Gateway API',
      version: '1',
      description: INTRODUCTION,
    },
    servers: servers(addresses),
    // only the tags the document's operations use (the public one has no Administration)
    tags: Object.entries(TAGS)
      .filter(([name]) => name === 'Webhooks' || docs.some((doc) => doc.tag === name))
      .map(([name, description]) => ({ name, description })),
    paths,
    // what the gateway sends the merchant, from the contract's notifications
    webhooks: told,
    components: {
      schemas: docs.some(isAdminApi) ? schemas : withoutAdminAnswers(schemas, [paths, slashed, told]),
      securitySchemes: usedSchemes({ ...paths, ...slashed }),
    },
    ...(Object.keys(slashed).length === 0 ? {} : { 'x-trailingSlashPaths': slashed }),
    'x-resultCodes': { pattern: RESULT_CODE_PATTERN, codes: resultCodeCatalogue() },
  };
}
