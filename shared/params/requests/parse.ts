/**
 * A request kind compiled (its merged group, schema and list limits), and parseRequest(): decode
 * and validate in one step.
 */

import { type DecodeOptions, decodeForm, type FormTree } from '../../form/decode';
import { SECTIONS } from '../catalogue';
import { oneOf } from '../catalogue/dsl';
import { ErrorList } from '../error-list';
import { maskValue, type ParameterError } from '../errors';
import { maskFreeText } from '../free-text';
import { errorMaskOf } from '../masks';
import { type Group, group, merge } from '../nodes';
import { schemaOf } from '../schema';
import { type CompiledRequest, type Validated, validateTree } from '../validate';
import { KINDS, type KindSpec, type RequestKind, type RequestOf } from './kinds';

interface Compiled extends CompiledRequest {
  readonly lists: DecodeOptions['lists'];
  readonly maxParams?: number;
}
const compiled = new Map<RequestKind, Compiled>();

/** The merged catalogue group of a request kind. */
export function rootOf(kind: RequestKind): Group {
  return compile(kind).root;
}

function compile(kind: RequestKind): Compiled {
  const cached = compiled.get(kind);
  if (cached !== undefined) return cached;
  const spec: KindSpec = KINDS[kind];
  let root = merge([...spec.sections.map((id) => SECTIONS[id].group), ...(spec.extra ?? [])]);
  if (spec.paymentTypes !== undefined && root.fields.paymentType !== undefined) {
    root = group({ ...root.fields, paymentType: oneOf(spec.paymentTypes, { req: 'R' }) }, root.rules);
  }
  const request: Compiled = {
    root,
    schema: schemaOf(root),
    required: spec.required ?? [],
    rules: spec.rules ?? [],
    lists: listLimitsOf(root),
    ...(spec.maxParams === undefined ? {} : { maxParams: spec.maxParams }),
  };
  compiled.set(kind, request);
  return request;
}

/** Where lists are, and how long they may be, for the form decoder. */
export function listLimits(kind: RequestKind): DecodeOptions['lists'] {
  return compile(kind).lists;
}

function listLimitsOf(root: Group): DecodeOptions['lists'] {
  const limits = new Map<string, number>();
  const walk = (g: Group, prefix: string) => {
    for (const [name, node] of Object.entries(g.fields)) {
      const path = prefix === '' ? name : `${prefix}.${name}`;
      if (node.kind === 'group') walk(node, path);
      else if (node.kind === 'list') {
        limits.set(path, node.max);
        walk(node.item, path);
      }
    }
  };
  walk(root, '');
  return (path) => limits.get(path);
}

export function validateRequest<K extends RequestKind>(kind: K, tree: FormTree): Validated<RequestOf<K>> {
  const result = validateTree<RequestOf<K>>(compile(kind), tree);
  if (!result.ok) return result;
  // card numbers in free text masked before anything keeps, answers or sends the request
  const value = maskFreeText(result.value);
  return value === result.value ? result : { ok: true, value };
}

export type ParsedRequest<K extends RequestKind> =
  | { readonly ok: true; readonly value: RequestOf<K> }
  | { readonly ok: false; readonly status: 400 | 413; readonly errors: ParameterError[] };

/** Decodes and validates a form body or query string in one step. */
export function parseRequest<K extends RequestKind>(
  kind: K,
  body: string | Uint8Array,
  options: { maxBytes?: number } = {},
): ParsedRequest<K> {
  const request = compile(kind);
  const decoded = decodeForm(body, {
    lists: request.lists,
    ...(request.maxParams === undefined ? {} : { maxParams: request.maxParams }),
    ...options,
  });
  if (!decoded.ok) {
    // The first faults listed, the rest counted (error-list.ts): values are masked only when listed.
    const errors = new ErrorList();
    for (const i of decoded.issues) {
      const { value } = i;
      errors.add(i.name, value === null ? null : () => maskValue(value, errorMaskOf(i.name)), i.message);
    }
    if (decoded.partial !== undefined) validateTree(request, decoded.partial, errors);
    return { ok: false, status: decoded.status, errors: errors.errors() };
  }
  const result = validateRequest(kind, decoded.tree);
  return result.ok ? result : { ok: false, status: 400, errors: result.errors };
}
