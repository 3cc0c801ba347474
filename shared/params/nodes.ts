/**
 * The building blocks of the parameter catalogue: leaves (one parameter with a format), groups
 * (dotted names), lists (`[n]`, counted from 0) and dicts (`[key]` maps). A group carries the
 * conditional rules that relate its own fields, so a repeated group (shipping.customer,
 * merchant.billing, …) brings its rules along.
 *
 * Requiredness, from the spec's Req column: R = required, C = conditional (a rule says when),
 * O = optional. An R inside a nested group means "required when the group is sent"; at the top
 * level it depends on the request, so request kinds list their required names themselves.
 */
import type { Format } from './formats';
import type { Rule } from './rules';

export type Req = 'R' | 'C' | 'O';

/**
 * How a value is shown in errors and logs: `pan` keeps the first six and last four digits,
 * `secret` hides everything, `account` (IBANs and bank account numbers) keeps an IBAN's country
 * and check digits and the last four characters. Card numbers, security codes, tokens and
 * passwords are never echoed; account numbers are echoed to the merchant who sent them, and
 * sealed at rest like card numbers (shared/sealing/account-data.ts).
 */
export type Mask = 'pan' | 'secret' | 'account';

/** Marks a parameter that 3-D Secure v2 needs when the gateway authenticates the shopper. */
export type Tag = '3ds2';

export interface Leaf {
  readonly kind: 'leaf';
  readonly format: Format;
  readonly req: Req;
  readonly note?: string;
  readonly mask?: Mask;
  readonly tags?: readonly Tag[];
}

export type Fields = { readonly [name: string]: Node };

export interface Group<F extends Fields = Fields> {
  readonly kind: 'group';
  readonly fields: F;
  readonly rules: readonly Rule[];
}

export interface List<I extends Group = Group> {
  readonly kind: 'list';
  readonly item: I;
  /** Most items allowed: indices run from 0 to max - 1. */
  readonly max: number;
}

export interface Dict {
  readonly kind: 'dict';
  readonly key: Format;
  /** The value format, which may depend on the key (threeDSecure.schemeData[XX-USECASE]). */
  readonly value: Format | ((key: string) => Format | undefined);
  readonly note?: string;
}

export type Node = Leaf | Group | List | Dict;

/** The decoded, validated shape of a node: wire values stay strings, so echoes are exact. */
export type Infer<N> = N extends Leaf
  ? string
  : N extends List<infer I>
    ? Infer<I>[]
    : N extends Dict
      ? Record<string, string>
      : N extends Group<infer F>
        ? { [K in keyof F]?: Infer<F[K]> }
        : never;

export interface LeafOptions {
  readonly req?: Req;
  readonly note?: string;
  readonly mask?: Mask;
  readonly tags?: readonly Tag[];
}

export function leaf(format: Format, options: LeafOptions = {}): Leaf {
  return { kind: 'leaf', format, req: options.req ?? 'O', ...options };
}

export function group<F extends Fields>(fields: F, rules: readonly Rule[] = []): Group<F> {
  return { kind: 'group', fields, rules };
}

export function list<I extends Group>(item: I, max: number): List<I> {
  return { kind: 'list', item, max };
}

export function dict(key: Format, value: Dict['value'], note?: string): Dict {
  return note === undefined ? { kind: 'dict', key, value } : { kind: 'dict', key, value, note };
}

type Optionalized<N> = N extends Group<infer F> ? Group<{ [K in keyof F]: Optionalized<F[K]> }> : N;

/**
 * A repeat of a group with every field optional, as the spec's repeated groups are ("repeats every
 * customer field (O)"). Rules that only say what is required are dropped with the requiredness;
 * rules that relate fields (houseNumber2 needs houseNumber1) still hold.
 */
export function optional<F extends Fields>(g: Group<F>): Optionalized<Group<F>> {
  const fields: Record<string, Node> = {};
  for (const [name, node] of Object.entries(g.fields)) {
    fields[name] =
      node.kind === 'leaf' ? { ...node, req: 'O' } : node.kind === 'group' ? (optional(node) as Group) : node;
  }
  return group(
    fields,
    g.rules.filter((r) => !r.requiredness),
  ) as unknown as Optionalized<Group<F>>;
}

/** A group without some of its fields; rules about the removed fields go with them. */
export function omit<F extends Fields, K extends keyof F & string>(
  g: Group<F>,
  names: readonly K[],
): Group<Omit<F, K>> {
  const fields: Record<string, Node> = {};
  for (const [name, node] of Object.entries(g.fields)) if (!names.includes(name as K)) fields[name] = node;
  const gone = (path: string) => names.some((n) => path === n || path.startsWith(`${n}.`));
  return group(
    fields,
    g.rules.filter((r) => !r.paths.some(gone)),
  ) as unknown as Group<Omit<F, K>>;
}

/** A group with only some of its fields; rules that speak of others go. */
export function pick<F extends Fields, K extends keyof F & string>(
  g: Group<F>,
  names: readonly K[],
): Group<Pick<F, K>> {
  const keep = Object.keys(g.fields).filter((n) => !names.includes(n as K)) as (keyof F & string)[];
  return omit(g, keep) as unknown as Group<Pick<F, K>>;
}

/** A group with more fields (and rules) added. */
export function extend<F extends Fields, G extends Fields>(
  g: Group<F>,
  more: G,
  rules: readonly Rule[] = [],
): Group<F & G> {
  return group({ ...g.fields, ...more }, [...g.rules, ...rules]);
}

/**
 * Deep merge of groups that share a root, the way the spec's sections add to the same top-level
 * names (the billing section adds merchant.billing to the merchant section's merchant group).
 */
export function merge(groups: readonly Group[]): Group {
  const fields: Record<string, Node> = {};
  const rules: Rule[] = [];
  for (const g of groups) {
    rules.push(...g.rules);
    for (const [name, node] of Object.entries(g.fields)) {
      const existing = fields[name];
      if (existing === undefined) fields[name] = node;
      else if (existing.kind === 'group' && node.kind === 'group') fields[name] = merge([existing, node]);
      else if (existing !== node) throw new Error(`catalogue: ${name} is defined twice`);
    }
  }
  return group(fields, rules);
}
