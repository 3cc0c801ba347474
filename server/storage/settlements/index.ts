/** Settlement runs, settlements and their records: tables (0006) and the SettlementStore. */
export { StagedRecords } from './staged';
export * from './store';
export type { SettlementRecordsTable, SettlementRunsTable, SettlementsTable } from './tables';
export { settlementsMigration } from './tables';
