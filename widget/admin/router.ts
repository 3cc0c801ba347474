/**
 * A tiny router on the location's hash (`#/merchants/m1/payments?status=success`): the dashboard is
 * one document at /admin/, so links and reloads need no server route per page. `route` is a signal
 * of the parsed location; `match` finds the page and its path parameters.
 */
import { signal } from '@preact/signals';

export interface Location {
  readonly path: string;
  readonly query: URLSearchParams;
}

function read(): Location {
  const hash = window.location.hash.replace(/^#/, '') || '/';
  const at = hash.indexOf('?');
  const path = at === -1 ? hash : hash.slice(0, at);
  return {
    path: path.startsWith('/') ? path : `/${path}`,
    query: new URLSearchParams(at === -1 ? '' : hash.slice(at + 1)),
  };
}

export const route = signal<Location>(read());

window.addEventListener('hashchange', () => {
  route.value = read();
});

/** The href of a page: `href('/merchants/m1', {status: 'success'})` → `#/merchants/m1?status=success`. */
export function href(path: string, query?: Readonly<Record<string, string | undefined>>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value) params.set(name, value);
  const text = params.toString();
  return `#${path}${text === '' ? '' : `?${text}`}`;
}

/**
 * Goes to a page; `replace` changes the current history entry instead of adding one (a page's
 * filters as the user changes them, so Back leaves the page rather than undoing each choice).
 */
export function navigate(
  path: string,
  query?: Readonly<Record<string, string | undefined>>,
  options: { readonly replace?: boolean } = {},
): void {
  const target = href(path, query);
  if (options.replace) {
    window.history.replaceState(window.history.state, '', target);
    route.value = read();
  } else if (window.location.hash === target) route.value = read();
  else window.location.hash = target;
}

/** `/merchants/:merchantId` against `/merchants/m1` → `{merchantId: 'm1'}`; undefined when it does not fit. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!;
    const value = got[i]!;
    if (part.startsWith(':')) {
      if (value === '') return undefined;
      params[part.slice(1)] = decodeURIComponent(value);
    } else if (part !== value) return undefined;
  }
  return params;
}
