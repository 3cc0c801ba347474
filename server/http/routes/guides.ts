/**
 * The guides (docs/*.md, issue 34) served as HTML at /docs/guides: docs/README.md is the index,
 * docs/<name>.md is /docs/guides/<name>, its screenshots /docs/guides/screenshots/<file>.png.
 * The Markdown is rendered with marked, headings get GitHub's anchors (github-slugger), so a link
 * that works on GitHub works here: links between guides are rewritten to their /docs/guides
 * address, and a link to another file of the repository (which the gateway does not serve) is
 * shown as its path. Rendered once per guide, then kept (the files do not change while it runs).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import GithubSlugger from 'github-slugger';
import type { Context } from 'hono';
import { Marked, type Tokens } from 'marked';
import { esc, layout } from '../../openapi/pages/layout';

export const GUIDES_PATH = '/docs/guides';

/** docs/ of the installed gateway (beside server/ in the repository and in the package). */
export const DOCS_DIR = new URL('../../../docs/', import.meta.url).pathname;

/** A guide's name from its file: `api.md` → `api`; docs/README.md is the index (''). */
const nameOf = (file: string): string => (file === 'README.md' ? '' : file.replace(/\.md$/, ''));

/** The guides there are, by name. */
export function guideFiles(dir = DOCS_DIR): ReadonlyMap<string, string> {
  if (!existsSync(dir)) return new Map();
  return new Map(
    readdirSync(dir)
      .filter((file) => /^[\w-]+\.md$/.test(file))
      .map((file) => [nameOf(file), join(dir, file)] as const),
  );
}

/** Where a link of a guide goes once served: a guide's address, a screenshot's, or undefined (not served). */
export function servedHref(href: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) return href;
  const [path = '', anchor] = href.split('#');
  const target = posix.normalize(path);
  const hash = anchor === undefined ? '' : `#${anchor}`;
  if (target.startsWith('..') || target.startsWith('/')) return undefined;
  if (/^[\w-]+\.md$/.test(target)) {
    const name = nameOf(target);
    return `${GUIDES_PATH}${name === '' ? '' : `/${name}`}${hash}`;
  }
  if (/^screenshots\/[\w-]+\.png$/.test(target)) return `${GUIDES_PATH}/${target}`;
  return undefined;
}

/** The page of one guide: its first heading is the title. */
export function renderGuide(markdown: string): { title: string; html: string } {
  const slugger = new GithubSlugger();
  let title: string | undefined;
  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Heading) {
        // the first heading is the page's title, which the layout prints
        if (token.depth === 1 && title === undefined) {
          title = token.text.replace(/`/g, '');
          return '';
        }
        const id = slugger.slug(token.text.replace(/`/g, ''));
        return `<h${token.depth} id="${esc(id)}">${this.parser.parseInline(token.tokens)}</h${token.depth}>\n`;
      },
      link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Link) {
        const text = this.parser.parseInline(token.tokens);
        const href = servedHref(token.href);
        if (href === undefined) return `${text} (<code>${esc(token.href)}</code>)`;
        return `<a href="${esc(href)}">${text}</a>`;
      },
      image(token: Tokens.Image) {
        const src = servedHref(token.href);
        return src === undefined ? esc(token.text) : `<img src="${esc(src)}" alt="${esc(token.text)}">`;
      },
    },
  });
  const html = marked.parse(markdown, { async: false });
  return { title: title ?? 'Guides', html };
}

const PAGE_HEADERS = { 'Cache-Control': 'no-cache' } as const;

/** The guides' routes' handlers: the pages and the screenshots, or undefined for a 404. */
export function guidePages(dir = DOCS_DIR) {
  const files = guideFiles(dir);
  const pages = new Map<string, string>();
  const page = (name: string): string | undefined => {
    const file = files.get(name);
    if (file === undefined) return undefined;
    let html = pages.get(name);
    if (html === undefined) {
      const guide = renderGuide(readFileSync(file, 'utf8'));
      html = layout(GUIDES_PATH, guide.title, guide.html);
      pages.set(name, html);
    }
    return html;
  };
  return {
    page(c: Context, name: string, headers: Readonly<Record<string, string>>): Response | undefined {
      const html = page(name);
      return html === undefined ? undefined : c.html(html, 200, { ...headers, ...PAGE_HEADERS });
    },
    screenshot(c: Context, file: string, headers: Readonly<Record<string, string>>): Response | undefined {
      if (!/^[\w-]+\.png$/.test(file)) return undefined;
      const path = join(dir, 'screenshots', file);
      if (!existsSync(path)) return undefined;
      return c.body(new Uint8Array(readFileSync(path)), 200, {
        ...headers,
        'Content-Type': 'image/png',
        'Cache-Control': 'public, max-age=3600',
      });
    },
  };
}
