/**
 * A simulated BIN table for test mode INTERNAL: what an issuer lookup would say about the test
 * cards (facts §6.2), so card responses carry `card.type`, `card.level` and `card.issuer.*` as the
 * spec's "Payment response fields" list them and integrations can test code that reads them.
 *
 * Deliberately small and fictional: real BIN data is licensed and changes weekly, and a payment on
 * a live or EXTERNAL channel must never be answered with simulated issuer data (the response
 * builder asks only for INTERNAL payments). A BIN not listed answers nothing, as an unknown BIN does.
 *
 * `regulated` (card.regulatedFlag): the card's interchange is capped by regulation, as a US debit
 * or prepaid card of an issuer with USD 10 billion in assets or more is (the Durbin amendment).
 * Simulator Bank is such an issuer; Simulator Credit Union is below the threshold (exempt).
 */

import type { BinInfo } from '../../../shared/engine/core/ports';

export type { BinInfo };

const issuer = (bank: string, phone: string, domain: string) => ({
  bank,
  phone,
  website: `https://${domain}`,
});

/** example.* domains and 555 numbers, so nobody mistakes them for a real issuer. */
const SIM_BANK = issuer('Simulator Bank', '+1 555 0100', 'simulator-bank.example');
const SIM_CREDIT_UNION = issuer('Simulator Credit Union', '+1 555 0101', 'simulator-cu.example');

const TABLE: Readonly<Record<string, BinInfo>> = {
  // 4200000000000000, the standard success card, and the 3-D Secure cards of the same BIN.
  '420000': { type: 'CREDIT', level: 'CLASSIC', issuer: SIM_BANK, country: 'DE', regulated: false },
  // 4012001037461114 and friends: the 3-D Secure edge cases; a US debit card of an exempt issuer.
  '401200': { type: 'DEBIT', level: 'CLASSIC', issuer: SIM_CREDIT_UNION, country: 'US', regulated: false },
  // 5232105022907162: the non-3DS MASTER sample.
  '523210': { type: 'DEBIT', level: 'STANDARD', issuer: SIM_BANK, country: 'GB', regulated: false },
  // 5454545454545454 and the 5200… 3-D Secure cards.
  '545454': { type: 'CREDIT', level: 'WORLD', issuer: SIM_BANK, country: 'US', regulated: false },
  '520000': { type: 'CREDIT', level: 'STANDARD', issuer: SIM_CREDIT_UNION, country: 'FR', regulated: false },
  // 377777777777770: the AMEX sample.
  '377777': { type: 'CREDIT', level: 'GOLD', issuer: SIM_BANK, country: 'US', regulated: false },
  // 5100000000000008 (success) and the MASTER decline cards with advice codes (acquirer.ts):
  // a US debit card of a large issuer, so regulated.
  '510000': { type: 'DEBIT', level: 'STANDARD', issuer: SIM_BANK, country: 'US', regulated: true },
};

/** What the simulated issuer lookup knows about a 6-digit BIN, if anything. */
export function binInfo(bin: string): BinInfo | undefined {
  return Object.hasOwn(TABLE, bin) ? TABLE[bin] : undefined;
}
