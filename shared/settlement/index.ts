export type { ReconciliationColumn, ReconciliationCsvOptions, ReconciliationLine } from './csv';
export {
  CSV_LINE_END,
  CSV_SEPARATOR,
  csvField,
  FORMULA_SAFE_COLUMNS,
  formatRequestTime,
  fxRateDec2,
  neutralizeFormula,
  RECONCILIATION_COLUMNS,
  RECONCILIATION_HEADER,
  reconciliationCsv,
  reconciliationCsvLines,
  reconciliationRow,
} from './csv';
export * from './records';
export type {
  CandidatePayment,
  Fee,
  FeePaymentType,
  FeeSchedule,
  Match,
  SettlementAccount,
  SettlementConfig,
  SettlementDay,
  SettlementPaymentType,
  SettlementTransaction,
} from './settle';
export {
  compareTransactions,
  FEE_TYPES,
  matchTransaction,
  SAME_CURRENCY_RATE,
  SETTLEMENT_PAYMENT_TYPES,
  settle,
  transactionSettler,
} from './settle';
