/**
 * Fixtures for settlement tests: one merchant account's day in EUR and USD (DB, CP, RF, CB, CR,
 * PA, RV; card and bank account; matched, multiply matched and unmatched), settled in EUR.
 */
import { asMinor } from '../money';
import type { CandidatePayment, SettlementConfig, SettlementDay, SettlementTransaction } from './settle';

/** A 32-character id ending in `n` (hex digits). */
export const tid = (n: number): string => `7f${n.toString(16).padStart(30, '0')}`;

const at = (hhmmss: string): Date => new Date(`2026-03-01T${hhmmss}Z`);

export const TRICKY_DESCRIPTOR = 'Shop; "Deluxe"\r\nline 2\nend';

export const dayTransactions: readonly SettlementTransaction[] = [
  {
    id: tid(1),
    shortId: '1111.2222.0001',
    paymentType: 'DB',
    amount: asMinor(10000),
    currency: 'EUR',
    brand: 'VISA',
    createdAt: at('08:00:00'),
    descriptor: 'Order 1',
    merchantTransactionId: 'order-0001',
    card: { last4Digits: '4242', holder: 'Jane Doe' },
    clearing: { txId1: 'ACQ-0001', txId2: 'ARN-74000000001' },
  },
  {
    id: tid(2),
    shortId: '1111.2222.0002',
    paymentType: 'DB',
    amount: asMinor(4999),
    currency: 'USD',
    brand: 'MASTER',
    createdAt: at('08:30:15'),
    descriptor: TRICKY_DESCRIPTOR,
    merchantTransactionId: 'order-0002',
    card: { last4Digits: '5454', holder: 'John Smith' },
  },
  {
    id: tid(3),
    shortId: '1111.2222.0003',
    paymentType: 'PA',
    amount: asMinor(25000),
    currency: 'EUR',
    brand: 'VISA',
    createdAt: at('09:00:00'),
    card: { last4Digits: '1111', holder: 'Ann Lee' },
  },
  {
    id: tid(4),
    shortId: '1111.2222.0004',
    paymentType: 'CP',
    amount: asMinor(25000),
    currency: 'EUR',
    brand: 'VISA',
    createdAt: at('09:05:00'),
    referencedId: tid(3),
    card: { last4Digits: '1111', holder: 'Ann Lee' },
  },
  {
    id: tid(5),
    shortId: '1111.2222.0005',
    paymentType: 'RF',
    amount: asMinor(1000),
    currency: 'USD',
    brand: 'MASTER',
    createdAt: at('10:00:00'),
    referencedId: tid(2),
    card: { last4Digits: '5454', holder: 'John Smith' },
  },
  {
    id: tid(6),
    shortId: '1111.2222.0006',
    paymentType: 'CB',
    amount: asMinor(10000),
    currency: 'EUR',
    brand: 'VISA',
    createdAt: at('11:00:00'),
    referencedId: tid(1),
    chargebackResultCode: '000.100.220',
    chargebackResultDescription: 'Fraudulent transaction',
    card: { last4Digits: '4242', holder: 'Jane Doe' },
  },
  {
    id: tid(7),
    shortId: '1111.2222.0007',
    paymentType: 'CR',
    amount: asMinor(10000),
    currency: 'EUR',
    brand: 'VISA',
    createdAt: at('12:00:00'),
    referencedId: tid(1),
    chargebackResultCode: '000.100.221',
    chargebackResultDescription: 'Chargeback reversed: cardholder consent proven',
    card: { last4Digits: '4242', holder: 'Jane Doe' },
  },
  {
    id: tid(8),
    shortId: '1111.2222.0008',
    paymentType: 'DB',
    amount: asMinor(1234),
    currency: 'EUR',
    brand: 'GIROPAY',
    createdAt: at('13:00:00'),
    merchantTransactionId: 'order-0008',
    bankAccount: { last4Digits: '3000', holder: 'Max Mustermann', bankCode: '37040044' },
  },
  {
    id: tid(9),
    shortId: '1111.2222.0009',
    paymentType: 'PA',
    amount: asMinor(2000),
    currency: 'USD',
    brand: 'VISA',
    createdAt: at('14:00:00'),
  },
  {
    id: tid(10),
    shortId: '1111.2222.0010',
    paymentType: 'RV',
    amount: asMinor(2000),
    currency: 'USD',
    brand: 'VISA',
    createdAt: at('14:10:00'),
    referencedId: tid(9),
  },
  {
    // Not among the candidates by id or shortId; its reference names two payments.
    id: tid(11),
    shortId: '1111.2222.0011',
    paymentType: 'DB',
    amount: asMinor(333),
    currency: 'USD',
    brand: 'VISA',
    createdAt: at('15:00:00'),
    merchantTransactionId: 'order-dup',
  },
  {
    // Unknown to the merchant's payments altogether.
    id: tid(12),
    shortId: '1111.2222.0012',
    paymentType: 'CP',
    amount: asMinor(5),
    currency: 'EUR',
    brand: 'VISA',
    createdAt: at('16:00:00'),
  },
];

export const dayCandidates: readonly CandidatePayment[] = [
  ...dayTransactions
    .filter((tx) => tx.id !== tid(11) && tx.id !== tid(12))
    .map((tx) => ({ id: tx.id, shortId: tx.shortId, merchantTransactionId: tx.merchantTransactionId })),
  { id: tid(0x21), shortId: '9999.0000.0021', merchantTransactionId: 'order-dup' },
  { id: tid(0x20), shortId: '9999.0000.0020', merchantTransactionId: 'order-dup' },
];

export const merchantDay: SettlementDay = {
  merchantAccount: { id: 'a'.repeat(32), name: 'Demo Shop EUR' },
  pspEntityId: 'b'.repeat(32),
  divisionId: 'c'.repeat(32),
  merchantId: 'd'.repeat(32),
  transactions: dayTransactions,
  candidates: dayCandidates,
};

export const eurConfig: SettlementConfig = {
  date: '2026-03-02',
  currency: 'EUR',
  fxRates: { USD: '0.9211' },
  fees: {
    DB: { basisPoints: 150, fixed: asMinor(25) },
    CP: { basisPoints: 150, fixed: asMinor(25) },
    RF: { basisPoints: 0, fixed: asMinor(50) },
    PA: { basisPoints: 0, fixed: asMinor(5) },
    RV: { basisPoints: 0, fixed: asMinor(5) },
  },
  clearingInstitute: { name: 'Simulated Acquirer', merchantId: 'ACQ-MID-0042' },
  fileFormat: 'SIM-SETTLEMENT-V1',
};
