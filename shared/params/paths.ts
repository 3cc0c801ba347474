/** Where the catalogue keeps `[key]` maps (customParameters, merchant.data …), for re-encoding trees. */
import { SECTIONS } from './catalogue';
import type { Node } from './nodes';

const dicts = new Set<string>();

function collect(node: Node, path: string): void {
  if (node.kind === 'dict') dicts.add(path);
  else if (node.kind === 'group') {
    for (const [name, child] of Object.entries(node.fields))
      collect(child, path === '' ? name : `${path}.${name}`);
  } else if (node.kind === 'list') collect(node.item, path);
}
for (const { group } of Object.values(SECTIONS)) collect(group, '');

export const isDictPath = (path: string): boolean => dicts.has(path);
