/**
 * The frame documents' Content-Security-Policy: the build documents' strict one (scripts, styles
 * and connections from the gateway alone), any page may frame them, their forms go nowhere; and
 * each inline script the document itself holds allowed by its SHA-256, nothing else inline.
 *
 * The card-field document carries its script inline (widget/build/inline-frame-script.ts: no
 * request after the document). Its hash is read from the bytes served, so the policy and the
 * document cannot disagree after a rebuild; the documents are the build's own files, never
 * anything a request wrote.
 */
import { createHash } from 'node:crypto';
import { buildDocumentCsp } from './build-files';

/** Every `<script>` element without `src`: its text, as the browser hashes it. */
const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** A frame document's policy, allowing these inline scripts (`'sha256-…'`). */
const policyWith = (inlineScripts: readonly string[]) =>
  buildDocumentCsp({ frameAncestors: '*', formAction: "'none'", inlineScripts });

/** The policy of a frame document with no inline script (the wallet sheet's). */
export const FRAME_CSP = policyWith([]);

// A build's bodies are kept for as long as the build is served (build-files.ts): one hash each.
const policies = new WeakMap<Uint8Array, string>();

/** The policy of this frame document: FRAME_CSP, with its inline scripts' hashes. */
export function frameCsp(document: Uint8Array): string {
  let policy = policies.get(document);
  if (policy === undefined) {
    const html = Buffer.from(document.buffer, document.byteOffset, document.byteLength).toString('utf8');
    const inlineScripts = [...html.matchAll(INLINE_SCRIPT)].map((m) => sha256(m[1]!));
    policy = inlineScripts.length === 0 ? FRAME_CSP : policyWith(inlineScripts);
    policies.set(document, policy);
  }
  return policy;
}
