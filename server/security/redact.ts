/**
 * Redaction of card data, bank account numbers and credentials before anything is written to a log.
 *
 * Two nets, both applied everywhere:
 * - by name: values under keys that carry card numbers, security codes, passwords, tokens or
 *   cryptograms are masked, at any depth and in whatever spelling (`cvv`, `card.cvv`,
 *   `card[cvv]`, `cardNumber`, `card_number`, `paymentToken` …), including `key=value` pairs
 *   in URL query strings and form bodies and `"key": value` pairs in JSON text;
 * - by shape: any run of 12 to 19 (or more) digits, possibly split by single spaces or hyphens,
 *   is masked in every string, whatever its key: the first 6 and last 4 digits stay when it is
 *   a Luhn-valid card number, every digit becomes `*` otherwise; and every valid IBAN (country,
 *   length, checksum; compact or in groups of four, any case) keeps only its country, check
 *   digits and last 4 characters, since its digit runs may be short (`NL91ABNA0417164300`).
 *
 * The second net catches card numbers under unexpected names (`card.numbr`, free-text error
 * messages, paths). It spares only runs inside identifiers shaped like ours (32, 40 or 64 hex
 * characters with at least one letter: payment ids, commit hashes, SHA-256 digests), which would
 * otherwise be mangled by chance.
 */
import { luhnValid } from '../../shared/brands/luhn';
import { maskIbans } from '../../shared/params/errors';

/** What replaces a secret. */
export const MASK = '***';

type Kind = 'pan' | 'secret';

/** Names whose values are card or account numbers (IBANs too): masked, keeping the first 6 and last 4 of a valid PAN. */
const PAN_NAMES = new Set(['number', 'cardnumber', 'pan', 'primaryaccountnumber', 'accountnumber', 'iban']);

/** Names whose values are secrets, masked entirely. */
const SECRET_NAMES = new Set([
  'cvv',
  'cvv2',
  'cvc',
  'cvc2',
  'securitycode',
  'pin',
  'password',
  'passwd',
  'pwd',
  'secret',
  'token',
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'cryptogram',
  'paymenttoken',
  'apikey',
  'privatekey',
  'datakey',
]);

/** Endings that make any name secret: `shopperPassword`, `webhookSecret`, `accessToken`, `card.cvv` … */
const SECRET_SUFFIXES = ['password', 'secret', 'token', 'cryptogram', 'cvv', 'apikey', 'privatekey'];

/**
 * Whether a name carries a secret, judged by its last segment (`card.number`, `card[number]`,
 * `cart.items[0].number`), ignoring case, `_` and `-`.
 */
export function sensitiveKind(name: string): Kind | undefined {
  const segments = name.split(/[.[\]]+/).filter((s) => s !== '');
  const last = (segments[segments.length - 1] ?? name).toLowerCase().replace(/[^a-z0-9]/g, '');
  if (last === '') return undefined;
  if (PAN_NAMES.has(last)) return 'pan';
  if (SECRET_NAMES.has(last)) return 'secret';
  for (const suffix of SECRET_SUFFIXES) if (last.endsWith(suffix)) return 'secret';
  // cardNumber, card_number, bankAccountNumber, senderIban … spelled as one word
  if (last.endsWith('cardnumber') || last.endsWith('accountnumber') || last.endsWith('iban')) return 'pan';
  return undefined;
}

/** Masks the digits of a run: first 6 and last 4 kept for a Luhn-valid 12–19 digit PAN, all starred otherwise. */
function maskRun(run: string): string {
  const digits = run.replace(/%20/g, ' ').replace(/\D/g, '');
  const n = digits.length;
  const keep = n >= 12 && n <= 19 && luhnValid(digits);
  let d = 0;
  let out = '';
  for (let i = 0; i < run.length; i++) {
    const ch = run[i]!;
    if (ch === '%' && run.startsWith('%20', i)) {
      out += '%20';
      i += 2;
    } else if (ch >= '0' && ch <= '9') {
      out += keep && (d < 6 || d >= n - 4) ? ch : '*';
      d++;
    } else out += ch;
  }
  return out;
}

/** 12 or more digits, each pair optionally split by a space, a hyphen, or their URL encodings. */
const DIGIT_RUN = /\d(?:(?:[ -]|%20|\+)?\d){11,}/g;
const HEX = /[0-9a-fA-F]/;
const HEX_ID_LENGTHS = new Set([32, 40, 64]);

/** Whether the run at [start, end) sits inside a hex identifier rather than being one. */
function insideHexId(s: string, start: number, end: number): boolean {
  let a = start;
  let b = end;
  while (a > 0 && HEX.test(s[a - 1]!)) a--;
  while (b < s.length && HEX.test(s[b]!)) b++;
  // [a, b) is all hex; an identifier has a known length and at least one letter.
  return HEX_ID_LENGTHS.has(b - a) && /[a-fA-F]/.test(s.slice(a, b));
}

/** Masks every long digit run in a string (see the module comment). */
export function maskDigitRuns(s: string): string {
  return s.replace(DIGIT_RUN, (run: string, offset: number) =>
    /^\d+$/.test(run) && insideHexId(s, offset, offset + run.length) ? run : maskRun(run),
  );
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** The masked form of a value under a sensitive name. */
function maskKind(value: string, kind: Kind): string {
  if (value === '') return value;
  if (kind === 'pan') {
    const digits = value.replace(/[\s-]/g, '');
    if (/^\d{12,19}$/.test(digits) && luhnValid(digits)) return maskRun(value);
  }
  return MASK;
}

/** `scheme credentials` in free text: `Bearer abc…`, `Basic abc…`. */
const AUTH_SCHEME = /\b(Bearer|Basic)(\s+)[A-Za-z0-9._~+/=-]+/gi;
/**
 * `name=value` as in query strings and form bodies; the value runs to `&`, `#`, `;` or whitespace.
 * Names are bounded so that a long string without `=` costs linear time.
 */
const PAIR = /([^\s?&#=;,"'<>]{1,100})=([^\s&#;,"'<>]*)/g;
/** `"name": "value"` or `"name": 123` as in JSON text. */
const JSON_PAIR = /"((?:[^"\\]|\\.){1,200})"(\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*)/g;

/** A string with secrets under sensitive names and every long digit run masked. */
export function redactString(s: string): string {
  if (!/[\d=:]|bearer|basic/i.test(s)) return s;
  let out = s.replace(AUTH_SCHEME, (_m, scheme: string, space: string) => `${scheme}${space}${MASK}`);
  out = out.replace(PAIR, (m, name: string, value: string) => {
    const kind = sensitiveKind(safeDecode(name));
    return kind === undefined ? m : `${name}=${maskKind(safeDecode(value), kind)}`;
  });
  out = out.replace(JSON_PAIR, (m, name: string, colon: string, value: string) => {
    const kind = sensitiveKind(name);
    if (kind === undefined) return m;
    const inner = value.startsWith('"') ? value.slice(1, -1) : value;
    return `"${name}"${colon}"${maskKind(inner, kind)}"`;
  });
  return maskDigitRuns(maskIbans(out));
}

const MAX_DEPTH = 12;

function maskUnder(value: unknown, kind: Kind): unknown {
  if (value === undefined || value === null) return value;
  if (typeof value === 'string') return maskKind(value, kind);
  if (typeof value === 'number' || typeof value === 'bigint') return maskKind(String(value), kind);
  return MASK;
}

function redactObjectEntries(entries: Iterable<[string, unknown]>, ancestors: object[], depth: number) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    const kind = sensitiveKind(k);
    out[redactString(k)] = kind === undefined ? walk(v, ancestors, depth + 1) : maskUnder(v, kind);
  }
  return out;
}

function redactError(e: Error, ancestors: object[], depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = { name: e.name, message: redactString(e.message) };
  const extra = redactObjectEntries(
    Object.entries(e).filter(([k]) => k !== 'name' && k !== 'message' && k !== 'stack' && k !== 'cause'),
    ancestors,
    depth,
  );
  Object.assign(out, extra);
  if (e.stack !== undefined) out.stack = redactString(e.stack);
  if ('cause' in e && e.cause !== undefined) out.cause = walk(e.cause, ancestors, depth + 1);
  return out;
}

function walk(value: unknown, ancestors: object[], depth: number): unknown {
  switch (typeof value) {
    case 'string':
      return redactString(value);
    case 'number':
    case 'boolean':
    case 'undefined':
      return value;
    case 'bigint':
      return redactString(value.toString());
    case 'symbol':
      return value.toString();
    case 'function':
      return `[Function ${value.name || 'anonymous'}]`;
  }
  if (value === null) return null;
  const obj = value as object;
  if (ancestors.includes(obj)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Truncated]';
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? 'Invalid Date' : obj.toISOString();
  // Raw bytes may hold anything, a card number included: never written.
  if (ArrayBuffer.isView(obj) || obj instanceof ArrayBuffer) return `[${obj.byteLength} bytes]`;
  if (obj instanceof URL || obj instanceof URLSearchParams) return redactString(obj.toString());
  ancestors.push(obj);
  try {
    if (obj instanceof Error) return redactError(obj, ancestors, depth);
    if (Array.isArray(obj)) return obj.map((v) => walk(v, ancestors, depth + 1));
    if (obj instanceof Set) return [...obj].map((v) => walk(v, ancestors, depth + 1));
    if (obj instanceof Map)
      return redactObjectEntries(
        [...obj].map(([k, v]): [string, unknown] => [String(k), v]),
        ancestors,
        depth,
      );
    if (typeof Headers !== 'undefined' && obj instanceof Headers)
      return redactObjectEntries(obj, ancestors, depth);
    const toJSON = (obj as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      try {
        return walk(toJSON.call(obj), ancestors, depth + 1);
      } catch {
        return '[Unserializable]';
      }
    }
    return redactObjectEntries(Object.entries(obj), ancestors, depth);
  } finally {
    ancestors.pop();
  }
}

/**
 * A JSON-safe copy of any value with card data and credentials masked (see the module comment).
 * Errors become `{name, message, stack, …, cause}`, dates ISO strings, bytes their length;
 * cycles and excessive depth are cut. The input is never modified.
 */
export function redact(value: unknown): unknown {
  return walk(value, [], 0);
}
