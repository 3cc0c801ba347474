/**
 * What each role may do on the admin API, per route: `read` (every role), `write` (operators and
 * merchant admins), `operator` (operators only); and the admin API's route table, each route with
 * the access its role needs. The admin routes register here as they are added
 * (server/http/routes/admin/shared.ts `kit.route`), the role middleware applies `allowed`
 * (server/http/middleware/admin-role), the role tests loop over the table, and the OpenAPI
 * document shows each route's access from it (server/openapi/operation.ts): kept below both the
 * HTTP layer and the document, so that the document never imports the routes it describes.
 */

export type Access = 'read' | 'write' | 'operator';

export function allowed(role: string, access: Access): boolean {
  if (access === 'read') return true;
  if (access === 'write') return role === 'operator' || role === 'merchant-admin';
  return role === 'operator';
}

export interface RouteSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly access: Access;
}

const TABLE = new Map<string, RouteSpec>();

/** Notes a registered admin route and the access it needs (a route registered again replaces it). */
export function registerAdminRoute(spec: RouteSpec): void {
  TABLE.set(`${spec.method} ${spec.path}`, spec);
}

/** Every admin route registered so far and the access it needs. */
export const adminRouteTable = (): RouteSpec[] => [...TABLE.values()];
