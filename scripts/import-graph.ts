/**
 * A folder's import graph, for the tests that keep module boundaries (shared/engine/import-graph.test.ts,
 * server/storage/imports.test.ts). Imports are read with a regex over the import and re-export
 * statements (TypeScript 7 ships no compiler API to parse with); type-only imports count: a cycle
 * of types is still a knot a newcomer has to untie.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const REPO = resolve(dirname(new URL(import.meta.url).pathname), '..');

/** `import … from '…'`, `export … from '…'` (also multi-line and type-only), `import '…'`, `import('…')`. */
const STATIC =
  /^[ \t]*(?:import|export)\s+(?:type\s+)?(?:\{[^}]*\}|\*(?:\s+as\s+\w+)?|\w+(?:\s*,\s*(?:\{[^}]*\}|\*\s+as\s+\w+))?)\s+from\s+['"]([^'"]+)['"]/gm;
const BARE = /^[ \t]*import\s+['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

export function importsOf(source: string): string[] {
  return [...source.matchAll(STATIC), ...source.matchAll(BARE), ...source.matchAll(DYNAMIC)].map(
    (m) => m[1]!,
  );
}

/** The TypeScript modules under `dir`, tests left out (and folders `skip` names). */
export function modulesUnder(dir: string, skip: readonly string[] = []): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!skip.includes(name)) found.push(...modulesUnder(path, skip));
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) found.push(path);
  }
  return found;
}

/** A relative specifier as the file it names (`.ts`, `.tsx`, `index.ts`); package names as they are. */
export function resolveImport(from: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')])
    if (existsSync(candidate)) return candidate;
  return base;
}

/** Each module and what it imports (resolved). */
export function importGraph(modules: readonly string[]): Map<string, string[]> {
  return new Map(modules.map((m) => [m, importsOf(readFileSync(m, 'utf8')).map((s) => resolveImport(m, s))]));
}

/** A path relative to the repository (a package name as it is). */
export const repoName = (path: string): string => (path.startsWith('/') ? relative(REPO, path) : path);

/** Every elementary cycle found by a depth-first search (each reported once, from its first module). */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (m: string) => {
    state.set(m, 'open');
    stack.push(m);
    for (const next of graph.get(m) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next].map(repoName));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(m, 'done');
  };
  for (const m of graph.keys()) if (!state.has(m)) visit(m);
  return found;
}
