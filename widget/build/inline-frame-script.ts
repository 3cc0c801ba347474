/**
 * The card-field frame's script, written into its document (issue 21): the frame then makes no
 * request after its document, so its script runs as soon as the frame's renderer has parsed it,
 * instead of one more round trip to the gateway (which, at that moment, also answers the page's
 * session read and styles). Measured with `bench/widget.bench.ts`: bench/README.md.
 *
 * The document stays `no-cache` and revalidated by its ETag, so a warm load still reads nothing
 * but a 304. The gateway allows the inline script by its SHA-256 in the document's CSP
 * (server/http/routes/frame-csp.ts derives it from the document it serves), so the policy stays
 * as strict as before: no other inline script, no `unsafe-inline`.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Vite's tag for an entry script: `<script type="module" crossorigin src="./assets/<name>-<hash>.js"></script>`. */
const ENTRY_TAG = /<script type="module" crossorigin src="\.\/(assets\/[\w.-]+\.js)"><\/script>/;

/** A static or dynamic import of another file, as the minifier writes it. */
const IMPORTS = /\bimport\s*\(|\bimport\s*["'{*]|\bfrom\s*["']\.{0,2}\//;

/**
 * Rewrites `<framesDir>/<document>` with its entry script inline and deletes the script file.
 * Refuses (throws) when the document has no such tag, or the script imports another file (an
 * inline module resolves imports against the document: it would still need a request), or holds
 * `</script` (it would end the element early).
 */
export function inlineFrameScript(framesDir: string, document: string): void {
  const path = join(framesDir, document);
  const html = readFileSync(path, 'utf8');
  const tag = ENTRY_TAG.exec(html);
  if (tag === null) throw new Error(`${document}: no module entry script to inline`);
  const scriptPath = join(framesDir, tag[1]!);
  const code = readFileSync(scriptPath, 'utf8').trimEnd();
  if (IMPORTS.test(code))
    throw new Error(`${document}: its script imports other files; it cannot be inlined alone`);
  if (/<\/script/i.test(code)) throw new Error(`${document}: its script contains </script`);
  writeFileSync(
    path,
    html.replace(tag[0], () => `<script type="module">${code}</script>`),
  );
  rmSync(scriptPath);
}
