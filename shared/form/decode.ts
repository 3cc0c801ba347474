/**
 * Decodes UTF-8 `application/x-www-form-urlencoded` bodies and query strings into a nested tree.
 *
 * Names follow the API family's conventions: dots nest (`card.number`), `[n]` indexes a list
 * counted from 0 (`cart.items[0].name`), and any other `[key]` is a map key
 * (`customParameters[SHOPPER_id]`). Which paths are lists is not guessable from the text alone
 * (`customParameters[123]` is a valid map key), so the caller says, via `lists`.
 *
 * The decoder never throws: every problem becomes an issue naming the parameter, so one response
 * can report all of them at once.
 */

export interface FormIssue {
  /** The parameter name as the client sent it (after percent-decoding), or `(body)`. */
  readonly name: string;
  readonly value: string | null;
  readonly message: string;
}

export type FormValue = string | FormTree | FormTree[];
export interface FormTree {
  [key: string]: FormValue;
}

export type DecodeResult =
  | { readonly ok: true; readonly tree: FormTree; readonly count: number }
  | {
      readonly ok: false;
      readonly status: 400 | 413;
      readonly issues: readonly FormIssue[];
      /**
       * What could be decoded, when the faults leave the rest meaningful (no list has gaps), so
       * a validator can report the remaining parameters' faults in the same response.
       */
      readonly partial?: FormTree;
    };

export interface DecodeOptions {
  /**
   * Maximum item count for a list path, or undefined when the path is not a list. The path is
   * given without indices: `cart.items`, `airline.passengers.legs`.
   */
  readonly lists: (path: string) => number | undefined;
  /** Largest accepted body, in bytes. */
  readonly maxBytes?: number;
  /** Largest accepted number of name=value pairs. */
  readonly maxParams?: number;
}

export const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;
export const DEFAULT_MAX_PARAMS = 100_000;
export const BODY = '(body)';

const IDENT = /^[A-Za-z0-9_]+$/;
/** The deepest spec name has 6 segments (airline.passengers[n].legs[n].taxAmount); this leaves room. */
export const MAX_SEGMENTS = 16;
const INDEX = /^(0|[1-9][0-9]{0,6})$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Lists are built as index maps first, because their items may arrive in any order. */
class ListBuilder {
  readonly items = new Map<number, FormTree>();
  constructor(
    readonly path: string,
    readonly displayName: string,
    readonly max: number,
  ) {}
}
type Node = string | Branch | ListBuilder;
interface Branch {
  [key: string]: Node;
}

const newBranch = (): Branch => Object.create(null) as Branch;

export function decodeForm(input: string | Uint8Array, options: DecodeOptions): DecodeResult {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxParams = options.maxParams ?? DEFAULT_MAX_PARAMS;

  let text: string;
  if (typeof input === 'string') {
    // A string can only exceed the byte limit if it is at least a third as long; measure precisely then.
    if (input.length * 3 > maxBytes && utf8Length(input) > maxBytes) return tooLarge(maxBytes);
    text = input;
  } else {
    if (input.byteLength > maxBytes) return tooLarge(maxBytes);
    try {
      text = utf8.decode(input);
    } catch {
      return fail(400, [{ name: BODY, value: null, message: 'is not valid UTF-8' }]);
    }
  }

  const issues: FormIssue[] = [];
  const seen = new Map<string, string>();
  const root = newBranch();
  const lists: ListBuilder[] = [];
  let count = 0;

  let start = 0;
  const length = text.length;
  while (start <= length) {
    let end = text.indexOf('&', start);
    if (end === -1) end = length;
    if (end > start) {
      if (++count > maxParams) {
        return fail(413, [{ name: BODY, value: null, message: `has more than ${maxParams} parameters` }]);
      }
      const pair = text.slice(start, end);
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
      const name = percentDecode(rawName);
      const value = percentDecode(rawValue);
      if (name === undefined) {
        issues.push({ name: rawName, value: null, message: 'name is not valid percent-encoded UTF-8' });
      } else if (value === undefined) {
        issues.push({ name, value: null, message: 'is not valid percent-encoded UTF-8' });
      } else if (value !== '') {
        // An empty value is a parameter not sent: form builders emit empty fields routinely.
        const previous = seen.get(name);
        if (previous === undefined) {
          seen.set(name, value);
          place(root, name, value, options, lists, issues);
        } else if (previous !== value) {
          issues.push({ name, value, message: 'is repeated with a different value' });
        }
      }
    }
    start = end + 1;
  }

  const before = issues.length;
  const tree = finish(root, lists, issues);
  if (issues.length > before) return fail(400, issues);
  if (issues.length > 0) return { ok: false, status: 400, issues, partial: tree };
  return { ok: true, tree, count };
}

function tooLarge(maxBytes: number): DecodeResult {
  return fail(413, [{ name: BODY, value: null, message: `is larger than ${maxBytes} bytes` }]);
}

/** Byte length of a string in UTF-8, without Node's Buffer (this module is browser-safe). */
function utf8Length(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function fail(status: 400 | 413, issues: readonly FormIssue[]): DecodeResult {
  return { ok: false, status, issues };
}

function percentDecode(s: string): string | undefined {
  if (s.indexOf('%') === -1) return s.indexOf('+') === -1 ? s : s.replaceAll('+', ' ');
  try {
    // decodeURIComponent rejects malformed escapes and invalid UTF-8 (overlongs, surrogates).
    return decodeURIComponent(s.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

type Segment =
  | { readonly kind: 'field'; readonly key: string }
  | { readonly kind: 'bracket'; readonly key: string };

/** Splits `a.b[c].d` into segments; undefined when the name is malformed. */
function segmentsOf(name: string): Segment[] | undefined {
  const out: Segment[] = [];
  let i = 0;
  const n = name.length;
  let expectField = true;
  while (i < n) {
    const ch = name.charCodeAt(i);
    if (ch === 91 /* [ */) {
      const close = name.indexOf(']', i + 1);
      if (close === -1 || close === i + 1 || out.length === 0) return undefined;
      const key = name.slice(i + 1, close);
      if (key.includes('[')) return undefined;
      out.push({ kind: 'bracket', key });
      i = close + 1;
      expectField = false;
      continue;
    }
    if (ch === 46 /* . */) {
      if (out.length === 0 || expectField) return undefined;
      i++;
      expectField = true;
      continue;
    }
    if (!expectField) return undefined;
    let j = i;
    while (j < n) {
      const c = name.charCodeAt(j);
      if (c === 46 || c === 91 || c === 93) break;
      j++;
    }
    const key = name.slice(i, j);
    if (!IDENT.test(key)) return undefined;
    out.push({ kind: 'field', key });
    i = j;
    expectField = false;
  }
  if (expectField) return undefined;
  return out;
}

function place(
  root: Branch,
  name: string,
  value: string,
  options: DecodeOptions,
  lists: ListBuilder[],
  issues: FormIssue[],
): void {
  const segments = segmentsOf(name);
  if (segments === undefined) {
    issues.push({ name, value, message: 'is not a well-formed parameter name' });
    return;
  }
  if (segments.length > MAX_SEGMENTS) {
    issues.push({
      name: `${name.slice(0, 64)}…`,
      value: null,
      message: `is nested deeper than ${MAX_SEGMENTS} levels`,
    });
    return;
  }
  let node: Branch = root;
  let list: ListBuilder | undefined; // set when the previous segment named a list
  let path = ''; // the list-lookup path: fields and map keys, no indices
  let display = ''; // the name so far, as sent
  for (let s = 0; s < segments.length; s++) {
    const seg = segments[s]!;
    const last = s === segments.length - 1;
    if (seg.kind === 'field') {
      path = path === '' ? seg.key : `${path}.${seg.key}`;
      display = display === '' ? seg.key : `${display}.${seg.key}`;
    } else {
      display = `${display}[${seg.key}]`;
    }
    const key = seg.key;
    if (key === '__proto__') {
      // Kept out of every tree: copied into an ordinary object it would set the prototype.
      issues.push({ name, value, message: 'uses the reserved name __proto__' });
      return;
    }

    // The segment after a list name is its index.
    if (list !== undefined) {
      const current = list;
      list = undefined;
      if (!INDEX.test(key)) {
        issues.push({ name, value, message: `must use a number from 0 as the index of ${current.path}` });
        return;
      }
      const index = Number(key);
      if (index >= current.max) {
        issues.push({
          name: display,
          value: null,
          message: `is beyond the limit: at most ${current.max} ${current.path} are allowed (indices 0 to ${current.max - 1})`,
        });
        return;
      }
      if (last) {
        issues.push({ name, value, message: 'must name a field of the list item' });
        return;
      }
      let item = current.items.get(index);
      if (item === undefined) {
        item = newBranch() as FormTree;
        current.items.set(index, item);
      }
      node = item as Branch;
      continue;
    }

    const existing = node[key];
    if (last) {
      if (existing !== undefined) {
        issues.push({ name, value, message: 'conflicts with other parameters under the same name' });
        return;
      }
      node[key] = value;
      return;
    }

    const next = segments[s + 1]!;
    const listMax = next.kind === 'bracket' && seg.kind === 'field' ? options.lists(path) : undefined;
    if (existing === undefined) {
      if (listMax !== undefined) {
        const created = new ListBuilder(path, display, listMax);
        lists.push(created);
        node[key] = created;
      } else {
        node[key] = newBranch();
      }
    } else if (typeof existing === 'string' || (listMax !== undefined) !== existing instanceof ListBuilder) {
      issues.push({ name, value, message: `conflicts with the parameter ${display}` });
      return;
    }
    const child = node[key]!;
    if (child instanceof ListBuilder) list = child;
    else node = child as Branch;
  }
}

/** Turns list builders into dense arrays, reporting gaps. */
function finish(root: Branch, lists: readonly ListBuilder[], issues: FormIssue[]): FormTree {
  for (const list of lists) {
    for (let i = 0; i < list.items.size; i++) {
      if (!list.items.has(i)) {
        issues.push({
          name: `${list.displayName}[${i}]`,
          value: null,
          message: `is missing: ${list.path} indices must count from 0 without gaps`,
        });
        break;
      }
    }
  }
  return materialize(root) as FormTree;
}

function materialize(node: Node): FormValue {
  if (typeof node === 'string') return node;
  if (node instanceof ListBuilder) {
    const out: FormTree[] = [];
    const indices = [...node.items.keys()].sort((a, b) => a - b);
    for (const i of indices) out.push(materialize(node.items.get(i) as Branch) as FormTree);
    return out;
  }
  for (const key in node) {
    const child = node[key]!;
    if (typeof child !== 'string') node[key] = materialize(child) as unknown as Node;
  }
  return node as unknown as FormTree;
}
