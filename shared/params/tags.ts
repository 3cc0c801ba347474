/** The catalogue's tagged leaves (e.g. `3ds2`: mandatory for 3-D Secure v2), by dotted path. */
import type { Group, Tag } from './nodes';

/** Dotted paths of the leaves carrying `tag`, in catalogue order; lists and dicts are not entered. */
export function taggedPaths(root: Group, tag: Tag, prefix = ''): string[] {
  const out: string[] = [];
  for (const [name, node] of Object.entries(root.fields)) {
    const path = `${prefix}${name}`;
    if (node.kind === 'leaf' && node.tags?.includes(tag)) out.push(path);
    else if (node.kind === 'group') out.push(...taggedPaths(node, tag, `${path}.`));
  }
  return out;
}
