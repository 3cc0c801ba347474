/**
 * A channel's routes (issue 33 point 5; server/connectors/routing/): several connectors in order,
 * each with its rules (brands, card countries from the BIN, currencies, an amount range in minor
 * units), as the admin API's `routes` array; each route's connector checked like `connector`
 * (connector.ts), its errors named `routes.N.<field>`. Stored with the credentials sealed, shown
 * without them (settings.ts channelView).
 */
import { connectorRouteInput, MAX_ROUTES } from '../../../shared/contract/admin-inputs';
import type { ChannelMode, ConnectorRoute } from '../../../shared/engine/core/model';
import { isCountry2 } from '../../../shared/geo';
import type { Minor } from '../../../shared/money';
import { type FieldError, shown } from '../errors';
import { type ConnectorChange, parseConnector, resolveConnector } from './connector';
import { checkBrands, checkCurrencies } from './settings';

/** A route as given: its connector not yet tied to the channel's mode. */
export type RouteChange = Omit<ConnectorRoute, 'connector'> & { readonly connector: ConnectorChange };

/** A route's fields: the contract's (shared/contract/admin-inputs.ts). */
const ROUTE_FIELDS = Object.keys(connectorRouteInput.shape);

/** Minor units: a whole number from 0. */
function checkMinor(value: unknown, name: string): Minor | FieldError {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
    ? (value as Minor)
    : { name, value: shown(value), message: 'must be a whole number of minor units (cents), from 0' };
}

/** One route checked: every field's error at once, named `routes.N.field`. */
function parseRoute(value: unknown, name: string): RouteChange | FieldError[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return [{ name, value: shown(value), message: 'must be an object with a connector and its rules' }];
  const input = value as Record<string, unknown>;
  const errors: FieldError[] = [];
  const route: Record<string, unknown> = {};
  const connector = parseConnector(input.connector, `${name}.connector`);
  if (Array.isArray(connector)) errors.push(...connector);
  else route.connector = connector;
  const take = (field: string, checked: unknown) => {
    if (checked !== null && typeof checked === 'object' && !Array.isArray(checked) && 'message' in checked)
      errors.push(checked as FieldError);
    else route[field] = checked;
  };
  if (input.brands !== undefined) take('brands', checkBrands(input.brands, `${name}.brands`));
  if (input.currencies !== undefined)
    take('currencies', checkCurrencies(input.currencies, `${name}.currencies`));
  if (input.countries !== undefined) {
    const list = input.countries;
    take(
      'countries',
      Array.isArray(list) && list.length > 0 && list.every((c) => typeof c === 'string' && isCountry2(c))
        ? [...new Set(list as string[])]
        : {
            name: `${name}.countries`,
            value: shown(list),
            message: 'must list ISO 3166-1 alpha-2 countries',
          },
    );
  }
  for (const field of ['minAmount', 'maxAmount'] as const)
    if (input[field] !== undefined) take(field, checkMinor(input[field], `${name}.${field}`));
  const { minAmount, maxAmount } = route as { minAmount?: number; maxAmount?: number };
  if (minAmount !== undefined && maxAmount !== undefined && minAmount > maxAmount)
    errors.push({
      name: `${name}.maxAmount`,
      value: String(maxAmount),
      message: 'must not be below minAmount',
    });
  for (const field of Object.keys(input))
    if (!ROUTE_FIELDS.includes(field))
      errors.push({
        name: `${name}.${field}`,
        value: null,
        message: `is not a route field (${ROUTE_FIELDS.join(', ')})`,
      });
  return errors.length > 0 ? errors : (route as unknown as RouteChange);
}

/** The admin API's `routes` (an array in order, first tried first) checked; null removes them. */
export function parseRoutes(value: unknown, name = 'routes'): RouteChange[] | FieldError[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_ROUTES)
    return [
      { name, value: shown(value), message: `must list 1 to ${MAX_ROUTES} routes in order (null: none)` },
    ] as FieldError[];
  const errors: FieldError[] = [];
  const routes: RouteChange[] = [];
  value.forEach((item, i) => {
    const checked = parseRoute(item, `${name}.${i}`);
    if (Array.isArray(checked)) errors.push(...checked);
    else routes.push(checked);
  });
  return errors.length > 0 ? errors : routes;
}

/** The routes on a channel of `mode`: each connector's URL given or the kind's by the mode. */
export const resolveRoutes = (routes: readonly RouteChange[], mode: ChannelMode): ConnectorRoute[] =>
  routes.map((route, i) => ({
    ...route,
    connector: resolveConnector(route.connector, mode, `routes.${i}.connector`),
  }));
