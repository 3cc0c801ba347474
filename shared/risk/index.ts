/**
 * Risk screening: a channel's rules (rules.ts), the screening of one payment against them and its
 * history (screen.ts) and IP ranges (ip.ts); the in-memory history tests use is in the test kit
 * (server/test-kit/engine/memory-history.ts).
 * Framework-free: no Node or HTTP types.
 */
export type { IpAddress, IpRange, IpRangeError } from './ip';
export { formatIp, ipInRange, parseIp, parseIpRange } from './ip';
export type {
  AmountLimit,
  ParameterSignal,
  RiskRuleSet,
  RiskRules,
  RuleErrors,
  Scoring,
  VelocityKind,
  VelocityLimit,
} from './rules';
export { checkRules, DEFAULT_THRESHOLD, isRuleErrors, MAX_SCORE, MAX_WINDOW_SECONDS } from './rules';
export type {
  HistoryCount,
  HistoryKey,
  RiskFacts,
  RiskHistory,
  RiskParameters,
  RiskSignal,
  RiskVerdict,
} from './screen';
export { formatScore, RISK_CODES, SCORE_PATTERN, screen, screenedAmount, velocityKeys } from './screen';
