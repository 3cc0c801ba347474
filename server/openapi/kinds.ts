/**
 * The request kinds (shared/params/requests/kinds.ts) as request schemas: the sections a kind
 * accepts (references to the section schemas), the few fields it takes of other sections, its
 * payment types, what it requires, and its own rules in words. Unknown names are refused by the
 * gateway, so the schema is closed (`unevaluatedProperties: false`).
 */
import { SECTIONS } from '../../shared/params/catalogue';
import { KINDS, type KindSpec, type RequestKind } from '../../shared/params/requests/kinds';
import { type JsonSchema, objectSchema, sectionSchemaName } from './schema';

/** The schema name of a request kind: `Request.payment`. */
export const kindSchemaName = (kind: RequestKind) => `Request.${kind}`;

export function kindSchema(kind: RequestKind): JsonSchema {
  const spec: KindSpec = KINDS[kind];
  const parts: JsonSchema[] = spec.sections.map((id) => ({
    $ref: `#/components/schemas/${sectionSchemaName(id)}`,
  }));
  for (const extra of spec.extra ?? [])
    parts.push(objectSchema(extra, 'Parameters of other sections this request takes.'));
  if (spec.paymentTypes !== undefined)
    parts.push({
      type: 'object',
      properties: { paymentType: { type: 'string', enum: [...spec.paymentTypes], 'x-req': 'R' } },
    });
  const rules = (spec.rules ?? []).map((r) => `- ${r.says}`);
  const sections = spec.sections.map((id) => SECTIONS[id].title).join(', ');
  return {
    title: kind,
    description: [
      `Form-encoded (application/x-www-form-urlencoded) parameters; the sections: ${sections || 'none'}.`,
      spec.required === undefined ? '' : `Required: ${spec.required.map((n) => `\`${n}\``).join(', ')}.`,
      rules.length === 0 ? '' : `Rules of this request:\n${rules.join('\n')}`,
    ]
      .filter(Boolean)
      .join('\n\n'),
    allOf: parts,
    ...(spec.required === undefined ? {} : { required: [...spec.required] }),
    unevaluatedProperties: false,
  };
}

export function kindSchemas(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const kind of Object.keys(KINDS) as RequestKind[]) out[kindSchemaName(kind)] = kindSchema(kind);
  return out;
}

/** A GET or DELETE kind's parameters, one query parameter per wire name. */
export function queryParameters(kind: RequestKind, schemas: Record<string, JsonSchema>): JsonSchema[] {
  const spec: KindSpec = KINDS[kind];
  const required = new Set<string>(spec.required ?? []);
  const out: JsonSchema[] = [];
  const objects = [
    ...spec.sections.map((id) => schemas[sectionSchemaName(id)]!),
    ...(spec.extra ?? []).map((g) => objectSchema(g, '')),
  ];
  for (const object of objects) {
    const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
    for (const [name, schema] of Object.entries(properties)) {
      const { description, deprecated, ...rest } = schema;
      out.push({
        name,
        in: 'query',
        required: required.has(name),
        description,
        ...(deprecated === true ? { deprecated: true } : {}),
        schema: rest,
      });
    }
  }
  return out;
}
