/**
 * Conditional rules: the spec's "C" column made executable. Each rule relates fields of one
 * group by their paths relative to that group; `says` is the rule in words, used in the docs.
 *
 * Rules look only at which fields are present (and, for checks, at their raw strings), never at
 * whether each value's format is right, so they run alongside format validation and a request
 * with both kinds of fault gets all its errors in one response.
 */
import type { FormTree, FormValue } from '../form/decode';

export type Report = (path: string, message: string, value?: string | null) => void;

interface RuleBase {
  /** The fields the rule speaks about, relative to its group. */
  readonly paths: readonly string[];
  /** True when the rule only says what is required; optional repeats of a group drop such rules. */
  readonly requiredness: boolean;
  readonly says: string;
}

export interface Rule extends RuleBase {
  readonly apply: (group: FormTree, report: Report) => void;
}

/**
 * Dotted paths split once: the catalogue's rules ask for the same few on every request, and each
 * split made new strings that every lookup then had to internalise (profiled). Bounded all the same.
 */
const splitPaths = new Map<string, readonly string[]>();

function keysOf(path: string): readonly string[] {
  let keys = splitPaths.get(path);
  if (keys === undefined) {
    keys = path.split('.');
    if (splitPaths.size >= 1_000) splitPaths.clear();
    splitPaths.set(path, keys);
  }
  return keys;
}

/** The value at a dotted path within a group, or undefined. */
export function at(group: FormTree, path: string): FormValue | undefined {
  if (path.indexOf('.') === -1) return group[path];
  let node: FormValue | undefined = group;
  for (const key of keysOf(path)) {
    if (node === undefined || typeof node === 'string' || Array.isArray(node)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * The wire names of every value at or below a path: `registrations[0].id`, and with `dict` set
 * (the path is a `[key]` map) `overridePaymentType[VISA]`.
 */
export function leafPaths(group: FormTree, path: string, dict = false): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  const walk = (name: string, v: FormValue | undefined, keys: boolean) => {
    if (v === undefined) return;
    if (typeof v === 'string') out.push({ name, value: v });
    else if (Array.isArray(v)) for (const [i, item] of v.entries()) walk(`${name}[${i}]`, item, false);
    else
      for (const [k, child] of Object.entries(v)) walk(keys ? `${name}[${k}]` : `${name}.${k}`, child, false);
  };
  walk(path, at(group, path), dict);
  return out;
}

export const has = (group: FormTree, path: string): boolean => at(group, path) !== undefined;

export function str(group: FormTree, path: string): string | undefined {
  const v = at(group, path);
  return typeof v === 'string' ? v : undefined;
}

/** At least one of the fields must be sent: "Either number or iban is required". */
export function atLeastOne(...paths: string[]): Rule {
  const says = `Either ${paths.join(' or ')} is required.`;
  return {
    paths,
    requiredness: true,
    says,
    apply(g, report) {
      if (!paths.some((p) => has(g, p)))
        report(paths[0]!, `is required, or else ${paths.slice(1).join(' or ')}`, null);
    },
  };
}

/** The fields go together: all or none (identificationDocType with identificationDocId). */
export function together(...paths: string[]): Rule {
  const says = `${paths.join(' and ')} are sent together.`;
  return {
    paths,
    requiredness: false,
    says,
    apply(g, report) {
      const present = paths.filter((p) => has(g, p));
      if (present.length === 0 || present.length === paths.length) return;
      for (const p of paths)
        if (!has(g, p)) report(p, `is required together with ${present.join(', ')}`, null);
    },
  };
}

/** When `subject` is sent, each of `needs` must be too (houseNumber2 requires houseNumber1). */
export function requires(subject: string, ...needs: string[]): Rule {
  return {
    paths: [subject, ...needs],
    requiredness: false,
    says: `${subject} requires ${needs.join(' and ')}.`,
    apply(g, report) {
      if (!has(g, subject)) return;
      for (const p of needs) if (!has(g, p)) report(p, `is required when ${subject} is sent`, null);
    },
  };
}

/** The fields are required as soon as any other field of the group is sent. */
export function requiredWithAny(
  paths: readonly string[],
  options: { readonly besides?: readonly string[] } = {},
): Rule {
  const besides = options.besides ?? [];
  return {
    paths: [...paths],
    requiredness: true,
    says:
      `${paths.join(' and ')} are required when any other field of the group is sent` +
      (besides.length === 0 ? '.' : ` (${besides.join(', ')} do not count).`),
    apply(g, report) {
      const others = Object.keys(g).some((k) => !paths.includes(k) && !besides.includes(k));
      if (!others) return;
      for (const p of paths)
        if (!has(g, p)) report(p, 'is required when any other parameter of its group is sent', null);
    },
  };
}

/** When both are sent, `later` is not before `earlier` (dates and timestamps compare as text). */
export function notBefore(earlier: string, later: string): Rule {
  return {
    paths: [earlier, later],
    requiredness: false,
    says: `${later} is not before ${earlier}.`,
    apply(g, report) {
      const from = str(g, earlier);
      const to = str(g, later);
      if (from !== undefined && to !== undefined && to < from) report(later, `must not be before ${earlier}`);
    },
  };
}

/** Any other rule, written as code. */
export function check(spec: {
  paths: string[];
  says: string;
  requiredness?: boolean;
  apply: (group: FormTree, report: Report) => void;
}): Rule {
  return { requiredness: false, ...spec };
}
