/**
 * Storage's import graph: its modules import one another without a cycle (type-only imports
 * count), one way — the aggregates (payments/, sessions/, …) use the shared core (core/), the
 * core names the aggregates' tables only (core/database.ts), and every `tables.ts` stands on
 * core/columns.ts alone — and nothing of the server outside storage: not server/webhooks (which
 * uses storage, never the reverse), not server/security (the vault and the account sealer come in
 * through ports: shared/sealing/account-data.ts). File and function sizes: scripts/structure.
 */
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, importsOf, modulesUnder } from '../test-kit/source-tree';

const STORAGE = dirname(new URL(import.meta.url).pathname);
const REPO = resolve(STORAGE, '../..');
const repoName = (path: string) => relative(REPO, path);
const cyclesOf = (g: Map<string, string[]>) => cycles(g, (m) => m);
const SERVER = join(REPO, 'server');

const modules = modulesUnder(STORAGE);
const graph = importGraph(modules);
/** The storage folder a module is in: `core`, an aggregate's name, or '' for the top level. */
const folderOf = (path: string) => relative(STORAGE, dirname(path)).split(sep)[0] ?? '';
const within = (path: string) => path.startsWith(STORAGE + sep);

function offending(test: (module: string, imported: string) => boolean): string[] {
  return [...graph].flatMap(([m, imports]) =>
    imports.filter((i) => test(m, i)).map((i) => `${repoName(m)} imports ${repoName(i)}`),
  );
}

describe('storage’s import graph', () => {
  it('reads the imports (the regex sees what storage imports)', () => {
    expect(modules.length).toBeGreaterThan(20);
    expect(importsOf(`import type {\n  A,\n} from './a';\nexport * from "./b";`)).toEqual(['./a', './b']);
    const resolved = [...graph.values()].flat().filter(within);
    expect(resolved.every((i) => graph.has(i))).toBe(true);
    expect(resolved.some((i) => i.endsWith(join('core', 'database.ts')))).toBe(true);
  });

  it('has no import cycle', () => {
    // the search finds one where there is one
    expect(
      cyclesOf(
        new Map([
          ['a', ['b']],
          ['b', ['c', 'a']],
          ['c', []],
        ]),
      ),
    ).toEqual([['a', 'b', 'a']]);
    expect(cycles(graph, repoName)).toEqual([]);
  });

  it('imports nothing of server/webhooks or server/security', () => {
    const forbidden = [join(SERVER, 'webhooks') + sep, join(SERVER, 'security') + sep];
    expect(offending((_, i) => forbidden.some((f) => i.startsWith(f)))).toEqual([]);
  });

  it('imports nothing of the engine beyond its core (ports and models): the engine hands it notifications as data', () => {
    const ENGINE = join(REPO, 'shared', 'engine');
    const core = join(ENGINE, 'core') + sep;
    const schedulePort = join(ENGINE, 'operations', 'schedules', 'model.ts');
    expect(
      offending((_, i) => i.startsWith(ENGINE + sep) && !i.startsWith(core) && i !== schedulePort),
    ).toEqual([]);
  });

  it('imports nothing of the server outside storage', () => {
    expect(offending((_, i) => i.startsWith(SERVER + sep) && !within(i))).toEqual([]);
  });

  it('runs one way: tables on core/columns.ts; the core on the aggregates’ tables only; no aggregate on the top level', () => {
    const tablesOnly = offending(
      (m, i) => basename(m) === 'tables.ts' && within(i) && !i.endsWith(join('core', 'columns.ts')),
    );
    const coreOnly = offending(
      (m, i) => folderOf(m) === 'core' && within(i) && folderOf(i) !== 'core' && basename(i) !== 'tables.ts',
    );
    const upward = offending((m, i) => folderOf(m) !== '' && within(i) && folderOf(i) === '');
    expect([...tablesOnly, ...coreOnly, ...upward]).toEqual([]);
  });
});
