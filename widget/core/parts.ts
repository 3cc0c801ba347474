/**
 * Loads a part of the widget (widget/build/parts.ts): a module split out of paymentWidgets.js,
 * served by the gateway as /v1/widget/parts/<name>-<hash>.js. The file's sha384 is inside
 * paymentWidgets.js: a `<link rel=modulepreload integrity>` fetches and checks it, so the
 * `import()` after it takes the checked module from the document's module map (a failed check
 * leaves an error there, and the part is refused). The module's default export is called with the
 * bindings it imports from paymentWidgets.js, and gives the part's exports.
 */

/** Module i → the bindings parts import from it, in the build's order (it writes this table). */
export type Provided = readonly (readonly unknown[])[];
type PartModule = { default: (need: (module: number) => readonly unknown[]) => Record<string, unknown> };

/** Where parts come from: the gateway's `/v1/` and the widget script's nonce (boot sets it). */
const from: { base?: string; nonce?: string | undefined; doc?: Document } = {};

export function partsFrom(doc: Document, base: string, nonce: string | undefined): void {
  from.doc = doc;
  from.base = base;
  from.nonce = nonce;
}

function preload(doc: Document, url: string, integrity: string, nonce: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const link = doc.createElement('link');
    if (!link.relList.supports('modulepreload')) {
      reject(new Error('this browser cannot check the integrity of a module (modulepreload)'));
      return;
    }
    link.rel = 'modulepreload';
    link.crossOrigin = 'anonymous';
    link.integrity = integrity;
    if (nonce) link.nonce = nonce;
    link.href = url;
    link.onload = () => {
      link.remove();
      resolve();
    };
    link.onerror = () => {
      link.remove();
      reject(new Error(`${url} did not load or failed its integrity check`));
    };
    (doc.head ?? doc.documentElement).append(link);
  });
}

async function load(file: string, integrity: string, provided: Provided): Promise<Record<string, unknown>> {
  const { doc, base, nonce } = from;
  if (doc === undefined || base === undefined) throw new Error('the widget has not started');
  const url = new URL(`widget/${file}`, base).href;
  await preload(doc, url, integrity, nonce);
  const module = (await import(/* @vite-ignore */ url)) as PartModule;
  return module.default((name) => {
    const bindings = provided[name];
    if (bindings === undefined)
      throw new Error(`a part needs ${name}, which paymentWidgets.js does not give`);
    return bindings;
  });
}

/** `loadPart(name)`: the part's exports, loaded once (again after a failure). */
export function partLoader(
  table: Readonly<Record<string, readonly [file: string, integrity: string]>>,
  provided: Provided,
): (name: string) => Promise<Record<string, unknown>> {
  const loading = new Map<string, Promise<Record<string, unknown>>>();
  return (name) => {
    let promise = loading.get(name);
    if (promise === undefined) {
      const entry = table[name];
      promise =
        entry === undefined
          ? Promise.reject(new Error(`no part named ${name}`))
          : load(entry[0], entry[1], provided);
      promise.catch(() => loading.delete(name));
      loading.set(name, promise);
    }
    return promise;
  };
}
