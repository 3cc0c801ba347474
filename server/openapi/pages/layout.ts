/**
 * The docs pages' frame: one static HTML document per page, no inline script or style (the
 * pages' CSP allows only the gateway's own files), a navigation between the pages.
 */
import { escapeHtml } from '../../security/html';

export const PAGES = [
  { path: '/docs/guides', title: 'Guides' },
  { path: '/docs', title: 'API reference' },
  { path: '/docs/widget', title: 'Widget' },
  { path: '/docs/test-data', title: 'Test cards and triggers' },
  { path: '/docs/webhooks', title: 'Webhooks' },
  { path: '/docs/reconciliation', title: 'Reconciliation file' },
] as const;

/**
 * What the docs pages may load: the gateway's own scripts, styles, images and the document.
 * Redoc builds its search index in a worker it starts from a blob, and sets element styles.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const esc = escapeHtml;

/** A table: a header row and the rows' cells, already HTML. */
export function table(
  caption: string,
  head: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  return `<table><caption>${esc(caption)}</caption><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((cell) => `<td>${cell}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

export const code = (text: string) => `<code>${esc(text)}</code>`;
export const pre = (text: string, label: string) =>
  `<pre aria-label="${esc(label)}" tabindex="0"><code>${esc(text)}</code></pre>`;

/** A page: the navigation, then the body (`bare`: without the page's own heading, as Redoc brings its own). */
export function layout(current: string, title: string, body: string, bare = false): string {
  const nav = PAGES.map(
    (p) =>
      `<li><a href="${p.path}"${p.path === current ? ' aria-current="page"' : ''}>${esc(p.title)}</a></li>`,
  ).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Open Payment Gateway</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/assets/docs.css">
</head>
<body>
<header><nav aria-label="Documentation"><ul>${nav}<li><a href="/v1/openapi.json">openapi.json</a></li></ul></nav></header>
<main id="main"${bare ? ' class="api"' : ''}>
${bare ? '' : `<h1>${esc(title)}</h1>\n`}${body}
</main>
</body>
</html>
`;
}
