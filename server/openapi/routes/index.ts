/**
 * Every route's OpenAPI entry, area by area. A new route file gets its table here (one line);
 * a new route, its entry in its area's table. openapi.test.ts fails on a route without one.
 */
import type { RouteDoc } from '../route-doc';
import { ADMIN_ROUTES } from './admin';
import { ADMIN_ACCOUNT_ROUTES } from './admin-accounts';
import { ADMIN_OPERATION_ROUTES } from './admin-operations';
import { ADMIN_RECORD_ROUTES } from './admin-records';
import { CHECKOUT_ROUTES } from './checkouts';
import { CONNECTOR_PAGE_ROUTES } from './connector-pages';
import { GATEWAY_FILE_ROUTES } from './gateway-files';
import { LIFECYCLE_ROUTES } from './lifecycle';
import { OPERATION_ROUTES } from './operations';
import { PAYMENT_ROUTES } from './payments';
import { SIMULATOR_ROUTES } from './simulators';

export const ROUTE_DOCS: readonly RouteDoc[] = [
  ...PAYMENT_ROUTES,
  ...CHECKOUT_ROUTES,
  ...LIFECYCLE_ROUTES,
  ...GATEWAY_FILE_ROUTES,
  ...SIMULATOR_ROUTES,
  ...CONNECTOR_PAGE_ROUTES,
  ...OPERATION_ROUTES,
  ...ADMIN_ACCOUNT_ROUTES,
  ...ADMIN_ROUTES,
  ...ADMIN_OPERATION_ROUTES,
  ...ADMIN_RECORD_ROUTES,
];
