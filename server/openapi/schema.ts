/**
 * The parameter catalogue as JSON Schema (OpenAPI 3.1 is JSON Schema 2020-12). Requests are
 * form-encoded with the spec's dotted wire names (`card.number`, `cart.items[0].name`), so a
 * section is one flat object: a property per dotted name, and for lists and `[key]` maps a
 * pattern property whose `x-name` is the name as the docs write it (`cart.items[n].name`).
 * Every leaf carries its format in words (describeFormat, as in errors and docs/parameters.md),
 * a pattern or length limits where the format has them, and its R/C/O rule (`x-req`).
 */
import { SECTIONS, type SectionId } from '../../shared/params/catalogue';
import { describeFormat, type Format } from '../../shared/params/formats';
import type { Group, Leaf, Mask, Node } from '../../shared/params/nodes';
import type { Rule } from '../../shared/params/rules';

export type JsonSchema = { readonly [key: string]: unknown };

const REQ_WORDS = {
  R: 'Required when its group is sent.',
  C: 'Conditional: see the rules.',
  O: 'Optional.',
} as const;

/** What the docs say of a masked parameter (as docs/parameters.md). */
function maskNote(mask: Mask | undefined): string {
  if (mask === undefined) return '';
  return mask === 'account' ? 'Masked in errors and logs, encrypted at rest.' : 'Masked in errors and logs.';
}

const DIGITS = (min: number, max: number) => `^[0-9]{${min === max ? max : `${min},${max}`}}$`;
const DATE = '^(19|20)[0-9]{2}-[0-9]{2}-[0-9]{2}$';

/** The checks of a format JSON Schema can state; describeFormat says the rest in words. */
export function formatSchema(f: Format): Record<string, unknown> {
  switch (f.t) {
    case 'AN':
    case 'A':
      return { minLength: f.min, maxLength: f.max };
    case 'N':
      return { pattern: DIGITS(f.min, f.max) };
    case 'AMT':
      return { pattern: '^[0-9]{1,10}(\\.[0-9]{2})?$' };
    case 'DEC2':
      return { pattern: '^[0-9]{1,10}\\.[0-9]{2}$' };
    case 'DATE':
      return { pattern: DATE, format: 'date' };
    case 'YMD':
      return { pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', format: 'date' };
    case 'TS':
      return { pattern: '^(19|20)[0-9]{2}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$' };
    case 'enum':
      return { enum: [...f.values] };
    case 'bool':
      return { enum: f.legacy01 ? ['true', 'false', '1', '0'] : ['true', 'false'] };
    case 'int':
      return { pattern: '^(0|[1-9][0-9]{0,14})$', 'x-minimum': f.min, 'x-maximum': f.max };
    case 'decimal':
      return {
        pattern: `^[0-9]{1,${f.int}}(\\.[0-9]{${f.exact ? f.frac : `1,${f.frac}`}})${f.exact ? '' : '?'}$`,
      };
    case 'currency':
      return { pattern: '^[A-Z]{3}$' };
    case 'country2':
      return { pattern: '^[A-Z]{2}$' };
    case 'url':
      return { format: 'uri', minLength: f.min, maxLength: f.max };
    case 'email':
      return { format: 'email', minLength: f.min, maxLength: f.max };
    case 'pattern':
      return { pattern: f.re.source };
    case 'enumList':
    case 'cron':
    case 'cronExpression':
      return {};
  }
}

function leafSchema(leaf: Leaf, name: string): JsonSchema {
  const words = [
    `${describeFormat(leaf.format)[0]?.toUpperCase()}${describeFormat(leaf.format).slice(1)}.`,
    // at the top level the request kind says what it requires (each request's `required`)
    leaf.req === 'R' && !name.includes('.')
      ? 'Required where the request lists it as required.'
      : REQ_WORDS[leaf.req],
    leaf.note ?? '',
    maskNote(leaf.mask),
  ];
  return {
    type: 'string',
    ...formatSchema(leaf.format),
    description: words.filter(Boolean).join(' '),
    'x-req': leaf.req,
    ...(leaf.mask === undefined ? {} : { writeOnly: true }),
    // the legacy credentials stand for the Bearer token (securitySchemes)
    ...(name.startsWith('authentication.') ? { deprecated: true } : {}),
  };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `cart.items[n].name` → a pattern matching `cart.items[0].name`, `cart.items[12].name` … */
const namePattern = (name: string) =>
  `^${escapeRegExp(name).replaceAll('\\[n\\]', '\\[[0-9]+\\]').replaceAll('\\[key\\]', '\\[[^\\]]+\\]')}$`;

export interface Flat {
  readonly properties: Record<string, JsonSchema>;
  readonly patternProperties: Record<string, JsonSchema>;
  readonly rules: string[];
}

/** A group flattened to its wire names, with its rules (and its subgroups' rules) in words. */
export function flatten(group: Group, prefix = '', out?: Flat): Flat {
  const flat = out ?? { properties: {}, patternProperties: {}, rules: [] };
  for (const rule of group.rules) flat.rules.push(ruleWords(prefix, rule));
  for (const [name, node] of Object.entries(group.fields))
    add(node, prefix === '' ? name : `${prefix}.${name}`, flat);
  return flat;
}

const ruleWords = (at: string, rule: Rule) => (at === '' ? rule.says : `\`${at}\`: ${rule.says}`);

function add(node: Node, name: string, flat: Flat): void {
  switch (node.kind) {
    case 'leaf':
      if (name.includes('['))
        flat.patternProperties[namePattern(name)] = { ...leafSchema(node, name), 'x-name': name };
      else flat.properties[name] = leafSchema(node, name);
      return;
    case 'dict': {
      const value = typeof node.value === 'function' ? 'depends on the key' : describeFormat(node.value);
      flat.patternProperties[namePattern(`${name}[key]`)] = {
        type: 'string',
        ...(typeof node.value === 'function' ? {} : formatSchema(node.value)),
        description: [`Key: ${describeFormat(node.key)}; value: ${value}.`, REQ_WORDS.O, node.note ?? '']
          .filter(Boolean)
          .join(' '),
        'x-name': `${name}[key]`,
        'x-req': 'O',
      };
      return;
    }
    case 'list':
      flat.rules.push(`\`${name}[n]\`: n runs from 0 to ${node.max - 1}.`);
      flatten(node.item, `${name}[n]`, flat);
      return;
    case 'group':
      flatten(node, name, flat);
  }
}

/**
 * A flattened group as one object schema (without additionalProperties: kinds close them). A
 * group of only lists and maps (cart, customParameters) states no `type`: the body it is part of
 * is the object; a client generator that ignores `patternProperties` (openapi-typescript 6) reads
 * an object without properties as one that may have none (`Record<string, never>`), and every
 * request taking that section would become `never`.
 */
export function objectSchema(group: Group, description: string): JsonSchema {
  const flat = flatten(group);
  const rules = flat.rules.length === 0 ? '' : `\n\nRules:\n${flat.rules.map((r) => `- ${r}`).join('\n')}`;
  const onlyPatterns =
    Object.keys(flat.properties).length === 0 && Object.keys(flat.patternProperties).length > 0;
  return {
    ...(onlyPatterns ? {} : { type: 'object' }),
    description: `${description}${rules}`,
    properties: flat.properties,
    ...(Object.keys(flat.patternProperties).length === 0
      ? {}
      : { patternProperties: flat.patternProperties }),
  };
}

/** The schema name of a catalogue section: `Section.card`. */
export const sectionSchemaName = (id: SectionId) => `Section.${id}`;

/** One schema per section of the catalogue, as the spec's tables are. */
export function sectionSchemas(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [id, { title, group }] of Object.entries(SECTIONS))
    out[sectionSchemaName(id as SectionId)] = {
      title,
      ...objectSchema(group, `${title}: the spec's parameter table.`),
    };
  return out;
}
