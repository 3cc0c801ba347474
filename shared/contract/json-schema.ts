/**
 * The contract as JSON Schema (2020-12, what OpenAPI 3.1 speaks): one schema per named part
 * (registry.ts), referring to each other as `#/components/schemas/<name>`, for the OpenAPI
 * document's components (server/openapi/components.ts).
 */
import * as z from 'zod';
import { CONTRACT } from './registry';
import './checkout';
import './envelope';
import './payment';
import './registration';
import './schedule';
import './notification';
import './admin';

export type JsonSchema = { readonly [key: string]: unknown };

/** The named schemas, without the `$schema` and `$id` a standalone schema carries. */
export function contractSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(CONTRACT, { uri: (id) => `#/components/schemas/${id}` });
  const out: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _dialect, $id: _id, ...rest } = schema as Record<string, unknown>;
    out[id] = rest;
  }
  return out;
}
