/**
 * The engine's import graph: no module of shared/engine imports a simulator (the simulators are
 * adapters of the Processor port, handed in through EngineDeps.processors) or anything of the
 * server, and the engine's modules import one another without a cycle (type-only imports count:
 * a cycle of types is still a knot a newcomer has to untie). Imports are read by
 * server/test-kit/source-tree.ts (the whole tree's cycles: scripts/structure/structure.test.ts).
 */
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, importsOf, modulesUnder } from '../../server/test-kit/source-tree';

const ENGINE = dirname(new URL(import.meta.url).pathname);
const REPO = resolve(ENGINE, '../..');

const modules = modulesUnder(ENGINE);
const graph = importGraph(modules);
const name = (path: string) => relative(REPO, path);

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
    expect(cycles(graph, name)).toEqual([]);
  });
});
