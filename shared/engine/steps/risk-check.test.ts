/**
 * The risk step in the engine, over the in-memory store and ledger: the facts a payment is screened
 * with (BIN, simulated card country, fingerprint, never the PAN), hashing of velocity keys, what is
 * recorded, the details and notifications a rejection leaves, and stored rules that no longer hold.
 */
import { describe, expect, it } from 'vitest';
import { binInfo } from '../../../server/processors/simulator/bin-table';
import { memoryRiskLedger } from '../../../server/test-kit/engine/memory-risk-ledger';
import { memoryStore } from '../../../server/test-kit/engine/memory-store';
import { simulatedProcessors } from '../../../server/test-kit/engine/processors';
import { parsed } from '../../../server/test-kit/engine/requests';
import { CARD_FORM } from '../../../server/test-kit/fixtures/cards';
import { testChannel } from '../../../server/test-kit/fixtures/channels';
import { asMinor } from '../../money';
import type { RiskRules } from '../../risk';
import { paymentChanges } from '../answers/notifications';
import { paymentResponse } from '../answers/response';
import type { Channel } from '../core/model';
import type { RiskEvent, RiskLedger } from '../core/ports';
import { createPayment, type EngineDeps } from '../operations/initial-payment';
import { type Fingerprint, riskDetails, riskFactsOf } from './risk-check';

const NOW = new Date('2026-11-21T12:00:00Z');
const CARD = `paymentBrand=VISA&${CARD_FORM}`;
const CUSTOMER = 'customer.givenName=Jane&customer.surname=Jones';

/** A visible fake HMAC: tests can see what was hashed, and that nothing else reaches the ledger. */
const fingerprint: Fingerprint = (kind, value) =>
  `h(${kind}:${value.length})${value.split('').reverse().join('')}`;

function setup(risk?: RiskRules, options: { fingerprint?: boolean; mode?: Channel['mode'] } = {}) {
  const ledger = memoryRiskLedger();
  const recorded: RiskEvent[] = [];
  const spy: RiskLedger = {
    countRiskEvents: (...args) => ledger.countRiskEvents(...args),
    recordRiskEvents: async (events) => {
      recorded.push(...events);
      await ledger.recordRiskEvents(events);
    },
    exclusiveRiskKeys: (channelId, keys, task) =>
      ledger.exclusiveRiskKeys(channelId, keys, async (count) => {
        const step = await task(count);
        recorded.push(...step.events);
        return step;
      }),
  };
  let now = NOW;
  const deps: EngineDeps = {
    store: memoryStore(),
    clock: { now: () => now },
    processors: simulatedProcessors,
    seal: (pan) => `sealed(${pan.length})`,
    riskHistory: spy,
    ...(options.fingerprint === false ? {} : { fingerprint }),
  };
  const channel: Channel = {
    ...testChannel,
    mode: options.mode ?? 'TEST',
    settings: risk === undefined ? {} : { risk },
  };
  const pay = async (body: string) => {
    const outcome = await createPayment(
      deps,
      { merchantId: channel.merchantId, channel },
      parsed('payment', `amount=10.00&currency=EUR&paymentType=DB&${CARD}&${body}`),
    );
    if (outcome.kind !== 'payment') throw new Error(JSON.stringify(outcome.errors));
    return outcome.payment;
  };
  return { deps, channel, pay, recorded, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
}

describe('riskFactsOf', () => {
  const subject = {
    request: {
      customer: { email: 'Jane@Example.com', ip: '192.0.2.1' },
      billing: { country: 'FR' },
      risk: { channelId: 'eu', amount: '12.00', parameters: { USER_DATA1: 'vip' } },
    },
    amount: asMinor(1000),
    currency: 'EUR',
    brand: 'VISA',
    cardNumber: '4200000000000000',
    binInfo,
  };

  it('takes 8 BIN digits, the simulated card country, a fingerprint; never the card number', () => {
    const read = riskFactsOf({ fingerprint }, subject);
    expect(read).toEqual({
      kind: 'ok',
      facts: {
        amount: 1000,
        currency: 'EUR',
        bin: '42000000',
        brand: 'VISA',
        cardCountry: 'DE',
        cardFingerprint: fingerprint('card', '4200000000000000'),
        email: 'Jane@Example.com',
        ip: '192.0.2.1',
        billingCountry: 'FR',
        risk: { channelId: 'eu', amount: 1200, parameters: { USER_DATA1: 'vip' } },
      },
    });
    expect(JSON.stringify(read)).not.toContain('4200000000000000');
  });

  it('has no card country outside test mode INTERNAL (no live BIN lookup), no fingerprint without the function', () => {
    const read = riskFactsOf({}, { ...subject, binInfo: undefined });
    expect(read).toMatchObject({ facts: { bin: '42000000' } });
    expect(read.kind === 'ok' && read.facts.cardCountry).toBeUndefined();
    expect(read.kind === 'ok' && read.facts.cardFingerprint).toBeUndefined();
  });

  it("uses a stored card's BIN when the request sends no number", () => {
    const read = riskFactsOf({ fingerprint }, { ...subject, cardNumber: undefined, bin: '545454' });
    expect(read).toMatchObject({ facts: { bin: '545454', cardCountry: 'US' } });
    expect(read.kind === 'ok' && read.facts.cardFingerprint).toBeUndefined();
  });

  it('refuses a risk.amount the currency cannot hold', () => {
    expect(riskFactsOf({}, { ...subject, currency: 'JPY', request: { risk: { amount: '10.50' } } })).toEqual({
      kind: 'invalid',
      errors: [{ name: 'risk.amount', value: '10.50', message: 'cannot be read in JPY' }],
    });
  });
});

describe('the risk step in createPayment', () => {
  it('records accepted payments under hashed keys only, per channel; not rejections', async () => {
    const t = setup({
      blockedEmailDomains: ['example.net'],
      velocity: [{ per: 'email', windowSeconds: 60, maxCount: 5 }],
    });
    await t.pay(`${CUSTOMER}&customer.email=Jane@Example.com&customer.ip=192.0.2.1`);
    await t.pay(`${CUSTOMER}&customer.email=jane@example.net`);
    expect(t.recorded).toEqual([
      expect.objectContaining({ kind: 'card', value: fingerprint('card', '4200000000000000') }),
      expect.objectContaining({ kind: 'email', value: fingerprint('email', 'jane@example.com') }),
      expect.objectContaining({ kind: 'ip', value: fingerprint('ip', '192.0.2.1') }),
    ]);
    for (const e of t.recorded) {
      expect(e).toMatchObject({
        merchantId: t.channel.merchantId,
        channelId: t.channel.id,
        amount: 1000,
        currency: 'EUR',
        at: NOW,
      });
    }
    const text = JSON.stringify(t.recorded);
    for (const plain of ['4200000000000000', 'jane@example.com', '"192.0.2.1"'])
      expect(text).not.toContain(plain);
  });

  it('records nothing when the rules have no velocity limits, and without a fingerprint (no keys to hash)', async () => {
    const noVelocity = setup({ blockedBins: ['411111'] });
    await noVelocity.pay(`${CUSTOMER}&customer.email=jane@example.com`);
    expect(noVelocity.recorded).toEqual([]);
    const noHash = setup(
      { velocity: [{ per: 'email', windowSeconds: 60, maxCount: 1 }] },
      { fingerprint: false },
    );
    for (let i = 0; i < 3; i++) {
      const p = await noHash.pay(`${CUSTOMER}&customer.email=jane@example.com`);
      expect(p.resultCode).toBe('000.100.110');
    }
    expect(noHash.recorded).toEqual([]);
  });

  it('a rejection keeps the rule in details.riskCheck, never answered, and notifies RISK after PAYMENT', async () => {
    const t = setup({ blockedBins: ['420000'] });
    const payment = await t.pay('risk.channelId=none');
    expect(payment.resultCode).toBe('800.300.401');
    expect(payment.details.riskCheck).toEqual({
      outcome: 'reject',
      rule: 'blockedBins',
      detail: 'BIN prefix 420000 is blocked',
      signals: [],
    });
    const body = paymentResponse(payment);
    expect(body.risk).toEqual({ channelId: 'none', score: '100' });
    expect(body).not.toHaveProperty('riskCheck');
    const changes = paymentChanges(payment, NOW);
    expect(changes.map((c) => c.type)).toEqual(['PAYMENT', 'RISK']);
    expect(changes[1]!.orderKey).toBe(payment.id);
    expect(changes[1]!.paymentType).toBeUndefined();
    expect(changes[1]!.notification().payload).toMatchObject({
      id: payment.id,
      result: { code: '800.300.401' },
      risk: { channelId: 'none', score: '100', outcome: 'reject', rule: 'blockedBins' },
    });
    const accepted = await setup({ blockedBins: ['411111'] }).pay('');
    expect(accepted.details.riskCheck).toBeUndefined();
    expect(paymentChanges(accepted, NOW).map((c) => c.type)).toEqual(['PAYMENT']);
  });

  it('screens live channels too (nothing asked of an acquirer when rejected)', async () => {
    const t = setup({ blockedBins: ['420000'] }, { mode: 'LIVE' });
    const payment = await t.pay('');
    expect(payment.resultCode).toBe('800.300.401');
    expect(payment.testMode).toBeUndefined();
  });

  it('refuses to screen with stored rules that no longer hold (a corrupted setting is not "no rules")', async () => {
    const t = setup({ blockedBins: ['12'] } as RiskRules);
    await expect(t.pay('')).rejects.toThrow(/invalid risk rules: blockedBins\[0\]/);
  });

  it('velocity windows move with the clock', async () => {
    const t = setup({ velocity: [{ per: 'card', windowSeconds: 60, maxCount: 1 }] });
    expect((await t.pay('')).resultCode).toBe('000.100.110');
    expect((await t.pay('')).resultCode).toBe('800.120.101');
    t.advance(60_001);
    expect((await t.pay('')).resultCode).toBe('000.100.110');
  });
});

describe('riskDetails', () => {
  it('answers the echoed risk group with the score; riskCheck only when notified', () => {
    const step = { kind: 'accepted', score: '5' } as const;
    expect(riskDetails(step, { risk: { brand: 'VISA' } })).toEqual({ risk: { brand: 'VISA', score: '5' } });
    expect(riskDetails(step, {}, true)).toEqual({
      risk: { score: '5' },
      riskCheck: { outcome: 'accept', signals: [] },
    });
    expect(riskDetails({ kind: 'invalid', errors: [] }, {})).toEqual({});
  });
});
