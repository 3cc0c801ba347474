/**
 * What the pages a shopper's browser opens without credentials share (the simulators' pages,
 * server/http/routes/simulators/shopper.ts, and the connectors' redirect and return,
 * connector-return.ts): one CSP (no inline script, forms only to the gateway and the page's own
 * return address, shown in the widget's modal on any shop) and one way to read what the browser sent.
 */
import type { Context } from 'hono';
import { PUBLIC_SUBMISSION_MAX_BYTES, readLimited } from '../middleware/body';

export const NO_STORE = 'no-store';

function originOf(url: string | undefined): string {
  if (url === undefined) return '';
  try {
    return ` ${new URL(url).origin}`;
  } catch {
    return '';
  }
}

const pageCsp = (formTo: string | undefined): string =>
  [
    "default-src 'none'",
    "style-src 'self'",
    "script-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    `form-action 'self'${originOf(formTo)}`,
    'frame-ancestors *',
  ].join('; ');

/** An HTML page for the shopper; `formTo`, where else its form may go (a return or a processor's page). */
export function shopperPage(c: Context, status: 200 | 400 | 404, body: string, formTo?: string): Response {
  return c.body(body, status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': NO_STORE,
    'Content-Security-Policy': pageCsp(formTo),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
}

/**
 * The parameters from the query string (GET) and the form body (POST, form-encoded as the pages
 * and the processors send them). These pages need no credentials, so the body is read only up to
 * the limit of other public submissions; a larger one counts as no body.
 */
export async function shopperParameters(c: Context): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, value] of new URL(c.req.url).searchParams) out[name] = value;
  if (c.req.method === 'POST') {
    const bytes = await readLimited(c, PUBLIC_SUBMISSION_MAX_BYTES);
    const text = bytes === undefined ? '' : new TextDecoder().decode(bytes);
    for (const [name, value] of new URLSearchParams(text)) out[name] = value;
  }
  return out;
}
