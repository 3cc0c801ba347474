/**
 * The parameter reference, rendered from the catalogue: one table per spec section with each
 * parameter's wire name, format in words, Req column and note, then the section's rules.
 */
import { SECTIONS } from './catalogue';
import { describeFormat } from './formats';
import type { Group, Mask, Node } from './nodes';
import { ENDPOINT_PARAMETERS } from './requests';
import type { Rule } from './rules';

interface Row {
  readonly name: string;
  readonly format: string;
  readonly req: string;
  readonly note: string;
}

/** What the docs say of a masked parameter; account numbers are also encrypted at rest. */
function maskNote(mask: Mask | undefined): string {
  if (mask === undefined) return '';
  return mask === 'account' ? 'Masked in errors and logs, encrypted at rest.' : 'Masked in errors and logs.';
}

function rowsOf(node: Node, name: string, rows: Row[], rules: { at: string; rule: Rule }[]): void {
  switch (node.kind) {
    case 'leaf':
      rows.push({
        name,
        format: describeFormat(node.format),
        req: node.req,
        note: [node.note ?? '', maskNote(node.mask)].filter(Boolean).join(' '),
      });
      return;
    case 'dict': {
      const value = typeof node.value === 'function' ? 'depends on the key' : describeFormat(node.value);
      rows.push({
        name: `${name}[key]`,
        format: `key: ${describeFormat(node.key)}; value: ${value}`,
        req: 'O',
        note: node.note ?? '',
      });
      return;
    }
    case 'list':
      rowsOf(node.item, `${name}[n]`, rows, rules);
      return;
    case 'group':
      groupRows(node, name, rows, rules);
  }
}

function groupRows(group: Group, prefix: string, rows: Row[], rules: { at: string; rule: Rule }[]): void {
  for (const rule of group.rules) rules.push({ at: prefix, rule });
  for (const [name, node] of Object.entries(group.fields))
    rowsOf(node, prefix === '' ? name : `${prefix}.${name}`, rows, rules);
}

const cell = (s: string) => s.replaceAll('|', '\\|');

export function renderParameterDocs(): string {
  const out: string[] = [
    '# Request parameters',
    '',
    'Generated from `shared/params/catalogue/` by `npm run docs`; do not edit by hand.',
    'Req: R required, C conditional (see the rules), O optional. An R inside a group applies when the group is sent.',
    'An empty value counts as a parameter not sent.',
    '',
  ];
  for (const { title, group } of Object.values(SECTIONS)) {
    const rows: Row[] = [];
    const rules: { at: string; rule: Rule }[] = [];
    groupRows(group, '', rows, rules);
    out.push(`## ${title}`, '', '| Parameter | Format | Req | Note |', '|---|---|---|---|');
    for (const r of rows) out.push(`| ${cell(r.name)} | ${cell(r.format)} | ${r.req} | ${cell(r.note)} |`);
    if (rules.length > 0) {
      out.push('', 'Rules:');
      for (const { at, rule } of rules) out.push(`- ${at === '' ? '' : `\`${at}\`: `}${rule.says}`);
    }
    out.push('');
  }
  for (const { endpoint, group } of ENDPOINT_PARAMETERS) {
    const rows: Row[] = [];
    groupRows(group, '', rows, []);
    out.push(`## Only at ${endpoint}`, '', '| Parameter | Format | Req | Note |', '|---|---|---|---|');
    for (const r of rows) out.push(`| ${cell(r.name)} | ${cell(r.format)} | ${r.req} | ${cell(r.note)} |`);
    out.push('');
  }
  return out.join('\n');
}
