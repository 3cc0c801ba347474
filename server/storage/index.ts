/** Storage adapters: SQLite (default) and PostgreSQL behind one `Store`. */
export { type OpenStoreOptions, openStore } from './open';
