/**
 * Text that cannot be stored, refused at the edge (issue 30): NUL, which PostgreSQL refuses in
 * text (a 500 and a stack trace on every such request before, answered without credentials and
 * never throttled), and what is not UTF-8 at all (overlong forms such as `%C0%80`, encoded
 * surrogates such as `%ED%A0%80`), which neither store can keep as sent. No id, name or value of
 * the family ever holds one, so they are answered 400 `200.300.404` with parameterErrors naming
 * each field, before any route, credentials check or store sees them, on both stores alike.
 *
 * - `storableRequest`: the path (each parameter named as the route names it) and the query
 *   string, for every route; app.ts runs it right after the transport check.
 * - `unstorableFields`: a form body's (the body middleware's) or a query string's fields.
 * - `unstorableJson`: a JSON body's strings and keys (the admin API's bodies).
 * - `storable`: one text (credentials read from a header).
 *
 * What is checked costs nothing on ordinary requests: only text holding `%00`, an escaped byte
 * of 0x80 or more, or a NUL itself is decoded to look closer.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { ParameterError } from '../../../../shared/params/errors';
import { maskValue } from '../../../../shared/params/errors';
import { errorMaskOf } from '../../../../shared/params/masks';
import { type Envelope, invalid } from '../envelope';

const MESSAGE = 'contains text that cannot be stored (a NUL character or bytes that are not UTF-8)';

/** A UTF-16 surrogate without its other half: no UTF-8 encodes it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** Whether a text can be stored as it is: no NUL, no lone surrogate. */
export function storable(text: string): boolean {
  return !text.includes('\0') && !LONE_SURROGATE.test(text);
}

/** Text that may hold something unstorable once decoded: `%00`, a non-ASCII byte escaped, a NUL. */
const SUSPECT = /%00|%[89a-f]|\0/i;

const utf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/**
 * A percent-encoded component as text, or undefined when its bytes are not UTF-8 or the text
 * cannot be stored. A `%` not followed by two hex digits stays as it is (the form decoder says
 * what it thinks of those); `+` is a space in forms and query strings.
 */
function decodedStorable(raw: string, plusIsSpace: boolean): boolean {
  if (!SUSPECT.test(raw)) return storable(raw);
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    const hex = ch === '%' ? raw.slice(i + 1, i + 3) : '';
    if (/^[0-9a-f]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else if (plusIsSpace && ch === '+') bytes.push(0x20);
    else bytes.push(...encoder.encode(ch));
  }
  try {
    return storable(utf8.decode(new Uint8Array(bytes)));
  } catch {
    return false;
  }
}

/** A text as it may be shown back: what cannot be shown escaped, a NUL as `%00`. */
function shown(text: string): string {
  return text.replaceAll('\0', '%00').replace(LONE_SURROGATES, '\uFFFD');
}

/** A raw form field's name decoded, or undefined when it is not storable text. */
function nameOf(rawName: string): string | undefined {
  try {
    const name = decodeURIComponent(rawName.replaceAll('+', ' '));
    if (storable(name)) return name;
  } catch {}
  return undefined;
}

/** The fields of a form body or query string that cannot be stored, one entry each. */
export function unstorableFields(text: string): ParameterError[] {
  if (!SUSPECT.test(text)) return NONE;
  const errors: ParameterError[] = [];
  for (const pair of text.split('&')) {
    const eq = pair.indexOf('=');
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    if (decodedStorable(rawName, true) && decodedStorable(rawValue, true)) continue;
    const name = nameOf(rawName);
    // a name that cannot be read may be a secret's (`card.cvv%C3%28`): its value is hidden whole
    errors.push(
      name === undefined
        ? { name: shown(rawName), value: '***', message: MESSAGE }
        : { name, value: maskValue(shown(rawValue), errorMaskOf(name)), message: MESSAGE },
    );
  }
  return errors;
}

/**
 * The strings (values and keys) of a parsed JSON body that cannot be stored, by their path. No
 * value is shown back: the admin API's bodies carry passwords, TOTP codes and webhook keys.
 */
export function unstorableJson(value: unknown, path = ''): ParameterError[] {
  if (typeof value === 'string')
    return storable(value) ? NONE : [{ name: path || '(body)', value: null, message: MESSAGE }];
  if (value === null || typeof value !== 'object') return NONE;
  const errors: ParameterError[] = [];
  for (const [key, item] of Object.entries(value)) {
    const name = path === '' ? shown(key) : `${path}.${shown(key)}`;
    if (!storable(key)) errors.push({ name, value: null, message: MESSAGE });
    else errors.push(...unstorableJson(item, name));
  }
  return errors;
}

const NONE: ParameterError[] = [];

/** A route as the app registered it: its path pattern (`/v1/payments/:id`). */
export interface RoutePattern {
  readonly path: string;
}

/**
 * The path's segments that cannot be stored, each named as the route that matches the path
 * names it (`id` of `/v1/payments/:id`), else `path`.
 */
export function unstorablePath(path: string, routes: readonly RoutePattern[]): ParameterError[] {
  if (!SUSPECT.test(path)) return NONE;
  const segments = path.split('/');
  const bad = segments.flatMap((segment, i) => (decodedStorable(segment, false) ? [] : [i]));
  if (bad.length === 0) return NONE;
  const pattern = routes.map((r) => r.path.split('/')).find((p) => matches(p, segments));
  return bad.map((i) => ({
    name: pattern?.[i]?.startsWith(':') === true ? pattern[i]!.slice(1).replace(/[{?].*$/, '') : 'path',
    // an id is never a card number, but a long digit run is masked wherever it is shown
    value: maskValue(shown(segments[i]!)),
    message: MESSAGE,
  }));
}

/** Whether a route's segments match a path's: the same count, literal segments equal. */
function matches(pattern: readonly string[], segments: readonly string[]): boolean {
  return (
    pattern.length === segments.length &&
    pattern.every((p, i) => p.startsWith(':') || p === '*' || p === segments[i])
  );
}

/** The path and query of every request checked: 400 with parameterErrors, before any route. */
export function storableRequest(env: Envelope, routes: () => readonly RoutePattern[]): MiddlewareHandler {
  return (c: Context, next) => {
    const url = c.req.url;
    if (!SUSPECT.test(url)) return next();
    const start = url.indexOf('/', url.indexOf('://') + 3);
    const q = url.indexOf('?');
    const path = url.slice(start, q === -1 ? undefined : q);
    const errors = [
      ...unstorablePath(path.replace(/\/{2,}/g, '/'), routes()),
      ...(q === -1 ? NONE : unstorableFields(url.slice(q + 1).split('#')[0]!)),
    ];
    if (errors.length === 0) return next();
    return Promise.resolve(invalid(env, c, 400, errors));
  };
}
