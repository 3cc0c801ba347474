/**
 * The engine's import graph: no module of shared/engine imports a simulator (the simulators are
 * adapters of the Processor port, handed in through EngineDeps.processors) or anything of the
 * server, and the engine's modules import one another without a cycle (type-only imports count:
 * a cycle of types is still a knot a newcomer has to untie). Imports are read with a regex over
 * the import and re-export statements (TypeScript 7 ships no compiler API to parse with).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ENGINE = dirname(new URL(import.meta.url).pathname);
const REPO = resolve(ENGINE, '../..');

/** `import … from '…'`, `export … from '…'` (also multi-line and type-only), `import '…'`, `import('…')`. */
const STATIC =
  /^[ \t]*(?:import|export)\s+(?:type\s+)?(?:\{[^}]*\}|\*(?:\s+as\s+\w+)?|\w+(?:\s*,\s*(?:\{[^}]*\}|\*\s+as\s+\w+))?)\s+from\s+['"]([^'"]+)['"]/gm;
const BARE = /^[ \t]*import\s+['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(source: string): string[] {
  return [...source.matchAll(STATIC), ...source.matchAll(BARE), ...source.matchAll(DYNAMIC)].map(
    (m) => m[1]!,
  );
}

function modulesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...modulesUnder(path));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) found.push(path);
  }
  return found;
}

function resolveImport(from: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')])
    if (existsSync(candidate)) return candidate;
  return base;
}

const modules = modulesUnder(ENGINE);
const graph = new Map(
  modules.map((m) => [m, importsOf(readFileSync(m, 'utf8')).map((s) => resolveImport(m, s))]),
);
const name = (path: string) => relative(REPO, path);

/** Every elementary cycle found by a depth-first search (each reported once, from its first module). */
function cycles(): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (m: string) => {
    state.set(m, 'open');
    stack.push(m);
    for (const next of graph.get(m) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next].map(name));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(m, 'done');
  };
  for (const m of modules) if (!state.has(m)) visit(m);
  return found;
}

describe('the engine’s import graph', () => {
  it('reads the imports (the regex sees what the engine imports)', () => {
    expect(modules.length).toBeGreaterThan(20);
    expect(
      importsOf(
        `import type {\n  A,\n  B,\n} from './a';\nexport * from "./b";\nimport c, { d } from '../c';\nimport './e';`,
      ),
    ).toEqual(['./a', './b', '../c', './e']);
    // every engine module resolves, and the ports are imported by name
    const resolved = [...graph.values()].flat().filter((i) => i.startsWith(ENGINE));
    expect(resolved.every((i) => graph.has(i))).toBe(true);
    expect(resolved.some((i) => /[\\/]ports\.ts$/.test(i))).toBe(true);
  });

  it('has no module that imports a simulator or the server', () => {
    const offending = [...graph].flatMap(([m, imports]) =>
      imports
        .filter((i) => /[\\/]simulators?[\\/]|[\\/]simulator\b/.test(i) || i.startsWith(join(REPO, 'server')))
        .map((i) => `${name(m)} imports ${i.startsWith('/') ? name(i) : i}`),
    );
    expect(offending).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles()).toEqual([]);
  });
});
