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

/** The deepest spec name has 6 segments (airline.passengers[n].legs[n].taxAmount); this leaves room. */
export const MAX_SEGMENTS = 16;
const INDEX = /^(0|[1-9][0-9]{0,6})$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Lists are built as index maps first, because their items may arrive in any order. */
class ListBuilder {
  readonly items = new Map<number, Branch>();
  constructor(
    readonly path: string,
    readonly displayName: string,
    readonly max: number,
  ) {}
}
/** Branches are Maps while decoding: fast for many keys, and no key can reach a prototype. */
type Branch = Map<string, Node>;
type Node = string | Branch | ListBuilder;

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
  const root: Branch = new Map();
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
        place(root, name, value, options, lists, issues);
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

const isIdent = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;

/**
 * Checks the name's grammar (`ident ( '.' ident | '[' key ']' )*`) and counts its segments,
 * without allocating; -1 when malformed. Placing only well-formed names keeps a bad name from
 * leaving half-built groups behind.
 */
function segmentCount(name: string): number {
  const n = name.length;
  if (n === 0) return -1;
  let i = 0;
  let segments = 0;
  let afterDot = true; // a field must come first, and after every dot
  while (i < n) {
    const c = name.charCodeAt(i);
    if (c === 91 /* [ */) {
      if (afterDot) return -1;
      const close = name.indexOf(']', i + 1);
      if (close === -1 || close === i + 1) return -1;
      if (name.indexOf('[', i + 1) !== -1 && name.indexOf('[', i + 1) < close) return -1;
      i = close + 1;
    } else if (afterDot) {
      const start = i;
      while (i < n && isIdent(name.charCodeAt(i))) i++;
      if (i === start) return -1;
      afterDot = false;
    } else {
      return -1;
    }
    segments++;
    if (i < n) {
      const d = name.charCodeAt(i);
      if (d === 46 /* . */) {
        i++;
        afterDot = true;
        if (i === n) return -1;
      } else if (d !== 91) return -1;
    }
  }
  return segments;
}

function place(
  root: Branch,
  name: string,
  value: string,
  options: DecodeOptions,
  lists: ListBuilder[],
  issues: FormIssue[],
): void {
  const segments = segmentCount(name);
  if (segments === -1) {
    issues.push({ name, value, message: 'is not a well-formed parameter name' });
    return;
  }
  if (segments > MAX_SEGMENTS) {
    issues.push({
      name: `${name.slice(0, 64)}…`,
      value: null,
      message: `is nested deeper than ${MAX_SEGMENTS} levels`,
    });
    return;
  }
  let node: Branch = root;
  let list: ListBuilder | undefined; // set when the previous segment named a list
  let path = ''; // the list-lookup path: field names only, no indices
  const n = name.length;
  let i = 0;
  while (i < n) {
    // Read one segment; the grammar is already checked.
    let key: string;
    let bracket: boolean;
    if (name.charCodeAt(i) === 91) {
      const close = name.indexOf(']', i + 1);
      key = name.slice(i + 1, close);
      i = close + 1;
      bracket = true;
    } else {
      const start = i;
      while (i < n && isIdent(name.charCodeAt(i))) i++;
      key = name.slice(start, i);
      path = path === '' ? key : `${path}.${key}`;
      bracket = false;
    }
    const last = i === n;
    const nextIsBracket = !last && name.charCodeAt(i) === 91;
    if (!last && !nextIsBracket) i++; // the dot
    // Where the name as sent ends for this segment, for messages (no closure: this loop is hot).
    const end = nextIsBracket || last ? i : i - 1;

    if (key === '__proto__') {
      // Kept out of every tree: copied into an ordinary object it would set the prototype.
      issues.push({ name, value, message: 'uses the reserved name __proto__' });
      return;
    }

    // The segment after a list name is its index.
    if (list !== undefined) {
      const item = listItem(list, key, name, value, end, last, issues);
      list = undefined;
      if (item === undefined) return;
      node = item;
      continue;
    }

    const existing = node.get(key);
    if (last) {
      setLeaf(node, key, existing, name, value, issues);
      return;
    }

    const listMax = nextIsBracket && !bracket ? options.lists(path) : undefined;
    let child = existing;
    if (child === undefined) {
      if (listMax !== undefined) {
        const created = new ListBuilder(path, name.slice(0, end), listMax);
        lists.push(created);
        child = created;
      } else {
        child = new Map();
      }
      node.set(key, child);
    } else if (typeof child === 'string' || (listMax !== undefined) !== child instanceof ListBuilder) {
      issues.push({ name, value, message: `conflicts with the parameter ${name.slice(0, end)}` });
      return;
    }
    if (child instanceof ListBuilder) list = child;
    else node = child as Branch;
  }
}

/**
 * The item of a list that the segment `key` after the list's name indexes (created when new);
 * undefined, with the issue, for an index that is not a number, is beyond the limit, or ends the name.
 */
function listItem(
  list: ListBuilder,
  key: string,
  name: string,
  value: string,
  end: number,
  last: boolean,
  issues: FormIssue[],
): Branch | undefined {
  if (!INDEX.test(key)) {
    issues.push({ name, value, message: `must use a number from 0 as the index of ${list.path}` });
    return undefined;
  }
  const index = Number(key);
  if (index >= list.max) {
    issues.push({
      name: name.slice(0, end),
      value: null,
      message: `is beyond the limit: at most ${list.max} ${list.path} are allowed (indices 0 to ${list.max - 1})`,
    });
    return undefined;
  }
  if (last) {
    issues.push({ name, value, message: 'must name a field of the list item' });
    return undefined;
  }
  let item = list.items.get(index);
  if (item === undefined) {
    item = new Map();
    list.items.set(index, item);
  }
  return item;
}

/** The value of the name's last segment; the same value twice counts once (some clients repeat a key). */
function setLeaf(
  node: Branch,
  key: string,
  existing: ReturnType<Branch['get']>,
  name: string,
  value: string,
  issues: FormIssue[],
): void {
  if (existing === undefined) node.set(key, value);
  else if (typeof existing !== 'string') {
    issues.push({ name, value, message: 'conflicts with other parameters under the same name' });
  } else if (existing !== value) {
    // A different value is ambiguous.
    issues.push({ name, value, message: 'is repeated with a different value' });
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
    const indices = [...node.items.keys()].sort((x, y) => x - y);
    for (const i of indices) out.push(materialize(node.items.get(i)!) as FormTree);
    return out;
  }
  const tree: FormTree = {};
  for (const [key, child] of node) tree[key] = materialize(child);
  return tree;
}
