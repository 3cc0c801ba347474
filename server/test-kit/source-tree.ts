/**
 * Reading the source tree for the structure tests (scripts/structure/structure.test.ts, and the
 * engine's, storage's and the widget's import-graph tests): the .ts/.tsx files under a folder, their relative imports
 * (a regex over the import and re-export statements, type-only ones included: a cycle of types is
 * still a knot a newcomer has to untie), the cycles of the graph they form, and the size of every
 * function (on the AST of oxc's parser, which rolldown ships).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseAst } from 'rolldown/parseAst';

/** `import … from '…'`, `export … from '…'` (also multi-line and type-only), `import '…'`, `import('…')`. */
const STATIC =
  /^[ \t]*(?:import|export)\s+(?:type\s+)?(?:\{[^}]*\}|\*(?:\s+as\s+\w+)?|\w+(?:\s*,\s*(?:\{[^}]*\}|\*\s+as\s+\w+))?)\s+from\s+['"]([^'"]+)['"]/gm;
const BARE = /^[ \t]*import\s+['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The module specifiers a source imports or re-exports, in the order of the three patterns. */
export function importsOf(source: string): string[] {
  return [...source.matchAll(STATIC), ...source.matchAll(BARE), ...source.matchAll(DYNAMIC)].map(
    (m) => m[1]!,
  );
}

const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.git']);

/** Every .ts/.tsx file under dir (declaration files aside); tests too when includeTests. */
export function modulesUnder(dir: string, includeTests = false): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!SKIPPED_FOLDERS.has(name)) found.push(...modulesUnder(path, includeTests));
    } else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts') && (includeTests || !isTest(name)))
      found.push(path);
  }
  return found;
}

export const isTest = (path: string) => /\.test\.tsx?$/.test(path);

/** A relative specifier resolved to the file it names (bare specifiers are returned as they are). */
export function resolveImport(from: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return base;
}

/** Each module → the files it imports (resolved; bare specifiers kept as they are). */
export function importGraph(modules: string[]): Map<string, string[]> {
  return new Map(modules.map((m) => [m, importsOf(readFileSync(m, 'utf8')).map((s) => resolveImport(m, s))]));
}

/** Every cycle a depth-first search meets (each reported once, from the first module it reaches). */
export function cycles(graph: Map<string, string[]>, name: (path: string) => string): string[][] {
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
  for (const m of graph.keys()) if (!state.has(m)) visit(m);
  return found;
}

type Node = { type: string; start: number; end: number; [key: string]: unknown };
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

function keyName(key: unknown): string | undefined {
  if (!isNode(key)) return undefined;
  if (key.type === 'Identifier' || key.type === 'PrivateIdentifier') return key.name as string;
  if (key.type === 'Literal') return String(key.value);
  return undefined;
}

/** Every function of a file with its name (or its parent's: variable, property, method) and lines. */
export function functionSizes(path: string, source: string): { name: string; lines: number }[] {
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const found: { name: string; lines: number }[] = [];
  const walk = (node: Node, parent: Node | undefined) => {
    if (FUNCTIONS.has(node.type)) {
      const own = keyName(node.id);
      const fromParent =
        parent?.type === 'VariableDeclarator'
          ? keyName(parent.id)
          : parent?.type === 'Property' ||
              parent?.type === 'MethodDefinition' ||
              parent?.type === 'PropertyDefinition'
            ? keyName(parent.key)
            : undefined;
      const line = lineOf(node.start);
      found.push({
        name: own ?? fromParent ?? `<anonymous>@${line}`,
        lines: lineOf(Math.max(node.start, node.end - 1)) - line + 1,
      });
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) for (const child of value) if (isNode(child)) walk(child, node);
      if (isNode(value)) walk(value, node);
    }
  };
  walk(parseAst(source, { lang: path.endsWith('.tsx') ? 'tsx' : 'ts' }, path) as unknown as Node, undefined);
  return found;
}
