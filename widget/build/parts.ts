/**
 * The widget's parts: code only some checkouts need (the stored registrations' form, the billing
 * address), split out of paymentWidgets.js and fetched from the gateway when first drawn.
 *
 * paymentWidgets.js is one classic script (IIFE) whose SRI hash the page pins, so it cannot share
 * modules with chunks the usual way. Each `import('<literal>')` in widget/core or widget/components
 * makes a part instead:
 *
 * - Before the main bundle, each part is bundled on its own (ES module): the modules of the part's
 *   folder go in; every other module it imports (Preact, signals, core/context, internal/Field …)
 *   stays outside, and the part is rewritten to `export default (need) => {…; return exports}`, its
 *   imports read from `need(<module>)`. So it runs with paymentWidgets.js's own instances (one
 *   Preact, one context), never a copy.
 * - It is written to dist/widget/parts/<name>-<hash>.js (a new name per content: cached immutable)
 *   and its sha384 noted.
 * - In the main bundle the `import(…)` becomes `loadPart("<name>")` of the virtual module
 *   `virtual:wpwl-parts`, which holds every part's file and hash and the bindings parts need
 *   (widget/core/parts.ts loads them: <link rel=modulepreload integrity> then import()). The
 *   hashes are inside paymentWidgets.js, whose own hash the page checks: one chain of SRI.
 *
 * Under Vitest nothing of this applies (build only): `import()` loads the module as written.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { build, type Plugin, type Rolldown } from 'vite';

const VIRTUAL = 'virtual:wpwl-parts';
const RESOLVED = `\0${VIRTUAL}`;
/** Where parts may be asked for: core and the components (not the frames or the admin pages). */
const SCANNED = ['widget/core', 'widget/components'];
const DYNAMIC_IMPORT = /\bimport\(\s*(['"])([^'"]+)\1\s*\)/g;
/** A module outside the part, as the part's output names it: `wpwl:<path below root>` or a package. */
const LOCAL = 'wpwl:';
const MAIN = 'widget/paymentWidgets.ts';

export interface BuiltPart {
  readonly name: string;
  /** The part's module (absolute path). */
  readonly entry: string;
  /** Below dist/widget/: parts/<name>-<hash>.js */
  readonly file: string;
  readonly code: string;
  readonly integrity: string;
}

const isSource = (name: string) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name);

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(path));
    else if (isSource(entry.name)) out.push(path);
  }
  return out;
}

function resolveSource(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = join(dirname(from), spec);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ]) {
    try {
      if (isSource(candidate) && readFileSync(candidate)) return candidate;
    } catch {}
  }
  return undefined;
}

/** Every module some widget source imports with `import('./…')`: the parts' entries. */
export function partEntries(root: string): string[] {
  const found = new Set<string>();
  for (const dir of SCANNED) {
    for (const file of sources(join(root, dir))) {
      for (const m of readFileSync(file, 'utf8').matchAll(DYNAMIC_IMPORT)) {
        const target = resolveSource(file, m[2]!);
        if (target === undefined) throw new Error(`${file}: import('${m[2]}') names no widget module`);
        found.add(target);
      }
    }
  }
  return [...found].sort();
}

const partName = (entry: string) => basename(entry, extname(entry));

type Output = Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
const chunksOf = (output: Output): Rolldown.OutputChunk[] =>
  (Array.isArray(output) ? output : [output]).flatMap((o) =>
    o.output.filter((f): f is Rolldown.OutputChunk => f.type === 'chunk'),
  );

/** A build of widget code in memory (the main graph's survey, each part). */
async function bundle(root: string, input: string, plugins: Plugin[], minify: boolean): Promise<Output> {
  return (await build({
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    root,
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    plugins,
    build: {
      write: false,
      minify,
      target: 'es2022', // as the main build (vite.config.ts)
      modulePreload: false,
      reportCompressedSize: false,
      rolldownOptions: { input, preserveEntrySignatures: 'strict', output: { format: 'es' } },
    },
  })) as Output;
}

/** The modules paymentWidgets.js holds whatever the page draws: its static graph. */
async function mainModules(root: string): Promise<Set<string>> {
  const chunks = chunksOf(await bundle(root, join(root, MAIN), [], false));
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const modules = new Set<string>();
  // The entry's chunk and the chunks it imports statically (what the parts share with it).
  const visit = (chunk: Rolldown.OutputChunk | undefined) => {
    if (chunk === undefined || chunk.moduleIds.every((id) => modules.has(id))) return;
    for (const id of chunk.moduleIds) modules.add(id);
    for (const file of chunk.imports) visit(byName.get(file));
  };
  visit(chunks.find((c) => c.isEntry));
  if (modules.size === 0) throw new Error('the widget entry was not bundled');
  return modules;
}

/** Bundles one part: modules paymentWidgets.js holds are imported from it, the others go in. */
async function bundlePart(root: string, entry: string, main: ReadonlySet<string>): Promise<string> {
  const outside: Plugin = {
    name: 'wpwl-part-outside',
    enforce: 'pre',
    async resolveId(spec, importer, options) {
      if (importer === undefined) return null;
      const resolved = await this.resolve(spec, importer, { ...options, skipSelf: true });
      if (resolved === null || !main.has(resolved.id)) return resolved;
      return { id: LOCAL + relative(root, resolved.id).split(sep).join('/'), external: true };
    },
  };
  const chunks = chunksOf(await bundle(root, entry, [outside], true));
  if (chunks.length !== 1) throw new Error(`part ${entry}: expected one chunk, got ${chunks.length}`);
  return chunks[0]!.code;
}

const IMPORT = /^\s*import\s*\{([^}]*)\}\s*from\s*"([^"]+)";?/;
const EXPORT = /export\s*\{([^}]*)\};?\s*$/;

/** `a as b, c` → [[a, b], [c, c]] */
const specifiers = (list: string): [string, string][] =>
  list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => {
      const [name = s, as = name] = s.split(/\s+as\s+/);
      return [name, as];
    });

interface Split {
  readonly imports: readonly (readonly [from: string, names: readonly [string, string][]])[];
  readonly body: string;
  readonly exports: readonly [string, string][];
}

/**
 * A part's ES module, taken apart: its leading named imports, its body, its trailing export. Any
 * other import or export form is refused (the build fails), so nothing is left unresolved.
 */
export function splitPart(code: string): Split {
  let rest = code;
  const imports: [string, [string, string][]][] = [];
  for (let m = IMPORT.exec(rest); m !== null; m = IMPORT.exec(rest)) {
    imports.push([m[2]!, specifiers(m[1]!)]);
    rest = rest.slice(m[0].length);
  }
  const exported = EXPORT.exec(rest);
  if (exported === null) throw new Error(`a part must end with export {…}: …${code.slice(-200)}`);
  const body = rest.slice(0, exported.index);
  const bare = body.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
  if (/(^|[;}\s])(import|export)\s*[{*\w"']/.test(bare))
    throw new Error('a part may only use named imports and one trailing export {…}');
  return { imports, body, exports: specifiers(exported[1]!) };
}

/**
 * Every module parts import from paymentWidgets.js, numbered, with the bindings they use in order:
 * a part reads binding j of module i as `need(i)[j]`.
 */
function sharedTable(splits: readonly Split[]): Map<string, string[]> {
  const table = new Map<string, string[]>();
  for (const split of splits) {
    for (const [from, names] of split.imports) {
      const list = table.get(from) ?? [];
      table.set(from, list);
      for (const [name] of names) if (!list.includes(name)) list.push(name);
    }
  }
  return table;
}

/** `export default function (need) {…}`: imports read from `need(i)`, the exports returned. */
function wrapPart(split: Split, table: ReadonlyMap<string, readonly string[]>): string {
  const modules = [...table.keys()];
  const reads = split.imports.map(([from, names]) => {
    const list = table.get(from)!;
    return `const{${names.map(([n, as]) => `${list.indexOf(n)}:${as}`).join(',')}}=need(${modules.indexOf(from)});`;
  });
  const returned = split.exports.map(([local, as]) => `${JSON.stringify(as)}:${local}`);
  return `export default function(need){${reads.join('')}${split.body}return{${returned.join(',')}}}\n`;
}

export interface Parts {
  readonly parts: BuiltPart[];
  /** Module (`wpwl:<path>`) → the bindings parts use, in their index order. */
  readonly shared: ReadonlyMap<string, readonly string[]>;
}

export async function buildParts(root: string): Promise<Parts> {
  const entries = partEntries(root);
  if (entries.length === 0) return { parts: [], shared: new Map() };
  const main = await mainModules(root);
  const splits: Split[] = [];
  for (const entry of entries) splits.push(splitPart(await bundlePart(root, entry, main)));
  const shared = sharedTable(splits);
  const parts: BuiltPart[] = entries.map((entry, i) => {
    const code = wrapPart(splits[i]!, shared);
    const name = partName(entry);
    const hash = createHash('sha256').update(code).digest('base64url').slice(0, 10);
    const integrity = `sha384-${createHash('sha384').update(code).digest('base64')}`;
    return { name, entry, file: `parts/${name}-${hash}.js`, code, integrity };
  });
  const names = parts.map((p) => p.name);
  if (new Set(names).size !== names.length) throw new Error(`two parts share a name: ${names.join(', ')}`);
  return { parts, shared };
}

/** The main bundle's `virtual:wpwl-parts`: each part's file and hash, and what parts need. */
export function partsModule(root: string, { parts, shared }: Parts): string {
  const imports: string[] = [];
  const lists: string[] = [];
  let n = 0;
  for (const [from, names] of shared) {
    const path = JSON.stringify(join(root, from.slice(LOCAL.length)));
    const locals = names.map(() => `p${n++}`);
    imports.push(`import{${names.map((name, i) => `${name} as ${locals[i]}`).join(',')}}from${path};`);
    lists.push(`[${locals.join(',')}]`);
  }
  const table = parts.map(
    (p) => `${JSON.stringify(p.name)}:[${JSON.stringify(p.file)},${JSON.stringify(p.integrity)}]`,
  );
  const runtime = JSON.stringify(join(root, 'widget/core/parts.ts'));
  return `import{partLoader}from${runtime};${imports.join('')}export const loadPart=partLoader({${table.join(',')}},[${lists.join(',')}]);\n`;
}

/** The plugin of the main build (vite.config.ts). */
export function widgetParts(root: string): Plugin {
  let parts: Parts = { parts: [], shared: new Map() };
  return {
    name: 'wpwl-widget-parts',
    apply: 'build',
    async buildStart() {
      parts = await buildParts(root);
    },
    resolveId: (id) => (id === VIRTUAL ? RESOLVED : null),
    load: (id) => (id === RESOLVED ? partsModule(root, parts) : null),
    transform(code, id) {
      if (!/\.tsx?$/.test(id) || !id.startsWith(join(root, 'widget') + sep)) return null;
      let changed = false;
      const out = code.replace(DYNAMIC_IMPORT, (whole, _q: string, spec: string) => {
        const target = resolveSource(id, spec);
        const part = parts.parts.find((p) => p.entry === target);
        if (part === undefined) return whole;
        changed = true;
        return `__wpwlPart(${JSON.stringify(part.name)})`;
      });
      return changed ? `import{loadPart as __wpwlPart}from${JSON.stringify(VIRTUAL)};${out}` : null;
    },
    generateBundle() {
      for (const part of parts.parts)
        this.emitFile({ type: 'asset', fileName: part.file, source: part.code });
    },
  };
}
