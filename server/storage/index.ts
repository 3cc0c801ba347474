/** Storage adapters: SQLite (default) and PostgreSQL behind one `Store`. */

export type { GatewayStore } from './kysely-store';
export { type OpenStoreOptions, openStore } from './open';
