/**
 * Zod schemas derived from the catalogue. Leaves check their format, groups are strict (an
 * unknown name is an error, so a typo never passes silently), lists are arrays and dicts are
 * records whose keys and values are checked against the dict's formats.
 */
import { z } from 'zod';
import { checkFormat, type Format } from './formats';
import type { Dict, Group, Leaf, List, Node } from './nodes';

const NOT_A_VALUE = 'must be a single value, not a group of parameters';
const NOT_A_GROUP = 'must be a group of parameters (name.field), not a single value';
const NOT_A_LIST = 'must be a list (name[0].field …)';

function leafSchema(leaf: Leaf): z.ZodType<string> {
  return z.string({ error: NOT_A_VALUE }).check((ctx) => {
    const problem = checkFormat(leaf.format, ctx.value);
    if (problem !== undefined) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
  });
}

function formatIssue(format: Format | undefined, value: string): string | undefined {
  return format === undefined ? 'is not a known key' : checkFormat(format, value);
}

function dictSchema(dict: Dict): z.ZodType<Record<string, string>> {
  return z.record(z.string(), z.string({ error: NOT_A_VALUE }), { error: NOT_A_GROUP }).check((ctx) => {
    for (const [key, value] of Object.entries(ctx.value)) {
      const keyProblem = checkFormat(dict.key, key);
      if (keyProblem !== undefined) {
        ctx.issues.push({ code: 'custom', message: `name ${keyProblem}`, input: value, path: [key] });
        continue;
      }
      const valueFormat = typeof dict.value === 'function' ? dict.value(key) : dict.value;
      const problem = formatIssue(valueFormat, value);
      if (problem !== undefined)
        ctx.issues.push({ code: 'custom', message: problem, input: value, path: [key] });
    }
  });
}

function groupSchema(group: Group): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, node] of Object.entries(group.fields)) shape[name] = schemaOf(node).optional();
  return z.strictObject(shape, { error: NOT_A_GROUP });
}

function listSchema(list: List): z.ZodType {
  return z.array(groupSchema(list.item), { error: NOT_A_LIST }).max(list.max);
}

/** The zod schema of a catalogue node. */
export function schemaOf(node: Node): z.ZodType {
  switch (node.kind) {
    case 'leaf':
      return leafSchema(node);
    case 'group':
      return groupSchema(node);
    case 'list':
      return listSchema(node);
    case 'dict':
      return dictSchema(node);
  }
}
