/**
 * A channel's routes (issue 33 point 5; server/connectors/routing/): several connectors in order,
 * each with its rules (brands, card countries from the BIN, currencies, an amount range in minor
 * units), as the admin API's `routes` array: the contract's `connectorRouteInput`, each route's
 * connector parsed like `connector` (connector.ts), its lists by the gateway's catalogues
 * (accepts.ts), its errors named `routes.N.<field>`. Stored with the credentials sealed, shown
 * without them (settings.ts channelView).
 */
import * as z from 'zod';
import { connectorRouteInput, MAX_ROUTES } from '../../../shared/contract/admin-inputs';
import type { ChannelMode, ConnectorRoute } from '../../../shared/engine/core/model';
import { isCountry2 } from '../../../shared/geo';
import type { Minor } from '../../../shared/money';
import { brandList, catalogued, currencyList } from './accepts';
import { type ConnectorChange, connectorChange, resolveConnector } from './connector';

/** A route as given: its connector not yet tied to the channel's mode. */
export type RouteChange = Omit<ConnectorRoute, 'connector'> & { readonly connector: ConnectorChange };

/** A route's fields: the contract's (shared/contract/admin-inputs.ts). */
export const ROUTE_FIELDS = Object.keys(connectorRouteInput.shape);

const countryList = catalogued({
  known: isCountry2,
  empty: 'must list ISO 3166-1 alpha-2 countries',
  unknown: () => 'must list ISO 3166-1 alpha-2 countries',
});

/** One route: the contract's fields (no other), its lists as arrays checked, its range the right way up. */
const routeChange = z
  .strictObject(
    connectorRouteInput.extend({
      connector: connectorChange,
      brands: brandList.optional(),
      countries: countryList.optional(),
      currencies: currencyList.optional(),
    }).shape,
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `is not a route field (${ROUTE_FIELDS.join(', ')})`
          : 'must be an object with a connector and its rules',
    },
  )
  // said with the route's other faults (`when`), so only when both amounts are numbers
  .refine(
    (route: { readonly minAmount?: unknown; readonly maxAmount?: unknown }) =>
      typeof route.minAmount !== 'number' ||
      typeof route.maxAmount !== 'number' ||
      route.minAmount <= route.maxAmount,
    { path: ['maxAmount'], message: 'must not be below minAmount', when: () => true },
  )
  .transform(
    ({ minAmount, maxAmount, ...route }): RouteChange => ({
      ...route,
      ...(minAmount === undefined ? {} : { minAmount: minAmount as Minor }),
      ...(maxAmount === undefined ? {} : { maxAmount: maxAmount as Minor }),
    }),
  );

const ROUTES = `must list 1 to ${MAX_ROUTES} routes in order (null: none)`;

/** The admin API's `routes` (an array in order, first tried first); null removes them. */
export const routeChanges = z
  .array(routeChange, { error: ROUTES })
  .min(1, ROUTES)
  .max(MAX_ROUTES, ROUTES)
  .nullable()
  .optional();

/** The routes on a channel of `mode`: each connector's URL given or the kind's by the mode. */
export const resolveRoutes = (routes: readonly RouteChange[], mode: ChannelMode): ConnectorRoute[] =>
  routes.map((route, i) => ({
    ...route,
    connector: resolveConnector(route.connector, mode, `routes.${i}.connector`),
  }));
