/**
 * An answer example's value: what the example says (its result code and description), and a
 * sample of every other field its schema requires, so that the example is what the schema says
 * (linters check examples against their schemas). Samples are the sample values (samples.ts) or
 * placeholders by type; the stamps are a fixed build's.
 */
import type { JsonSchema } from './schema';

type Schemas = Readonly<Record<string, JsonSchema>>;

const STAMPS = {
  buildNumber: 'a89317e58e01406de09ff75de6c962f2365f66e9@2026-11-21 10:00:00 +0000',
  timestamp: '2026-12-01 10:00:00+0000',
  ndc: '8a8294174b7ecb28014b9699220015ca_3f3c0ad1b9ab4b0b8c1d3b5e1c9d4a3a',
} as const;

const DEPTH = 6;

/** The least value the schema takes: its required fields only, an empty list, null when allowed. */
function sample(schema: JsonSchema | undefined, schemas: Schemas, depth: number): unknown {
  if (schema === undefined || depth === 0) return {};
  const ref = schema.$ref as string | undefined;
  if (ref !== undefined) return sample(schemas[ref.replace('#/components/schemas/', '')], schemas, depth - 1);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const choices = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (choices !== undefined) {
    const nullable = choices.some((c) => c.type === 'null');
    return nullable ? null : sample(choices[0], schemas, depth - 1);
  }
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.map((name) => [name, sample(properties[name], schemas, depth - 1)]));
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return 'string';
  }
}

/** An answer of the named schema with the example's result (and, for the envelope's, the stamps). */
export function answerSample(
  schemaName: string,
  result: { readonly code: string; readonly description: string } | undefined,
  schemas: Schemas,
): unknown {
  // an example that says no code shows no answer (openapi.test.ts reads the code it shows)
  if (result === undefined) return {};
  const value = sample(schemas[schemaName], schemas, DEPTH) as Record<string, unknown>;
  const stamped = Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k in STAMPS ? STAMPS[k as keyof typeof STAMPS] : v]),
  );
  return { ...stamped, result };
}
