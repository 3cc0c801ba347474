/**
 * Validation of a decoded request against a request kind: formats and unknown names through the
 * derived zod schema, then the catalogue's conditional rules and the kind's own. Every fault is
 * reported at once, as parameterErrors.
 */
import type { z } from 'zod';
import type { FormTree, FormValue } from '../form/decode';
import { ErrorList } from './error-list';
import { maskValue, type ParameterError } from './errors';
import { errorMaskOf, maskOf } from './masks';
import type { Group, Leaf, Node } from './nodes';
import { at, type Report, type Rule } from './rules';

export interface CompiledRequest {
  readonly root: Group;
  readonly schema: z.ZodType;
  /** Top-level names this request requires. */
  readonly required: readonly string[];
  /** Rules of the request kind itself, relative to the root. */
  readonly rules: readonly Rule[];
}

export type Validated<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly errors: ParameterError[] };

const isTree = (v: FormValue | undefined): v is FormTree =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The wire name of a path through the catalogue, and the leaf it ends on (for its mask). */
function nameOf(root: Group, path: readonly PropertyKey[]): { name: string; leaf?: Leaf } {
  let node: Node | undefined = root;
  let name = '';
  for (const seg of path) {
    const key = String(seg);
    if (node?.kind === 'list' && typeof seg === 'number') {
      name += `[${key}]`;
      node = node.item;
    } else if (node?.kind === 'dict') {
      name += `[${key}]`;
      node = undefined;
    } else {
      name = name === '' ? key : `${name}.${key}`;
      node = node?.kind === 'group' ? node.fields[key] : undefined;
    }
  }
  return node?.kind === 'leaf' ? { name, leaf: node } : { name };
}

function valueAt(tree: FormTree, path: readonly PropertyKey[]): FormValue | undefined {
  let v: FormValue | undefined = tree;
  for (const seg of path) {
    if (v === undefined || typeof v === 'string') return undefined;
    v = Array.isArray(v) ? v[Number(seg)] : v[String(seg)];
  }
  return v;
}

const shown = (v: FormValue | undefined, name: string, leaf?: Leaf) => (): string | null =>
  typeof v === 'string' ? maskValue(v, leaf?.mask ?? maskOf(name)) : null;

/** Every leaf name below an unknown name, so each one the client sent is reported. */
function leafNames(name: string, v: FormValue, out: { name: string; value: string }[]): void {
  if (typeof v === 'string') out.push({ name, value: v });
  else if (Array.isArray(v)) {
    for (const [i, item] of v.entries()) leafNames(`${name}[${i}]`, item, out);
  } else for (const [k, child] of Object.entries(v)) leafNames(`${name}.${k}`, child, out);
}

function zodErrors(root: Group, tree: FormTree, issues: readonly z.core.$ZodIssue[], out: ErrorList): void {
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        const { name } = nameOf(root, path);
        const v = valueAt(tree, path);
        if (v === undefined) continue;
        const names: { name: string; value: string }[] = [];
        leafNames(name, v, names);
        for (const n of names)
          out.add(n.name, () => maskValue(n.value, errorMaskOf(n.name)), 'is not a known parameter');
      }
      continue;
    }
    const { name, leaf } = nameOf(root, issue.path);
    out.add(name, shown(valueAt(tree, issue.path), name, leaf), issue.message);
  }
}

function leafAt(group: Group, path: string): Leaf | undefined {
  let node: Node | undefined = group;
  for (const key of path.split('.')) {
    node =
      node?.kind === 'group' ? node.fields[key] : node?.kind === 'list' ? node.item.fields[key] : undefined;
  }
  return node?.kind === 'leaf' ? node : undefined;
}

function reporter(group: Group, value: FormTree, prefix: string, out: ErrorList): Report {
  return (path, message, v) => {
    const name = prefix === '' ? path : `${prefix}.${path}`;
    out.add(
      name,
      () => {
        const sent = v === undefined ? at(value, path) : v;
        const mask = leafAt(group, path)?.mask ?? maskOf(name);
        return typeof sent === 'string' ? maskValue(sent, mask) : null;
      },
      message,
    );
  };
}

/** Applies each group's rules and its R fields, through every group, list item and nested group sent. */
function ruleErrors(group: Group, value: FormTree, prefix: string, nested: boolean, out: ErrorList): void {
  if (group.rules.length > 0) {
    const report = reporter(group, value, prefix, out);
    for (const rule of group.rules) rule.apply(value, report);
  }
  for (const name in value) {
    const node = group.fields[name];
    const v = value[name];
    const full = prefix === '' ? name : `${prefix}.${name}`;
    if (node?.kind === 'group' && isTree(v)) ruleErrors(node, v, full, true, out);
    else if (node?.kind === 'list' && Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item = v[i];
        if (isTree(item)) ruleErrors(node.item, item, `${full}[${i}]`, true, out);
      }
    }
  }
  if (!nested) return;
  for (const name of requiredLeaves(group)) {
    if (value[name] === undefined) out.add(prefix === '' ? name : `${prefix}.${name}`, null, 'is required');
  }
}

/** The R leaves of each group, listed once: catalogue groups never change, requests come by thousands. */
const required = new WeakMap<Group, readonly string[]>();

function requiredLeaves(group: Group): readonly string[] {
  let names = required.get(group);
  if (names === undefined) {
    names = Object.entries(group.fields)
      .filter(([, node]) => node.kind === 'leaf' && node.req === 'R')
      .map(([name]) => name);
    required.set(group, names);
  }
  return names;
}

/**
 * Validates a decoded tree. Faults go to `errors` (a fresh list unless given: parseRequest passes
 * the one holding the decoder's faults), which lists the first ones and counts the rest.
 */
export function validateTree<T>(
  request: CompiledRequest,
  tree: FormTree,
  errors: ErrorList = new ErrorList(),
): Validated<T> {
  const before = errors.size;
  for (const path of request.required) {
    if (at(tree, path) === undefined) errors.add(path, null, 'is required');
  }
  const parsed = request.schema.safeParse(tree);
  if (!parsed.success) zodErrors(request.root, tree, parsed.error.issues, errors);
  ruleErrors(request.root, tree, '', false, errors);
  if (request.rules.length > 0) {
    const report = reporter(request.root, tree, '', errors);
    for (const rule of request.rules) rule.apply(tree, report);
  }
  if (errors.size > before) return { ok: false, errors: errors.errors() };
  // Every schema issue becomes an error above; this only guards that promise.
  if (!parsed.success)
    return { ok: false, errors: [{ name: '(body)', value: null, message: 'is not valid' }] };
  return { ok: true, value: parsed.data as T };
}
