/**
 * `gateway channel set … --route SPEC` (issue 33; server/connectors/routing/): a channel's routes,
 * one `--route` per connector in the order they are tried, as the admin API's `routes` array
 * (checked by the back office, backoffice/channels/routes.ts, its errors named by these flags).
 *
 * A SPEC is `key=value` pairs joined by `;`:
 *   kind=opp|adyen|stripe        the connector's kind (default opp)
 *   url=URL                      its address (default: the kind's by the channel's mode)
 *   entity=, token=              opp's credentials        (as --connector-entity, --connector-token)
 *   api-key=, merchant-account=, hmac-key=, webhook-secret=   adyen's and stripe's (as --connector-…)
 *   brands=VISA,MASTER           the brands it takes       currencies=EUR,USD  the currencies
 *   countries=DE,AT              the card's country (from its BIN)
 *   min=0.00, max=500.00         the amount range, in the route's currencies (all of one exponent)
 * A route that gives no credentials takes the --connector-* ones when it is of their kind.
 */
import { exponentOf } from '../../shared/money';
import {
  booleanFlag,
  type FieldFlags,
  listFlag,
  type OptionSpec,
  type Parsed,
  quote,
  usageError,
} from './args';
import { CONNECTOR_FLAGS } from './connector-flags';

export const ROUTE_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  route: { type: 'string', multiple: true },
  'no-routes': { type: 'boolean' },
};

export const ROUTE_HELP: readonly (readonly [string, string])[] = [
  [
    "--route 'kind=adyen;brands=VISA,MASTER;currencies=EUR;min=0.00;max=500.00'",
    'one connector of the channel’s routes with its rules, repeated in the order they are tried (docs/connectors.md, “Routing”)',
  ],
  [
    '  keys',
    'kind, url, the credentials as the --connector-* flags without “connector-” (entity, token, api-key, merchant-account, hmac-key, webhook-secret), brands, countries, currencies, min, max',
  ],
  ['--no-routes', 'remove the routes: the channel’s one connector processes everything'],
];

/** A SPEC's connector keys: the --connector-* flags' names without their prefix, to the admin API's fields. */
const CONNECTOR_KEYS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(CONNECTOR_FLAGS).map(([field, flag]) => [
    flag === '--connector' ? 'kind' : flag.slice('--connector-'.length),
    field.slice('connector.'.length),
  ]),
);
const LISTS: Readonly<Record<string, string>> = {
  brands: 'brands',
  countries: 'countries',
  currencies: 'currencies',
};
const AMOUNTS: Readonly<Record<string, 'minAmount' | 'maxAmount'>> = { min: 'minAmount', max: 'maxAmount' };
const KEYS = [...Object.keys(CONNECTOR_KEYS), ...Object.keys(LISTS), ...Object.keys(AMOUNTS)];
const DECIMAL = /^[0-9]{1,15}(\.[0-9]{1,3})?$/;

/** A decimal amount in minor units of the route's currencies (they must share one exponent). */
function minorOf(value: string, key: string, currencies: unknown, n: number): number {
  const listed = Array.isArray(currencies)
    ? currencies.filter((c): c is string => typeof c === 'string')
    : [];
  const exponents = new Set(listed.map((c) => exponentOf(c) ?? -1));
  if (listed.length === 0 || exponents.size !== 1 || exponents.has(-1))
    throw usageError(
      `--route ${n}: ${key}= needs currencies= of one exponent (an amount is in the route’s currency)`,
    );
  if (!DECIMAL.test(value))
    throw usageError(`--route ${n}: ${key}= must be a decimal amount, got ${quote(value)}`);
  const exponent = [...exponents][0] as number;
  const [whole, fraction = ''] = value.split('.');
  if (fraction.length > exponent)
    throw usageError(`--route ${n}: ${key}= has more decimals than ${listed[0]} allows (${exponent})`);
  return Number(`${whole}${fraction.padEnd(exponent, '0')}`);
}

/** One SPEC as the admin API's route object; `inherited` the --connector-* credentials given. */
export function parseRouteSpec(
  spec: string,
  n: number,
  inherited: Record<string, string> | undefined,
): Record<string, unknown> {
  const pairs = new Map<string, string>();
  for (const part of spec
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const at = part.indexOf('=');
    const key = at < 0 ? part : part.slice(0, at);
    if (at < 0 || !KEYS.includes(key))
      throw usageError(`--route ${n}: ${quote(part)} is not key=value with a key of ${KEYS.join(', ')}`);
    if (pairs.has(key)) throw usageError(`--route ${n}: ${key}= given more than once`);
    pairs.set(key, part.slice(at + 1));
  }
  const connector: Record<string, string> = {};
  const route: Record<string, unknown> = {};
  for (const [key, value] of pairs) {
    if (CONNECTOR_KEYS[key] !== undefined) connector[CONNECTOR_KEYS[key]] = value;
    else if (LISTS[key] !== undefined)
      route[LISTS[key]] = value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
  }
  for (const [key, field] of Object.entries(AMOUNTS)) {
    const value = pairs.get(key);
    if (value !== undefined) route[field] = minorOf(value, key, route.currencies, n);
  }
  const kind = connector.kind ?? 'opp';
  const own = Object.keys(connector).some((k) => k !== 'kind' && k !== 'baseUrl');
  const sameKind = inherited !== undefined && (inherited.kind ?? 'opp') === kind;
  const { baseUrl: _url, ...credentials } = sameKind && !own ? inherited : {};
  return { connector: { ...credentials, ...connector }, ...route };
}

/** The --route flags as the admin API's `routes` (undefined: unchanged; null: removed by --no-routes). */
export function routeFlags(
  p: Parsed,
  inherited: Record<string, string> | null | undefined,
): Record<string, unknown>[] | null | undefined {
  const specs = listFlag(p, 'route');
  const remove = booleanFlag(p, 'no-routes');
  if (remove && specs.length > 0) throw usageError('--no-routes cannot be combined with --route');
  if (remove) return null;
  if (specs.length === 0) return undefined;
  return specs.map((spec, i) => parseRouteSpec(spec, i + 1, inherited ?? undefined));
}

/** How the back office's `routes.N.<field>` errors are said: by the --route they came from. */
export function routeFieldFlags(routes: readonly unknown[] | null | undefined): FieldFlags {
  const flags: Record<string, string> = { routes: '--route' };
  const keyOf: Record<string, string> = {
    ...Object.fromEntries(
      Object.entries(CONNECTOR_KEYS).map(([key, field]) => [`connector.${field}`, `${key}=`]),
    ),
    ...Object.fromEntries(Object.entries(LISTS).map(([key, field]) => [field, `${key}=`])),
    minAmount: 'min=',
    maxAmount: 'max=',
    connector: 'its connector',
  };
  (routes ?? []).forEach((_, i) => {
    for (const [field, said] of Object.entries(keyOf))
      flags[`routes.${i}.${field}`] = `--route ${i + 1} ${said}`;
  });
  return flags;
}
