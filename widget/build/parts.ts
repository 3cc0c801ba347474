/**
 * The widget's parts: code split out of paymentWidgets.js, fetched from the gateway with the SRI
 * hash the script that asks for it carries.
 *
 * paymentWidgets.js is a small loader (issue 21): a classic script (IIFE) whose SRI hash the page
 * pins, whose first statements start the session read and the card frames (widget/core/early.ts),
 * and which then loads **the main part**, the rest of the widget (`import('./main')` in
 * widget/core/index.ts: Preact, the signals, boot, the methods). The main part in turn loads the
 * **parts** only some checkouts draw (the stored registrations' form, the billing address, the
 * non-card methods): every other `import('<literal>')` in widget/core or widget/components.
 *
 * A classic script cannot share modules with chunks the usual way, so each part is built alone:
 *
 * - Each part is bundled on its own (ES module): the modules of the part go in; every module the
 *   script that loads it holds (the loader's for the main part; the loader's and the main part's for
 *   the others: Preact, signals, core/context, internal/Field …) stays outside, and the part is
 *   rewritten to `export default function (need) {…; return exports}`, its imports read from
 *   `need(<module>)`. So it runs with the loader's and the main part's own instances (one Preact,
 *   one context, one frame bus), never a copy; and its body runs again for each load of
 *   paymentWidgets.js (a second script after `wpwl.unload()` starts afresh, as one IIFE did).
 * - It is written to dist/widget/parts/<name>-<hash>.js (a new name per content: cached immutable)
 *   and its sha384 noted.
 * - In the script that loads it the `import(…)` becomes `loadPart("<name>")` of the virtual module
 *   `virtual:wpwl-parts`, which holds the parts' files and hashes and the bindings they need
 *   (widget/core/parts.ts loads them: <link rel=modulepreload integrity> then import()). The main
 *   part's hash is inside paymentWidgets.js, the other parts' inside the main part: one chain of SRI
 *   from the page's integrity attribute.
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
/** paymentWidgets.js: the loader, the page's script. */
const LOADER = 'widget/core/index.ts';
/** The loader's one part: the rest of the widget. */
const MAIN = 'widget/core/main.ts';
const DYNAMIC_IMPORT = /\bimport\(\s*(['"])([^'"]+)\1\s*\)/g;
/** A module outside the part, as the part's output names it: `wpwl:<path below root>` or a package. */
const LOCAL = 'wpwl:';

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
      target: 'es2022',
      modulePreload: false,
      reportCompressedSize: false,
      rolldownOptions: { input, preserveEntrySignatures: 'strict', output: { format: 'es' } },
    },
  })) as Output;
}

/** The modules a script holds whatever the page draws: the static graph of `entry`. */
async function staticModules(root: string, entry: string): Promise<Set<string>> {
  const chunks = chunksOf(await bundle(root, join(root, entry), [], false));
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const modules = new Set<string>();
  // The entry's chunk and the chunks it imports statically (what its parts share with it).
  const visit = (chunk: Rolldown.OutputChunk | undefined) => {
    if (chunk === undefined || chunk.moduleIds.every((id) => modules.has(id))) return;
    for (const id of chunk.moduleIds) modules.add(id);
    for (const file of chunk.imports) visit(byName.get(file));
  };
  visit(chunks.find((c) => c.isEntry));
  if (modules.size === 0) throw new Error(`${entry} was not bundled`);
  return modules;
}

/**
 * Bundles one part: modules the scripts that load it hold (`outside`) are imported from them, the
 * others go in. `plugins`: the main part's own parts (`virtual:wpwl-parts`).
 */
async function bundlePart(
  root: string,
  entry: string,
  outside: ReadonlySet<string>,
  plugins: Plugin[] = [],
): Promise<string> {
  const external: Plugin = {
    name: 'wpwl-part-outside',
    enforce: 'pre',
    async resolveId(spec, importer, options) {
      if (importer === undefined) return null;
      const resolved = await this.resolve(spec, importer, { ...options, skipSelf: true });
      if (resolved === null || !outside.has(resolved.id)) return resolved;
      return { id: LOCAL + relative(root, resolved.id).split(sep).join('/'), external: true };
    },
  };
  const chunks = chunksOf(await bundle(root, entry, [external, ...plugins], true));
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

/** Parts from their entries and bundled code: wrapped, named by content, hashed for SRI. */
function assemble(entries: readonly string[], codes: readonly string[]): Parts {
  const splits = codes.map(splitPart);
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

/** What paymentWidgets.js loads: the main part, and the parts the main part loads. */
export interface WidgetParts {
  /** The loader's one part (widget/core/main.ts) and what it takes from the loader. */
  readonly main: Parts;
  /** The parts only some checkouts draw, loaded by the main part. */
  readonly drawn: Parts;
}

export async function buildParts(root: string): Promise<WidgetParts> {
  const loader = await staticModules(root, LOADER);
  const held = new Set([...loader, ...(await staticModules(root, MAIN))]);
  const entries = partEntries(root).filter((entry) => entry !== join(root, MAIN));
  const codes: string[] = [];
  for (const entry of entries) codes.push(await bundlePart(root, entry, held));
  const drawn = assemble(entries, codes);
  const main = join(root, MAIN);
  const mainCode = await bundlePart(root, main, loader, [partsPlugin(root, drawn)]);
  return { main: assemble([main], [mainCode]), drawn };
}

/** `virtual:wpwl-parts` of a script: each of its parts' file and hash, and what they need. */
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

/** In one script's build: its `import('./X')` of a part → `loadPart("X")` of `virtual:wpwl-parts`. */
function partsPlugin(root: string, parts: Parts | (() => Parts)): Plugin {
  const current = () => (typeof parts === 'function' ? parts() : parts);
  return {
    name: 'wpwl-parts-of-script',
    resolveId: (id) => (id === VIRTUAL ? RESOLVED : null),
    load: (id) => (id === RESOLVED ? partsModule(root, current()) : null),
    transform(code, id) {
      if (!/\.tsx?$/.test(id) || !id.startsWith(join(root, 'widget') + sep)) return null;
      let changed = false;
      const out = code.replace(DYNAMIC_IMPORT, (whole, _q: string, spec: string) => {
        const target = resolveSource(id, spec);
        const part = current().parts.find((p) => p.entry === target);
        if (part === undefined) return whole;
        changed = true;
        return `__wpwlPart(${JSON.stringify(part.name)})`;
      });
      return changed ? `import{loadPart as __wpwlPart}from${JSON.stringify(VIRTUAL)};${out}` : null;
    },
  };
}

/** The plugin of the widget's build (vite.config.ts): the loader's main part, the parts, their files. */
export function widgetParts(root: string): Plugin {
  let built: WidgetParts = {
    main: { parts: [], shared: new Map() },
    drawn: { parts: [], shared: new Map() },
  };
  const script = partsPlugin(root, () => built.main);
  return {
    ...script,
    name: 'wpwl-widget-parts',
    apply: 'build',
    async buildStart() {
      built = await buildParts(root);
    },
    generateBundle() {
      for (const part of [...built.main.parts, ...built.drawn.parts])
        this.emitFile({ type: 'asset', fileName: part.file, source: part.code });
    },
  };
}
