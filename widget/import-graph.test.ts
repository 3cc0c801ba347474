/**
 * The widget's import graph: its modules import one another without a cycle (type-only imports
 * count), and imports run one way: components may import core's types, context and helpers; core
 * never imports a component (methods register themselves with `core/registry.ts` from
 * `widget/methods.ts`, which only the bundle's entry, `paymentWidgets.ts`, imports). A method folder
 * imports no other method folder (what they share is in `components/internal/`), and the frames
 * (their own bundles) import neither core nor components. Imports are read with a regex over the
 * import and re-export statements (server/test-kit/source-tree.ts, shared with the engine's,
 * storage's and the whole tree's structure tests).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, functionSizes, importGraph, importsOf, modulesUnder } from '../server/test-kit/source-tree';

const WIDGET = dirname(new URL(import.meta.url).pathname);

const modules = modulesUnder(WIDGET).filter((m) => !m.startsWith(join(WIDGET, 'build') + sep));
const graph = importGraph(modules);
/** A module's path below widget/, with forward slashes. */
const name = (path: string) => relative(WIDGET, path).split(sep).join('/');
const edges = () => [...graph].flatMap(([from, to]) => to.map((t) => [name(from), name(t)] as const));

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
    expect(resolved).toContainEqual(['paymentWidgets.ts', 'methods.ts']);
    expect(resolved).toContainEqual(['components/Card/index.ts', 'core/registry.ts']);
  });

  it('has no cycle', () => {
    expect(cycles(graph, name)).toEqual([]);
  });

  it('core imports no component: only the entry reaches them, through methods.ts', () => {
    const wrong = edges().filter(
      ([from, to]) => from.startsWith('core/') && (to.startsWith('components/') || to === 'methods.ts'),
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

  it('keeps every function within 100 lines', () => {
    const long = modules.flatMap((m) =>
      functionSizes(m, readFileSync(m, 'utf8'))
        .filter(({ lines }) => lines > 100)
        .map(({ name: fn, lines }) => `${name(m)} ${fn}: ${lines} lines`),
    );
    expect(long).toEqual([]);
  });
});
