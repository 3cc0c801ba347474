/**
 * /docs/widget, from the widget's own sources: the options as `window.wpwlOptions` declares them
 * (widget/core/options.ts), the classes and custom properties of its style sheet
 * (widget/styles/paymentWidgets.css), its languages (widget/language), and the CSP a shop page sets.
 */
import { readFileSync } from 'node:fs';
import { LOCALES } from '../../../widget/language';
import { code, esc, layout, pre, table } from './layout';

const source = (path: string) => readFileSync(new URL(`../../../widget/${path}`, import.meta.url), 'utf8');

interface Option {
  readonly name: string;
  readonly type: string;
  readonly says: string;
}

/** The members of `interface WpwlOptions`, each with its doc comment. */
export function widgetOptions(text = source('core/options.ts')): Option[] {
  const start = text.indexOf('export interface WpwlOptions {');
  const body = text.slice(start, text.indexOf('\n}', start)).split('\n').slice(1);
  const out: Option[] = [];
  let comment: string[] = [];
  for (const line of body) {
    const trimmed = line.trim();
    if (trimmed.startsWith('/**') || trimmed.startsWith('*')) {
      comment.push(trimmed.replace(/^\/\*\*|\*\/$|^\*\/?/g, '').trim());
      continue;
    }
    const member = /^ {2}(\w+)\??: (.+);$/.exec(line);
    if (member !== null)
      out.push({ name: member[1]!, type: member[2]!, says: comment.filter(Boolean).join(' ') });
    comment = [];
  }
  return out;
}

/** The `wpwl-*` classes and the `--wpwl-*` custom properties with their defaults (`var(--wpwl-x, default)`). */
export function widgetStyles(css = source('styles/paymentWidgets.css')) {
  const classes = [...new Set([...css.matchAll(/\.(wpwl-[a-z0-9-]+)/g)].map((m) => m[1]!))].sort();
  const variables = new Map<string, string>();
  for (const m of css.matchAll(/var\((--wpwl-[a-z0-9-]+)\s*,\s*((?:[^()]|\([^()]*\))*)\)/g))
    if (!variables.has(m[1]!)) variables.set(m[1]!, m[2]!.trim());
  return { classes, variables };
}

const SHOP_CSP = [
  "script-src 'self' {gateway} 'nonce-…'",
  "style-src 'self' {gateway} 'unsafe-inline'",
  'frame-src {gateway}',
  "connect-src 'self' {gateway}",
  "img-src 'self' {gateway} data:",
  "require-trusted-types-for 'script'",
].join('; ');

export function widgetPage(): string {
  const options = widgetOptions();
  const isCallback = (o: Option) => /^on[A-Z]/.test(o.name) || o.type.includes('=>');
  const optionRows = (list: Option[]) =>
    list.map((o) => [code(o.name), code(o.type), esc(o.says || '\u2014')]);
  const { classes, variables } = widgetStyles();
  const body = `
<p>A shop page loads the widget with ${code('<script src="{gateway}/v1/paymentWidgets.js?checkoutId={id}"></script>')} and a
${code('<form action="{shopperResultUrl}" class="paymentWidgets" data-brands="VISA MASTER">')}; it reads ${code('window.wpwlOptions')} once, when the script runs.</p>
<h2>Options</h2>
${table('wpwlOptions', ['Option', 'Type', 'What it does'], optionRows(options.filter((o) => !isCallback(o))))}
<h2>Callbacks</h2>
${table('wpwlOptions callbacks', ['Callback', 'Type', 'When it runs'], optionRows(options.filter(isCallback)))}
<h2>CSS classes</h2>
<p>${classes.map(code).join(' ')}</p>
<h2>CSS custom properties</h2>
${table(
  'Theme variables',
  ['Property', 'Default'],
  [...variables].map(([n, v]) => [code(n), code(v)]),
)}
<h2>Languages</h2>
<p>${code('wpwlOptions.locale')}: ${LOCALES.map(code).join(' ')}. English is built in; the others are fetched from ${code('/v1/widget/locales/{code}.json')} when asked for; ${code('labels')} and ${code('errorMessages')} override any text.</p>
<h2>Content Security Policy of the shop page</h2>
<p>The card number and CVV are typed into frames of the gateway's origin, so the page allows the gateway as a script, frame, style and connection source (replace ${code('{gateway}')} with its address):</p>
${pre(SHOP_CSP, 'Content-Security-Policy')}
<p>Pin the script with Subresource Integrity: ${code('integrity=true')} at checkout creation answers the hash (or ${code('GET /v1/fastcheckout/integrity')}).</p>`;
  return layout('/docs/widget', 'Widget', body);
}
