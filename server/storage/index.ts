/** Storage adapters: SQLite (default) and PostgreSQL behind one `Store`. */

export { StoreInUse } from './core/folder-lock';
export type { GatewayStore } from './kysely-store';
export { type OpenStoreOptions, openStore } from './open';
