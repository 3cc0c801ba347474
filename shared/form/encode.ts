/**
 * The inverse of decode.ts: a tree back into an `application/x-www-form-urlencoded` body, with
 * dotted names, `[n]` list indices and `[key]` map keys. `maps` names the paths whose keys are
 * map keys (`customParameters`), since a tree alone cannot tell them from fields.
 */
import type { FormTree, FormValue } from './decode';

export function encodeForm(tree: FormTree, maps: (path: string) => boolean = () => false): string {
  const pairs: string[] = [];
  const walk = (name: string, path: string, value: FormValue) => {
    if (typeof value === 'string') {
      pairs.push(
        `${encodeURIComponent(name).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(value)}`,
      );
    } else if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(`${name}[${i}]`, path, item);
    } else {
      const keyed = maps(path);
      for (const [key, child] of Object.entries(value)) {
        walk(
          keyed ? `${name}[${key}]` : name === '' ? key : `${name}.${key}`,
          keyed ? path : path === '' ? key : `${path}.${key}`,
          child,
        );
      }
    }
  };
  walk('', '', tree);
  return pairs.join('&');
}
