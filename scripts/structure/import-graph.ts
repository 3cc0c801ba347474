/**
 * The tree's import graph as the figures issue 31 measures (`npm run graph` prints them, and
 * structure.test.ts holds them): file cycles, folder loops at each level a newcomer reads the tree
 * by, and the longest import chain from the gateway's program. Imports are read by the structure
 * tests' one reader (server/test-kit/source-tree.ts: relative imports and re-exports, type-only and
 * dynamic ones included, `.js` suffixes and folder index files resolved), so this tool and the
 * tests can never disagree about an edge.
 */
import { join, relative, sep } from 'node:path';
// biome-ignore lint/style/noRestrictedImports: the structure tools read the tree with the tests' one reader; scripts/ never ships
import { cycles, importGraph, isTest, modulesUnder } from '../../server/test-kit/source-tree';

/** Module → the modules it imports, both as repository-relative names with forward slashes. */
export type Graph = Map<string, string[]>;

export const ROOTS = ['shared', 'server', 'widget', 'bin', 'scripts'];
/** The test kit: test helpers, doubles and fixtures that production never imports. */
export const TEST_KIT = 'server/test-kit/';
/** The program `npm start` runs (bundled into dist/server/main.js). */
export const PROGRAM = 'server/main.ts';

/**
 * The levels folder loops are counted at: every folder directly below each prefix is one node
 * (shared/engine is one node of the `shared/` level and the whole of the `shared/engine/` level).
 * A file directly in the prefix is a node by itself (server/gateway.ts, server/mode.ts): lumping
 * them together would join the composition root, which imports every folder, to the small modules
 * folders import (mode.ts), and count loops no file makes.
 */
export const LEVELS = ['shared/', 'shared/engine/', 'server/', 'widget/'];

export const isProduction = (name: string) =>
  !isTest(name) && !/^(e2e|bench)\//.test(name) && !name.startsWith(TEST_KIT);

/** The graph of every module under ROOTS (tests too when includeTests), edges inside the tree only. */
export function repoGraph(repo: string, includeTests: boolean): Graph {
  const name = (path: string) => relative(repo, path).split(sep).join('/');
  const modules = ROOTS.flatMap((root) => modulesUnder(join(repo, root), true)).filter(
    (path) => includeTests || isProduction(name(path)),
  );
  const graph: Graph = new Map();
  for (const [from, to] of importGraph(modules))
    graph.set(name(from), to.filter((t) => t.startsWith(repo + sep)).map(name));
  for (const [from, to] of graph) graph.set(from, [...new Set(to.filter((t) => graph.has(t)))]);
  return graph;
}

/** Every file cycle, each once, as `a → b → … → a`. */
export function fileCycles(graph: Graph): string[] {
  return cycles(graph, (m) => m).map((c) => c.join(' → '));
}

/** The node of `level` a module belongs to, or undefined outside the level's prefix. */
export function folderOf(level: string, module: string): string | undefined {
  if (!module.startsWith(level)) return undefined;
  const rest = module.slice(level.length);
  const slash = rest.indexOf('/');
  return slash === -1 ? module : level + rest.slice(0, slash);
}

/** The folders of one level and which of them import which (a folder's imports of itself aside). */
export function folderGraph(graph: Graph, level: string): Map<string, Set<string>> {
  const folders = new Map<string, Set<string>>();
  for (const [from, imports] of graph) {
    const a = folderOf(level, from);
    if (a === undefined) continue;
    const edges = folders.get(a) ?? new Set<string>();
    folders.set(a, edges);
    for (const to of imports) {
      const b = folderOf(level, to);
      if (b !== undefined && b !== a) edges.add(b);
    }
  }
  return folders;
}

/** Past this many loops in one level the listing stops (the count says "at least"). */
export const LOOP_LIMIT = 10_000;

/**
 * Every elementary loop A → B → … → A of a folder graph, each once, starting from its smallest
 * folder by name. Loops, not knots, are counted: untying one import removes loops and never adds
 * one, so the count only goes down as the knots are untied (a ratchet can hold it).
 */
export function folderLoops(folders: Map<string, Set<string>>): string[][] {
  const names = [...folders.keys()].sort();
  const found: string[][] = [];
  for (const start of names) {
    const path = [start];
    const onPath = new Set(path);
    const walk = (at: string) => {
      for (const next of [...(folders.get(at) ?? [])].sort()) {
        if (found.length >= LOOP_LIMIT) return;
        if (next === start) found.push([...path, start]);
        else if (next > start && !onPath.has(next)) {
          path.push(next);
          onPath.add(next);
          walk(next);
          onPath.delete(next);
          path.pop();
        }
      }
    };
    walk(start);
  }
  return found;
}

/**
 * The knots of a folder graph: each set of two or more folders that all reach one another
 * (strongly connected components, Tarjan's algorithm), the folders of each sorted by name.
 */
export function knots(folders: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of folders.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const knot: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      knot.push(w);
    } while (w !== v);
    if (knot.length > 1) found.push(knot.sort());
  };
  for (const v of [...folders.keys()].sort()) if (!index.has(v)) connect(v);
  return found;
}

/**
 * The longest import chain from `from`: the modules in order, so its length in links is one less
 * than its modules. The graph has no file cycle (structure.test.ts), so it is a longest path in a
 * DAG; should a cycle appear, the import closing it is skipped rather than followed forever.
 */
export function longestChain(graph: Graph, from: string): string[] {
  const best = new Map<string, string[]>();
  const open = new Set<string>();
  const chainFrom = (m: string): string[] => {
    const known = best.get(m);
    if (known !== undefined) return known;
    open.add(m);
    let longest: string[] = [];
    for (const next of graph.get(m) ?? []) {
      if (open.has(next)) continue;
      const chain = chainFrom(next);
      if (chain.length > longest.length) longest = chain;
    }
    open.delete(m);
    const chain = [m, ...longest];
    best.set(m, chain);
    return chain;
  };
  return graph.has(from) ? chainFrom(from) : [];
}

/** The figures the structure test holds and `npm run graph` prints. */
export interface GraphFigures {
  fileCycles: string[];
  levels: { level: string; loops: string[][]; knots: string[][] }[];
  chain: string[];
}

export function measure(repo: string): GraphFigures {
  const production = repoGraph(repo, false);
  return {
    fileCycles: fileCycles(repoGraph(repo, true)),
    levels: LEVELS.map((level) => {
      const folders = folderGraph(production, level);
      return { level, loops: folderLoops(folders), knots: knots(folders) };
    }),
    chain: longestChain(production, PROGRAM),
  };
}
