/**
 * The import graph's rules (issue 31), read with `npm run graph`'s own measure (import-graph.ts):
 *   - the layer order: shared/ imports nothing above it (server/, widget/, bin/, scripts/), the
 *     widget nothing of the server, and the server of the widget only the data its pages show;
 *   - folder loops and the longest chain from server/main.ts held at most at the figures of the
 *     day they were first measured. These are a ratchet: the numbers below may only go down.
 *     Whoever unties a loop or shortens the chain lowers them (the failure of a new loop names it);
 *     nobody raises them. Issue 31's goal: 0 loops and at most 28 links.
 * No file cycle at all: structure.test.ts (tests included).
 *
 * The layer order inside server/, lowest first: a folder imports only folders before it. Today's
 * imports follow it (2026-12-02); the ratchet of 0 folder loops keeps some one-way order, and a
 * new import against this one should move the folder in this list on purpose, not by accident.
 *
 *   mode.ts, security < storage < workers < webhooks < connectors
 *     < processors (the simulators: no HTTP) < reporting (settlement, FTP) < clock (the test clock)
 *     < backoffice (one procedure per action) < metrics < lifecycle (health, the listeners, the
 *       metrics address) < openapi (the document and the docs pages)
 *     < http (middleware and routes: routes/docs.ts serves the document, routes/simulators/ the
 *       simulators' pages), cli, demo-shop
 *     < app.ts < gateway.ts (the composition root; engine-deps.ts: the engine's deps, built once)
 *     < main.ts
 *
 * Two folders that need each other share a module moved below both (security/auth-failures.ts:
 * the API's, the admin API's and FTP's failed logins; security/html.ts; backoffice/users/access.ts:
 * the admin routes' access, registered by http and shown by openapi) or take a function
 * injected from above.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  folderGraph,
  folderLoops,
  type Graph,
  knots,
  longestChain,
  measure,
  repoGraph,
} from './import-graph';

const REPO = resolve(new URL('.', import.meta.url).pathname, '../..');

/** Ratchet: folder loops at every level of LEVELS together (2026-12-01: 10, then 8; 2026-12-02: 0). Only ever lower it. */
const FOLDER_LOOPS_AT_MOST = 0;
/** Ratchet: links of the longest import chain from server/main.ts (2026-12-01: 38, then 31; 2026-12-02: 28). Only ever lower it. */
const CHAIN_LINKS_AT_MOST = 28;
/**
 * The loops there were when the ratchet was set: a loop not among them is new, even while the
 * count stays within the ratchet (one untied, another tied). Remove an entry once it is untied.
 */
const KNOWN_FOLDER_LOOPS = new Set<string>([]);

/** Which top-level folder may import which (production modules; a folder imports itself freely). */
const LAYERS: Record<string, (imported: string) => boolean> = {
  shared: () => false,
  widget: (imported) => imported.startsWith('shared/'),
  // the docs pages show the widget's languages (widget/language/: data, no component)
  server: (imported) => imported.startsWith('shared/') || imported.startsWith('widget/language/'),
  scripts: (imported) => imported.startsWith('shared/'),
  bin: () => true,
};

const graphOf = (edges: Record<string, string[]>): Graph => new Map(Object.entries(edges));
const figures = measure(REPO);
const loops = figures.levels.flatMap((l) => l.loops.map((loop) => loop.join(' → ')));

describe('the import graph', () => {
  it('measures loops, knots and the longest chain (on a small graph)', () => {
    const graph = graphOf({
      'server/main.ts': ['server/http/a.ts'],
      'server/http/a.ts': ['server/http/b.ts', 'server/openapi/c.ts'],
      'server/http/b.ts': ['server/openapi/c.ts'],
      'server/openapi/c.ts': ['server/clock/d.ts'],
      'server/clock/d.ts': ['server/http/e.ts'],
      'server/http/e.ts': [],
    });
    const folders = folderGraph(graph, 'server/');
    expect(folderLoops(folders).map((l) => l.join(' → '))).toEqual([
      'server/clock → server/http → server/openapi → server/clock',
    ]);
    expect(knots(folders)).toEqual([['server/clock', 'server/http', 'server/openapi']]);
    expect(longestChain(graph, 'server/main.ts')).toEqual([
      'server/main.ts',
      'server/http/a.ts',
      'server/http/b.ts',
      'server/openapi/c.ts',
      'server/clock/d.ts',
      'server/http/e.ts',
    ]);
    // two loops through one pair of folders are one knot; a root file is a node of its own
    const two = folderGraph(
      graphOf({
        'widget/a/x.ts': ['widget/b/y.ts', 'widget/m.ts'],
        'widget/b/y.ts': ['widget/a/z.ts'],
        'widget/m.ts': ['widget/b/y.ts'],
        'widget/a/z.ts': [],
      }),
      'widget/',
    );
    expect(folderLoops(two)).toEqual([
      ['widget/a', 'widget/b', 'widget/a'],
      ['widget/a', 'widget/m.ts', 'widget/b', 'widget/a'],
    ]);
    expect(knots(two)).toEqual([['widget/a', 'widget/b', 'widget/m.ts']]);
  });

  it('reads the real tree (the program reaches the routes, storage, the engine and the catalogue)', () => {
    const graph = repoGraph(REPO, false);
    const reached = new Set(['server/main.ts']);
    for (const m of reached) for (const next of graph.get(m) ?? []) reached.add(next);
    for (const part of ['server/http/routes/', 'server/storage/', 'shared/engine/', 'shared/params/'])
      expect(
        [...reached].some((m) => m.startsWith(part)),
        part,
      ).toBe(true);
    // the chain is a chain: each module imports the next, and the last imports nothing of the tree
    expect(figures.chain[0]).toBe('server/main.ts');
    for (const [i, m] of figures.chain.slice(1).entries()) expect(graph.get(figures.chain[i]!)).toContain(m);
    expect(graph.get(figures.chain.at(-1)!)).toEqual([]);
    expect(figures.levels.map((l) => l.level)).toEqual(['shared/', 'shared/engine/', 'server/', 'widget/']);
  });

  it('keeps the layer order: shared below the server and the widget, the widget beside the server', () => {
    const wrong = [...repoGraph(REPO, false)].flatMap(([from, imports]) => {
      const top = from.split('/')[0]!;
      return imports
        .filter((to) => to.split('/')[0] !== top && !(LAYERS[top] ?? (() => false))(to))
        .map((to) => `${from} imports ${to}`);
    });
    expect(wrong).toEqual([]);
  });

  it(`has at most ${FOLDER_LOOPS_AT_MOST} folder loops, none new (a ratchet: \`npm run graph\` lists them)`, () => {
    expect(loops.filter((loop) => !KNOWN_FOLDER_LOOPS.has(loop))).toEqual([]);
    expect(loops.length).toBeLessThanOrEqual(FOLDER_LOOPS_AT_MOST);
  });

  it(`has an import chain from server/main.ts of at most ${CHAIN_LINKS_AT_MOST} links (a ratchet)`, () => {
    const links = figures.chain.length - 1;
    expect(links, figures.chain.join('\n → ')).toBeLessThanOrEqual(CHAIN_LINKS_AT_MOST);
  });
});
