/**
 * The widget's import graph: its modules import one another without a cycle (type-only imports
 * count), and imports run one way: components may import core's types, context and helpers; core
 * never imports a component (methods register themselves with `core/registry.ts` from
 * `widget/methods.ts`, which only the bundle's entry, `core/index.ts`, imports). A method folder
 * imports no other method folder (what they share is in `components/internal/`), and the frames
 * (their own bundles) import neither core nor components. Imports are read with a regex over the
 * import and re-export statements, as `shared/engine/import-graph.test.ts` does.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const WIDGET = dirname(new URL(import.meta.url).pathname);

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
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

function resolveImport(from: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')])
    if (existsSync(candidate)) return candidate;
  return base;
}

const modules = modulesUnder(WIDGET).filter((m) => !m.startsWith(join(WIDGET, 'build') + sep));
const graph = new Map(
  modules.map((m) => [m, importsOf(readFileSync(m, 'utf8')).map((s) => resolveImport(m, s))]),
);
/** A module's path below widget/, with forward slashes. */
const name = (path: string) => relative(WIDGET, path).split(sep).join('/');
const edges = () => [...graph].flatMap(([from, to]) => to.map((t) => [name(from), name(t)] as const));

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

/**
 * Top-level functions (`function f(` at the start of a line) and their length in lines, up to the
 * closing brace at the start of a line (the formatter's layout).
 */
function functionSizes(source: string): [string, number][] {
  const lines = source.split('\n');
  const out: [string, number][] = [];
  for (let i = 0; i < lines.length; i++) {
    const fn = /^(?:export )?(?:async )?function (\w+)/.exec(lines[i]!)?.[1];
    if (fn === undefined) continue;
    let end = i + 1;
    while (end < lines.length && !lines[end]!.startsWith('}')) end++;
    out.push([fn, end - i + 1]);
    i = end;
  }
  return out;
}

/** The method folders: `components/<Method>/` (not `internal/`). */
const METHOD = /^components\/(?!internal\/)([^/]+)\//;

describe('the widget’s import graph', () => {
  it('reads the imports (the regex sees what the widget imports)', () => {
    expect(modules.length).toBeGreaterThan(30);
    expect(
      importsOf(
        `import type {\n  A,\n  B,\n} from './a';\nexport * from "./b";\nimport c, { d } from '../c';\nimport './e';`,
      ),
    ).toEqual(['./a', './b', '../c', './e']);
    const resolved = edges().filter(([, to]) => !to.startsWith('..') && !to.startsWith('/'));
    expect(resolved).toContainEqual(['core/index.ts', 'methods.ts']);
    expect(resolved).toContainEqual(['components/Card/index.ts', 'core/registry.ts']);
  });

  it('has no cycle', () => {
    expect(cycles()).toEqual([]);
  });

  it('core imports no component: only the entry reaches them, through methods.ts', () => {
    const wrong = edges().filter(
      ([from, to]) =>
        from.startsWith('core/') &&
        (to.startsWith('components/') || (to === 'methods.ts' && from !== 'core/index.ts')),
    );
    expect(wrong).toEqual([]);
  });

  it('every method folder registers itself from its index.ts, listed in methods.ts', () => {
    const folders = readdirSync(join(WIDGET, 'components')).filter((f) => f !== 'internal');
    const listed = (graph.get(join(WIDGET, 'methods.ts')) ?? []).map(name);
    for (const folder of folders) {
      const index = `components/${folder}/index.ts`;
      expect(listed, folder).toContain(index);
      expect(readFileSync(join(WIDGET, index), 'utf8'), folder).toMatch(/\bregistry\.\w+/);
    }
  });

  it('a method folder imports no other method folder, and the frames neither core nor components', () => {
    const wrong = edges().filter(([from, to]) => {
      const a = METHOD.exec(from)?.[1];
      const b = METHOD.exec(to)?.[1];
      if (a !== undefined && b !== undefined && a !== b) return true;
      return from.startsWith('frames/') && (to.startsWith('core/') || to.startsWith('components/'));
    });
    expect(wrong).toEqual([]);
  });

  it('keeps every production module of the widget within 500 lines', () => {
    const long = modules
      .map((m) => [name(m), readFileSync(m, 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines > 500);
    expect(long).toEqual([]);
  });

  it('keeps every top-level function within 100 lines', () => {
    const long = modules.flatMap((m) =>
      functionSizes(readFileSync(m, 'utf8'))
        .filter(([, lines]) => lines > 100)
        .map(([fn, lines]) => `${name(m)} ${fn}: ${lines} lines`),
    );
    expect(long).toEqual([]);
    expect(
      functionSizes('function a() {\n  return 1;\n}\nexport async function b(\n  x: number,\n) {\n}\n'),
    ).toEqual([
      ['a', 3],
      ['b', 4],
    ]);
  });
});
