/**
 * The contract as JSON Schema (2020-12, what OpenAPI 3.1 speaks): one schema per named part
 * (registry.ts: the answers, and the admin API's request bodies as a client sends them), referring to each other as `#/components/schemas/<name>`, for the OpenAPI
 * document's components (server/openapi/components.ts).
 */
import * as z from 'zod';
import { CONTRACT, INPUT_CONTRACT } from './registry';
import './checkout';
import './envelope';
import './payment';
import './reads';
import './registration';
import './schedule';
import './notification';
import './admin';
import './admin-inputs';

export type JsonSchema = { readonly [key: string]: unknown };

/** The named schemas, without the `$schema` and `$id` a standalone schema carries. */
export function contractSchemas(): Record<string, JsonSchema> {
  return { ...standalone(CONTRACT, 'output'), ...standalone(INPUT_CONTRACT, 'input') };
}

/**
 * A query string's schema (admin-queries.ts) as the document's query parameters: each field's
 * JSON Schema as a client sends it (text; a default as given), its description beside it.
 */
export function queryParameters(schema: z.ZodObject): Record<string, JsonSchema> {
  const { properties } = z.toJSONSchema(schema, { io: 'input' }) as {
    properties: Record<string, JsonSchema>;
  };
  return properties;
}

/** A registry's schemas as answered (`output`) or as sent (`input`). */
function standalone(registry: typeof CONTRACT, io: 'input' | 'output'): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, { io, uri: (id) => `#/components/schemas/${id}` });
  const out: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _dialect, $id: _id, ...rest } = schema as Record<string, unknown>;
    out[id] = rest;
  }
  return out;
}
