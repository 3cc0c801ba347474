/**
 * The OpenAPI 3.1 document, generated (never written by hand) from the parameter catalogue
 * (section schemas), the request kinds (request schemas), the routes' entries (routes/) and the
 * result-code catalogue. Served at GET /v1/openapi.json and rendered at /docs.
 */
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

export function openApiDocument(addresses: Addresses, docs: readonly RouteDoc[] = ROUTE_DOCS): JsonSchema {
  const schemas: Record<string, JsonSchema> = { ...sectionSchemas(), ...kindSchemas(), ...envelopeSchemas() };
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const doc of docs) {
    const path = openApiPath(doc.path);
    paths[path] ??= {};
    paths[path][doc.method.toLowerCase()] = operation(doc, schemas);
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'Open Payment Gateway API',
      version: '1',
      description: INTRODUCTION,
    },
    servers: servers(addresses),
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: { schemas, securitySchemes: SECURITY_SCHEMES },
    'x-resultCodes': { pattern: RESULT_CODE_PATTERN, codes: resultCodeCatalogue() },
  };
}
