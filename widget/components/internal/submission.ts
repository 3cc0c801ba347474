/**
 * What every submission carries besides its form's fields, whether the page posts it or the
 * card-number frame does: the shopper's browser data for 3-D Secure v2 (read from the shop page's
 * window, since a frame may be small) and, when the merchant form has an `action`, that address as
 * shopperResultUrl (where the gateway sends the shopper after a full-page redirect flow). A field the
 * page's form already holds is never added twice. The widget sends userAgent and acceptHeader
 * itself: the request's own headers are the frame's fetch (`Accept: application/json`), not what
 * the browser asks for when it opens the issuer's challenge page.
 */
import type { Fields } from '../../core/api';
import type { ChallengeWindow } from '../../core/options';
import { challengeSize } from './redirect';

/**
 * What a browser accepts when it navigates to a document (the challenge page is one): script
 * cannot read the browser's own Accept header, so the common one every engine sends for documents.
 */
export const DOCUMENT_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

export interface SubmissionEnv {
  readonly win: Window;
  readonly now: () => Date;
  /** The merchant form's `action` attribute. */
  readonly action: string | null;
  readonly challengeWindow: ChallengeWindow | undefined;
}

/** A non-negative integer as a string of at most `digits` digits; undefined when there is none. */
function digits(value: unknown, max: number): string | undefined {
  const n = Math.floor(Number(value));
  return Number.isFinite(n) && n >= 0 && String(n).length <= max ? String(n) : undefined;
}

/** Text as the catalogue takes it (AN 1-2048): trimmed, cut; undefined when empty. */
const text = (value: unknown): string | undefined => {
  const s = typeof value === 'string' ? value.trim().slice(0, 2048) : '';
  return s === '' ? undefined : s;
};

/**
 * `customer.browser.*`: accept header, user agent, language, screen, colour depth, time zone, Java,
 * and the challenge window the widget will open (the page's setting, else by the window's width).
 */
export function browserFields(
  win: Window,
  now: () => Date,
  challengeWindow: ChallengeWindow | undefined,
): Fields {
  const nav = win.navigator;
  const screen = win.screen as Partial<Screen> | undefined;
  let java = false;
  try {
    java = typeof nav.javaEnabled === 'function' && nav.javaEnabled() === true;
  } catch {
    java = false;
  }
  const language = (nav.language || '').slice(0, 8).replace(/-+$/, '');
  const values: [string, string | undefined][] = [
    ['acceptHeader', DOCUMENT_ACCEPT],
    ['userAgent', text(nav.userAgent)],
    ['language', language || undefined],
    ['screenHeight', digits(screen?.height, 6)],
    ['screenWidth', digits(screen?.width, 6)],
    ['screenColorDepth', digits(screen?.colorDepth, 2)],
    // Minutes from local time to UTC: positive when local time is behind UTC (the spec's sign).
    ['timezone', String(Math.trunc(now().getTimezoneOffset()))],
    ['javaEnabled', java ? 'true' : 'false'],
    ['challengeWindow', String(challengeSize(challengeWindow, win))],
  ];
  const out: [string, string][] = [];
  for (const [name, value] of values) if (value !== undefined) out.push([`customer.browser.${name}`, value]);
  return out;
}

/** The merchant form's action as an absolute http(s) address; undefined without one. */
export function shopperResultUrl(action: string | null, base: string): string | undefined {
  const value = action?.trim();
  if (!value) return undefined;
  try {
    const url = new URL(value, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The form's fields, then browser data and shopperResultUrl for every name the form does not hold. */
export function withSubmissionFields(env: SubmissionEnv, fields: Fields): Fields {
  const have = new Set(fields.map(([name]) => name));
  const extra: (readonly [string, string])[] = [...browserFields(env.win, env.now, env.challengeWindow)];
  const result = shopperResultUrl(env.action, env.win.document.baseURI);
  if (result !== undefined) extra.push(['shopperResultUrl', result]);
  return [...fields, ...extra.filter(([name]) => !have.has(name))];
}
