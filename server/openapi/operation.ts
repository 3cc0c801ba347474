/**
 * One route's entry (route-doc.ts) as an OpenAPI operation: its parameters (path, and for GET
 * and DELETE the request kind's query parameters), its request body (the kind's form schema, or
 * a JSON schema), its answers, and its examples in the standard places: a request example and
 * the answer's example share the example's name; a value another example answers is marked
 * `x-idOf` (openapi.test.ts sends them in order).
 */
import { describe } from '../../shared/result-codes';
import { kindSchemaName, queryParameters } from './kinds';
import { type Example, openApiPath, type PathValue, type RouteDoc } from './route-doc';
import type { JsonSchema } from './schema';

const MEDIA = {
  html: 'text/html',
  javascript: 'text/javascript',
  css: 'text/css',
  csv: 'text/csv',
  file: 'application/octet-stream',
} as const;

/** How a value another example answers is shown: readable, and marked for the test. */
export const idPlaceholder = (name: string) => `<id answered by the example "${name}">`;

const shown = (v: PathValue) => (typeof v === 'string' ? v : idPlaceholder(v.idOf));
const idOfs = (values: Readonly<Record<string, PathValue>>) =>
  Object.fromEntries(
    Object.entries(values).flatMap(([k, v]) => (typeof v === 'string' ? [] : [[k, v.idOf]])),
  );

const operationId = (doc: RouteDoc) =>
  doc.method.toLowerCase() +
  doc.path
    .split(/[/.*-]/)
    .filter(Boolean)
    .map((s) =>
      s.startsWith(':') ? `By${s[1]?.toUpperCase()}${s.slice(2)}` : `${s[0]?.toUpperCase()}${s.slice(1)}`,
    )
    .join('') +
  (doc.path.endsWith('*') ? 'File' : '');

function pathParameters(doc: RouteDoc): JsonSchema[] {
  const names = [...openApiPath(doc.path).matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]!);
  return names.map((name) => {
    const examples: Record<string, JsonSchema> = {};
    for (const ex of doc.examples ?? []) {
      const v = ex.path?.[name];
      if (v !== undefined)
        examples[ex.name] = {
          summary: ex.summary,
          value: shown(v),
          ...(typeof v === 'string' ? {} : { 'x-idOf': v.idOf }),
        };
    }
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
  if (doc.kind === undefined || doc.method === 'POST' || doc.method === 'PATCH') return [];
  return queryParameters(doc.kind, schemas).map((param) => {
    const p = doc.optional?.includes(param.name as string) ? { ...param, required: false } : param;
    const examples: Record<string, JsonSchema> = {};
    for (const ex of doc.examples ?? []) {
      const v = ex.params?.[p.name as string];
      if (v !== undefined)
        examples[ex.name] = {
          summary: ex.summary,
          value: shown(v),
          ...(typeof v === 'string' ? {} : { 'x-idOf': v.idOf }),
        };
    }
    return Object.keys(examples).length === 0 ? p : { ...p, examples };
  });
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
          schema: doc.json,
          examples: examples((ex) =>
            ex.json === undefined ? undefined : { summary: ex.summary, value: ex.json },
          ),
        },
      },
    };
  if (doc.kind === undefined || (doc.method !== 'POST' && doc.method !== 'PATCH')) return undefined;
  return {
    required: true,
    content: {
      'application/x-www-form-urlencoded': {
        schema: { $ref: `#/components/schemas/${kindSchemaName(doc.kind)}` },
        examples: examples((ex) =>
          ex.params === undefined
            ? undefined
            : {
                summary: ex.summary,
                value: Object.fromEntries(Object.entries(ex.params).map(([k, v]) => [k, shown(v)])),
                ...(Object.keys(idOfs(ex.params)).length === 0 ? {} : { 'x-idOf': idOfs(ex.params) }),
              },
        ),
      },
    },
  };
}

function responses(doc: RouteDoc): JsonSchema {
  const statuses = new Set([
    ...Object.keys(doc.answers).map(Number),
    ...(doc.examples ?? []).map((e) => e.answer.status),
  ]);
  const out: Record<string, JsonSchema> = {};
  for (const status of [...statuses].sort()) {
    const description = doc.answers[status] ?? 'See the example.';
    const examples = (doc.examples ?? []).filter((e) => e.answer.status === status);
    const content = doc.content ?? 'json';
    if (content === 'empty' || status === 303) {
      out[status] = { description };
      continue;
    }
    // every answer that is not the page or file itself is the JSON envelope
    const json = content === 'json' || status >= 400;
    out[status] = {
      description,
      content: json
        ? {
            'application/json': {
              schema: { $ref: '#/components/schemas/Envelope' },
              ...(examples.length === 0
                ? {}
                : {
                    examples: Object.fromEntries(
                      examples.map((e) => [
                        e.name,
                        {
                          summary: e.summary,
                          value:
                            e.answer.code === undefined
                              ? {}
                              : {
                                  result: { code: e.answer.code, description: describe(e.answer.code) ?? '' },
                                },
                        },
                      ]),
                    ),
                  }),
            },
          }
        : {
            [MEDIA[content as keyof typeof MEDIA]]: {
              schema: { type: 'string' },
              ...(examples.length === 0
                ? {}
                : {
                    examples: Object.fromEntries(
                      examples.map((e) => [e.name, { summary: e.summary, value: '' }]),
                    ),
                  }),
            },
          },
    };
  }
  return out;
}

const SECURITY = {
  merchant: [{ merchantBearer: [] }, { legacyParameters: [] }],
  operator: [{ operatorBearer: [] }],
  checkout: [],
  public: [],
} as const;

export function operation(doc: RouteDoc, schemas: Record<string, JsonSchema>): JsonSchema {
  const body = requestBody(doc);
  const parameters = [...pathParameters(doc), ...queryParams(doc, schemas)];
  const auth =
    doc.auth === 'checkout'
      ? '\n\nNo credentials: the checkout id in the path is the secret (merchant credentials, when sent, must match).'
      : '';
  return {
    operationId: operationId(doc),
    tags: [doc.tag],
    summary: doc.summary,
    description: `${doc.description ?? doc.summary}${auth}`,
    security: SECURITY[doc.auth],
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(body === undefined ? {} : { requestBody: body }),
    responses: responses(doc),
  };
}
