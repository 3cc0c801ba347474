/** The simulated acquirer's records: table (0012) and the AcquirerRecordStore. */
export * from './store';
export type { AcquirerRecordsTable } from './tables';
export { acquirerRecordsMigration } from './tables';
