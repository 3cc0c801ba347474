/**
 * One route's entry (route-doc.ts) as an OpenAPI operation: its parameters (path, and for GET
 * and DELETE the request kind's query parameters), its request body (the kind's form schema, or
 * a JSON schema), its answers, and its examples in the standard places: a request example and
 * the answer's example share the example's name; a value another example answers is marked
 * `x-idOf` (openapi.test.ts sends them in order).
 */
import { describe, resultCodeGroup } from '../../shared/result-codes';
import { adminRouteTable } from '../backoffice/users/access';
import { answerSample } from './answer-sample';
import { kindSchemaName, queryParameters } from './kinds';
import { type Example, openApiPath, type PathValue, type RouteDoc, routeKey } from './route-doc';
import type { JsonSchema } from './schema';

const MEDIA = {
  html: 'text/html',
  javascript: 'text/javascript',
  css: 'text/css',
  csv: 'text/csv',
  text: 'text/plain',
  png: 'image/png',
  file: 'application/octet-stream',
} as const;

/** How a value another example answers is shown: readable, and marked for the test. */
export const idPlaceholder = (name: string) => `<id answered by the example "${name}">`;

const shown = (v: PathValue) => (typeof v === 'string' ? v : idPlaceholder(v.idOf));
/** An answered value's marks: the example (`x-idOf`) and, when not its `id`, the field (`x-idField`). */
const marks = (v: PathValue) =>
  typeof v === 'string'
    ? {}
    : { 'x-idOf': v.idOf, ...(v.field === undefined ? {} : { 'x-idField': v.field }) };
const idOfs = (values: Readonly<Record<string, PathValue>>) =>
  Object.fromEntries(
    Object.entries(values).flatMap(([k, v]) => (typeof v === 'string' ? [] : [[k, v.idOf]])),
  );
/** The parameter's example of each example that gives it. */
const parameterExamples = (doc: RouteDoc, pick: (ex: Example) => PathValue | undefined) => {
  const examples: Record<string, JsonSchema> = {};
  for (const ex of doc.examples ?? []) {
    const v = pick(ex);
    if (v !== undefined) examples[ex.name] = { summary: ex.summary, value: shown(v), ...marks(v) };
  }
  return examples;
};

const operationId = (doc: RouteDoc) =>
  doc.method.toLowerCase() +
  doc.path
    .split(/[/.*-]/)
    .filter(Boolean)
    .map((s) =>
      s.startsWith(':') ? `By${s[1]?.toUpperCase()}${s.slice(2)}` : `${s[0]?.toUpperCase()}${s.slice(1)}`,
    )
    .join('') +
  (doc.path.endsWith('*') ? 'File' : '') +
  (doc.path.length > 1 && doc.path.endsWith('/') ? 'Index' : '');

function pathParameters(doc: RouteDoc): JsonSchema[] {
  const names = [...openApiPath(doc.path).matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]!);
  return names.map((name) => {
    const examples = parameterExamples(doc, (ex) => ex.path?.[name]);
    return {
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
      ...(Object.keys(examples).length === 0 ? {} : { examples }),
    };
  });
}

function queryParams(doc: RouteDoc, schemas: Record<string, JsonSchema>): JsonSchema[] {
  // the admin API's own query parameters, beside (never with) a request kind's
  const own = Object.entries(doc.query ?? {}).map(([name, schema]) => {
    const { description, ...rest } = schema as { description?: string };
    return {
      name,
      in: 'query',
      required: false,
      ...(description === undefined ? {} : { description }),
      schema: rest,
    };
  });
  const kind =
    doc.kind === undefined || doc.method === 'POST' || doc.method === 'PATCH'
      ? []
      : queryParameters(doc.kind, schemas);
  return [...kind, ...own].map((param) => {
    const p = doc.optional?.includes(param.name as string) ? { ...param, required: false } : param;
    const examples = parameterExamples(doc, (ex) => ex.params?.[p.name as string]);
    return Object.keys(examples).length === 0 ? p : { ...p, examples };
  });
}

/**
 * Result-code groups of a request refused for its parameters: such an example's body is what a
 * client must not send. Its `value` stays (Redoc renders no example without one: its renderer
 * throws), with words saying it is refused; Redocly's example check warns about each of these,
 * which server/openapi/redocly.test.ts counts.
 */
const REFUSED_FOR_PARAMETERS = new Set([
  'rejectedFormat',
  'rejectedAddress',
  'rejectedContact',
  'rejectedAccount',
  'rejectedAmount',
  'rejectedRegistration',
  'rejectedJob',
]);
const refusedForParameters = (ex: Example) =>
  ex.answer.status === 400 &&
  ex.answer.code !== undefined &&
  REFUSED_FOR_PARAMETERS.has(resultCodeGroup(ex.answer.code) ?? '');

/** A request example: its value, a refused one's with words saying so. */
function requestExample(ex: Example, value: unknown, more: JsonSchema = {}): JsonSchema {
  if (!refusedForParameters(ex)) return { summary: ex.summary, value, ...more };
  const said = typeof more.description === 'string' ? ` ${more.description}` : '';
  return {
    ...more,
    summary: ex.summary,
    description: `Refused (${ex.answer.code}): a request a client must not send, shown for its answer.${said}`,
    value,
  };
}

/**
 * A form body's id that an earlier example answers, shown as an id of its shape (32 hex
 * characters, so the example is what the schema says), the example it comes from said in words
 * and in `x-idOf` (openapi.test.ts sends the real one).
 */
const SAMPLE_ID = '0'.repeat(32);
const sampleId = (v: PathValue) => (typeof v === 'string' ? v : SAMPLE_ID);
function idsAnswered(ids: Record<string, string>): JsonSchema {
  const names = Object.entries(ids);
  if (names.length === 0) return {};
  const words = names.map(([field, from]) => `\`${field}\` is the id the example "${from}" answers.`);
  return { description: words.join(' '), 'x-idOf': ids };
}

function requestBody(doc: RouteDoc): JsonSchema | undefined {
  const examples = (pick: (ex: Example) => JsonSchema | undefined) =>
    Object.fromEntries(
      (doc.examples ?? []).flatMap((ex) => {
        const value = pick(ex);
        return value === undefined ? [] : [[ex.name, value]];
      }),
    );
  if (doc.json !== undefined)
    return {
      required: false,
      content: {
        'application/json': {
          schema: { $ref: `#/components/schemas/${doc.json}` },
          examples: examples((ex) => (ex.json === undefined ? undefined : requestExample(ex, ex.json))),
        },
      },
    };
  const schema =
    doc.form ??
    (doc.kind === undefined ? undefined : { $ref: `#/components/schemas/${kindSchemaName(doc.kind)}` });
  if (schema === undefined || (doc.method !== 'POST' && doc.method !== 'PATCH')) return undefined;
  return {
    required: true,
    content: {
      'application/x-www-form-urlencoded': {
        schema,
        examples: examples((ex) =>
          ex.params === undefined
            ? undefined
            : requestExample(
                ex,
                Object.fromEntries(Object.entries(ex.params).map(([k, v]) => [k, sampleId(v)])),
                idsAnswered(idOfs(ex.params)),
              ),
        ),
      },
    },
  };
}

/**
 * What every route but the health probes may answer before it runs (server/app.ts: the probes
 * come before both): 400 for a path or query string holding text no store can keep
 * (http/middleware/storable), 403 for plain HTTP where HTTPS is required (production, the live
 * address). Documented where the route says nothing else of that status.
 */
const ADMISSION: Readonly<Record<number, string>> = {
  400: 'A path or query string holding text no store can keep (a NUL, bytes that are not UTF-8): 200.300.404 naming it, before the route.',
  403: 'Plain HTTP where HTTPS is required (production, the live address): 800.900.300, before the route.',
};

function responses(doc: RouteDoc, schemas: Record<string, JsonSchema>): JsonSchema {
  const answers = doc.tag === 'Operations' ? doc.answers : { ...ADMISSION, ...doc.answers };
  const statuses = new Set([
    ...Object.keys(answers).map(Number),
    ...(doc.examples ?? []).map((e) => e.answer.status),
  ]);
  const out: Record<string, JsonSchema> = {};
  for (const status of [...statuses].sort()) {
    const description = answers[status] ?? 'See the example.';
    const examples = (doc.examples ?? []).filter((e) => e.answer.status === status);
    const content = doc.content ?? 'json';
    if (content === 'empty' || (status >= 300 && status < 400)) {
      out[status] = { description, ...redirectHeaders(examples) };
      continue;
    }
    if (content === 'data') {
      out[status] = { description, content: { 'application/json': dataAnswer(doc, examples, status) } };
      continue;
    }
    // every answer that is not the page or file itself is the JSON envelope
    const refusal = status >= 400;
    const json = content === 'json' || (refusal && doc.refusals !== 'text');
    out[status] = {
      description,
      content: json
        ? {
            'application/json': {
              schema: { $ref: `#/components/schemas/${answerSchema(doc, status)}` },
              ...(examples.length === 0
                ? {}
                : {
                    examples: Object.fromEntries(
                      examples.map((e) => [
                        e.name,
                        {
                          ...head(e),
                          value: answerSample(
                            answerSchema(doc, status),
                            e.answer.code === undefined
                              ? undefined
                              : { code: e.answer.code, description: describe(e.answer.code) ?? '' },
                            schemas,
                          ),
                        },
                      ]),
                    ),
                  }),
            },
          }
        : {
            // a file that is also answered as JSON (the aggregation's records without Accept: text/csv)
            ...(doc.schema !== undefined && !refusal
              ? {
                  'application/json': {
                    schema: { $ref: `#/components/schemas/${answerSchema(doc, status)}` },
                  },
                }
              : {}),
            [refusal ? 'text/plain' : MEDIA[content as keyof typeof MEDIA]]: {
              schema: { type: 'string' },
              ...(examples.length === 0
                ? {}
                : {
                    examples: Object.fromEntries(
                      examples.map((e) => [e.name, { ...head(e), value: e.answer.body ?? '' }]),
                    ),
                  }),
            },
          },
    };
  }
  return out;
}

/** A success's schema is the route's contract answer; a refusal or a decline's is the envelope. */
const answerSchema = (doc: RouteDoc, status: number) =>
  status === 200 || status === 201 ? (doc.schema ?? 'Envelope') : 'Envelope';

/** An answer example's summary, and why the tests cannot send it when they cannot. */
const head = (e: Example) => ({
  summary: e.summary,
  ...(e.notSent === undefined ? {} : { description: `Not sent by the tests: ${e.notSent}` }),
});

/** A redirect's examples: where each sends the client (the Location header). */
const redirectHeaders = (examples: readonly Example[]): JsonSchema => {
  const located = examples.filter((e) => e.answer.location !== undefined);
  if (located.length === 0) return {};
  const shownLocations = located.map((e) => [e.name, { ...head(e), value: e.answer.location }]);
  return {
    headers: {
      Location: { schema: { type: 'string' }, examples: Object.fromEntries(shownLocations) },
    },
  };
};

/** JSON outside the envelope: the route's schema, and each example's body as shown. */
const dataAnswer = (doc: RouteDoc, examples: readonly Example[], status: number): JsonSchema => ({
  schema: (status >= 400 ? doc.dataRefused : undefined) ?? doc.data ?? { type: 'object' },
  ...(examples.length === 0
    ? {}
    : {
        examples: Object.fromEntries(
          examples.map((e) => [e.name, { ...head(e), value: e.answer.body ?? {} }]),
        ),
      }),
});

/** A session's state-changing request also sends the session's CSRF token. */
const session = (method: RouteDoc['method']) =>
  method === 'GET' ? { adminSession: [] } : { adminSession: [], adminCsrf: [] };

function security(doc: RouteDoc): JsonSchema[] {
  switch (doc.auth) {
    case 'merchant':
      return [{ merchantBearer: [] }, { legacyParameters: [] }];
    case 'admin':
      return [{ operatorBearer: [] }, session(doc.method)];
    case 'session':
      return [session(doc.method)];
    default:
      return [];
  }
}

const ACCESS_WORDS = {
  read: 'every role (operator, merchant-admin, merchant-viewer)',
  write: 'operator or merchant-admin (a merchant-viewer: 403)',
  operator: 'operator only (the others: 403)',
} as const;

/**
 * The role an admin route needs, as its route table registered it (routes/admin/shared.ts):
 * written once, there. Undefined for a route the table lacks (openapi.test.ts fails on it).
 */
function access(doc: RouteDoc): keyof typeof ACCESS_WORDS | undefined {
  if (doc.auth !== 'admin' && doc.auth !== 'session') return undefined;
  const key = routeKey(doc.method, doc.path);
  return adminRouteTable().find((r) => routeKey(r.method, r.path) === key)?.access;
}

function credentialsNote(doc: RouteDoc, role: keyof typeof ACCESS_WORDS | undefined): string {
  if (doc.auth === 'checkout')
    return '\n\nNo credentials: the checkout id in the path is the secret (merchant credentials, when sent, must match).';
  if (role === undefined) return '';
  const who =
    doc.auth === 'session'
      ? "A signed-in user's session only (the operator's token has no session: 400)."
      : "The operator's token, or a signed-in user's session.";
  // a path naming a merchant's thing answers 404 for another merchant's, before any role check
  const others = doc.path.includes('/:') ? "; another merchant's things answer 404" : '';
  return `\n\n${who} Access: ${ACCESS_WORDS[role]}${others}.`;
}

export function operation(doc: RouteDoc, schemas: Record<string, JsonSchema>): JsonSchema {
  const body = requestBody(doc);
  const parameters = [...pathParameters(doc), ...queryParams(doc, schemas)];
  const role = access(doc);
  return {
    operationId: operationId(doc),
    tags: [doc.tag],
    summary: doc.summary,
    description: `${doc.description ?? doc.summary}${credentialsNote(doc, role)}`,
    ...(role === undefined ? {} : { 'x-access': role }),
    security: security(doc),
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(body === undefined ? {} : { requestBody: body }),
    responses: responses(doc, schemas),
  };
}
