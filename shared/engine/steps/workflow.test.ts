import { describe, expect, it } from 'vitest';
import type { Minor } from '../../money';
import type { Payment } from '../core/model';
import { checkReference, type ReferencingRequest } from './workflow';

const CHANNEL = 'c'.repeat(32);
let seq = 0;

function payment(paymentType: string, amount: number, extra: Partial<Payment> = {}): Payment {
  seq++;
  return {
    id: seq.toString(16).padStart(32, '0'),
    merchantId: 'm'.repeat(32),
    channelId: CHANNEL,
    paymentType,
    amount: amount as Minor,
    currency: 'EUR',
    resultCode: '000.100.110',
    resultDescription: '',
    shortId: '0000.0000.0000',
    ndc: 'x',
    details: {},
    createdAt: new Date(0),
    ...extra,
  };
}

const req = (
  paymentType: ReferencingRequest['paymentType'],
  amount: number | null,
  extra: Partial<ReferencingRequest> = {},
) =>
  ({
    paymentType,
    amount: amount as Minor | null,
    currency: amount === null ? undefined : 'EUR',
    channelId: CHANNEL,
    ...extra,
  }) as ReferencingRequest;

const PA = payment('PA', 10_000);
const DB = payment('DB', 10_000);
const failed = (p: Payment) => ({ ...p, resultCode: '800.100.152' });

describe('checkReference', () => {
  it.each<
    [
      string,
      Payment,
      Payment[],
      ReferencingRequest,
      { ok: true; amount: number } | { ok: false; code: string },
    ]
  >([
    // captures
    ['full capture of a PA', PA, [], req('CP', 10_000), { ok: true, amount: 10_000 }],
    [
      'capture without amount takes the rest',
      PA,
      [payment('CP', 4_000)],
      req('CP', null),
      { ok: true, amount: 6_000 },
    ],
    ['second partial capture', PA, [payment('CP', 4_000)], req('CP', 6_000), { ok: true, amount: 6_000 }],
    [
      'capture beyond the authorization',
      PA,
      [payment('CP', 4_000)],
      req('CP', 6_001),
      { ok: false, code: '700.400.100' },
    ],
    [
      'a failed capture does not count',
      PA,
      [failed(payment('CP', 4_000))],
      req('CP', 10_000),
      { ok: true, amount: 10_000 },
    ],
    [
      'capture after FINAL',
      PA,
      [payment('CP', 1_000, { details: { sequence: 'FINAL' } })],
      req('CP', 1_000),
      { ok: false, code: '700.400.100' },
    ],
    [
      'capture beyond numberOfCaptures',
      payment('PA', 10_000, { details: { numberOfCaptures: '2' } }),
      [payment('CP', 1), payment('CP', 1)],
      req('CP', 1),
      { ok: false, code: '700.400.100' },
    ],
    [
      'capture within numberOfCaptures',
      payment('PA', 10_000, { details: { numberOfCaptures: '2' } }),
      [payment('CP', 1)],
      req('CP', 1),
      { ok: true, amount: 1 },
    ],
    [
      'capture of a reversed PA',
      PA,
      [payment('RV', 10_000)],
      req('CP', 1),
      { ok: false, code: '700.400.100' },
    ],
    ['capture of a DB', DB, [], req('CP', 1), { ok: false, code: '700.400.510' }],
    // reversals
    ['reversal of a PA', PA, [], req('RV', null), { ok: true, amount: 10_000 }],
    ['reversal of a DB', DB, [], req('RV', null), { ok: true, amount: 10_000 }],
    ['second reversal', PA, [payment('RV', 10_000)], req('RV', null), { ok: false, code: '700.400.300' }],
    [
      'reversal of a captured PA',
      PA,
      [payment('CP', 10)],
      req('RV', null),
      { ok: false, code: '700.400.300' },
    ],
    ['reversal of a CP', payment('CP', 5), [], req('RV', null), { ok: false, code: '700.400.530' }],
    ['reversal above the amount', PA, [], req('RV', 10_001), { ok: false, code: '700.400.300' }],
    // refunds
    ['refund of a DB', DB, [], req('RF', 2_500), { ok: true, amount: 2_500 }],
    ['refund of a CP', payment('CP', 3_000), [], req('RF', 3_000), { ok: true, amount: 3_000 }],
    ['refund of an RB', payment('RB', 3_000), [], req('RF', 1), { ok: true, amount: 1 }],
    [
      'cumulative refunds up to the amount',
      DB,
      [payment('RF', 6_000)],
      req('RF', 4_000),
      { ok: true, amount: 4_000 },
    ],
    [
      'cumulative refunds beyond the amount',
      DB,
      [payment('RF', 6_000)],
      req('RF', 4_001),
      { ok: false, code: '700.400.200' },
    ],
    ['refund of a PA', PA, [], req('RF', 1), { ok: false, code: '700.400.520' }],
    [
      'refund of a reversed DB',
      DB,
      [payment('RV', 10_000)],
      req('RF', 1),
      { ok: false, code: '700.400.200' },
    ],
    // rebills
    ['rebill of a DB', DB, [], req('RB', 500), { ok: true, amount: 500 }],
    ['rebill of a PA', PA, [], req('RB', 500), { ok: false, code: '700.100.700' }],
    // the referenced payment and the request
    [
      'reference on another channel',
      PA,
      [],
      req('CP', 1, { channelId: 'd'.repeat(32) }),
      { ok: false, code: '700.400.700' },
    ],
    [
      'reference still pending',
      payment('PA', 1, { resultCode: '000.200.000' }),
      [],
      req('CP', 1),
      { ok: false, code: '700.400.570' },
    ],
    ['reference rejected', failed(PA), [], req('CP', 1), { ok: false, code: '700.300.200' }],
    ['currency mismatch', PA, [], req('CP', 1, { currency: 'USD' }), { ok: false, code: '700.100.500' }],
    ['zero amount', DB, [], req('RF', 0), { ok: false, code: '700.100.300' }],
    [
      'reversal of a PA a reauthorization links to (referenceUuid): still possible',
      PA,
      [payment('PA', 2_000)],
      req('RV', null),
      { ok: true, amount: 10_000 },
    ],
  ])('%s', (_, referenced, children, request, verdict) => {
    expect(checkReference(referenced, children, request)).toEqual(verdict);
  });
});
