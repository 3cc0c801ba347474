import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../../server/test-kit/engine/memory-store';
import { simulatedProcessors } from '../../../server/test-kit/engine/processors';
import { parsed } from '../../../server/test-kit/engine/requests';
import { CARD_FORM } from '../../../server/test-kit/fixtures/cards';
import { testChannel } from '../../../server/test-kit/fixtures/channels';
import { paymentResponse } from '../answers/response';
import { agreementOf } from '../steps/after-success';
import { createPayment, type EngineDeps, type Outcome, readMoney } from './initial-payment';

const channel = testChannel;
const NOW = new Date('2026-11-21T12:00:00Z');

const request = (body: string) => parsed('payment', body);

describe('createPayment', () => {
  const deps = (): EngineDeps => ({
    store: memoryStore(),
    clock: { now: () => NOW },
    processors: simulatedProcessors,
    seal: (pan) => `sealed(${pan.length})`,
  });

  it('records a successful DB and answers it as clients expect', async () => {
    const d = deps();
    const outcome = await createPayment(
      d,
      { merchantId: channel.merchantId, channel },
      request(
        `amount=12.50&currency=EUR&paymentBrand=VISA&paymentType=DB&merchantTransactionId=order-0001&${CARD_FORM}`,
      ),
    );
    expect(outcome.kind).toBe('payment');
    if (outcome.kind !== 'payment') return;
    const stored = await d.store.getPayment(channel.merchantId, outcome.payment.id);
    expect(stored).toEqual(outcome.payment);
    const body = paymentResponse(outcome.payment);
    expect(body).toMatchObject({
      paymentType: 'DB',
      paymentBrand: 'VISA',
      amount: '12.50',
      currency: 'EUR',
      merchantTransactionId: 'order-0001',
      result: { code: '000.100.110', cvvResponse: 'M' },
      card: {
        bin: '420000',
        last4Digits: '0000',
        holder: 'Jane Jones',
        expiryMonth: '05',
        expiryYear: '2034',
      },
      risk: { score: '0' },
    });
    expect(body.id).toMatch(/^[0-9a-f]{32}$/);
    expect(body.ndc).toMatch(new RegExp(`^${channel.id}-[0-9a-f]{32}$`));
    expect(body.descriptor).toMatch(/^\d{4}\.\d{4}\.\d{4} Test_Channel$/);
    expect(JSON.stringify(stored)).not.toContain('4200000000000000');
    expect(JSON.stringify(body)).not.toMatch(/"cvv"|4200000000000000/);
  });

  it('records a decline with its code', async () => {
    const outcome = await createPayment(
      deps(),
      { merchantId: channel.merchantId, channel },
      request(
        `amount=1.00&currency=EUR&paymentBrand=VISA&paymentType=PA&${CARD_FORM}&customParameters[forceResultCode]=800.100.152`,
      ),
    );
    expect(outcome.kind === 'payment' && outcome.payment.resultCode).toBe('800.100.152');
  });

  it('refuses amounts finer than the currency', async () => {
    const outcome = await createPayment(
      deps(),
      { merchantId: channel.merchantId, channel },
      request(`amount=100.50&currency=JPY&paymentBrand=VISA&paymentType=DB&${CARD_FORM}`),
    );
    expect(outcome).toEqual({
      kind: 'invalid',
      errors: [{ name: 'amount', value: '100.50', message: 'has more decimals than JPY has (0)' }],
    });
  });

  it('never simulates EXTERNAL without a connector', async () => {
    const outcome = await createPayment(
      deps(),
      { merchantId: channel.merchantId, channel },
      request(`amount=1.00&currency=EUR&paymentBrand=VISA&paymentType=DB&testMode=EXTERNAL&${CARD_FORM}`),
    );
    expect(outcome.kind === 'payment' && outcome.payment.resultCode).toBe('600.200.201');
  });

  const paid = (outcome: Outcome) => {
    if (outcome.kind !== 'payment') throw new Error(JSON.stringify(outcome));
    return outcome.payment;
  };
  const caller = { merchantId: channel.merchantId, channel };

  it('answers the simulated issuer data of an INTERNAL card payment, never of a live one', async () => {
    const body = `amount=1.00&currency=EUR&paymentBrand=VISA&paymentType=DB&${CARD_FORM}`;
    const internal = paymentResponse(
      paid(await createPayment(deps(), caller, request(body))),
      simulatedProcessors,
    );
    expect(internal.card).toMatchObject({
      type: 'CREDIT',
      level: 'CLASSIC',
      issuer: { bank: 'Simulator Bank', phone: '+1 555 0100', website: 'https://simulator-bank.example' },
    });
    const live = { ...channel, mode: 'LIVE' as const };
    const payment = paid(await createPayment(deps(), { ...caller, channel: live }, request(body)));
    expect(paymentResponse(payment, simulatedProcessors).card).not.toHaveProperty('type');
  });

  it('answers a token as card bin and last4, without expiry when none was sent', async () => {
    const payment = paid(
      await createPayment(
        deps(),
        caller,
        request(
          'amount=1.00&currency=EUR&paymentBrand=VISA&paymentType=DB&tokenAccount.number=4200000000000000&tokenAccount.type=NETWORK&tokenAccount.cryptogram=AgAAAAAABk4DWZ4C28yUQAAAAAA=',
        ),
      ),
    );
    expect(payment.card?.encryptedNumber).toBe('sealed(16)');
    const body = paymentResponse(payment);
    expect(body.card).toEqual(expect.objectContaining({ bin: '420000', last4Digits: '0000' }));
    expect(body.card).not.toHaveProperty('expiryMonth');
    expect(body.tokenAccount).toEqual({ type: 'NETWORK' });
  });

  describe('forex', () => {
    it('reads forex.amount in forex.currency and answers it as DEC2, like amount', () => {
      expect(
        readMoney({ amount: '10.00', currency: 'EUR', forex: { amount: '1500', currency: 'JPY' } }),
      ).toEqual({
        kind: 'ok',
        amount: 1000,
        forex: { amount: '1500.00', currency: 'JPY' },
      });
      expect(
        readMoney({ amount: '10.00', currency: 'EUR', forex: { amount: '7', currency: 'USD' } }),
      ).toEqual({
        kind: 'ok',
        amount: 1000,
        forex: { amount: '7.00', currency: 'USD' },
      });
    });

    it('reports amount and forex.amount precision faults at once', () => {
      expect(
        readMoney({ amount: '10.50', currency: 'JPY', forex: { amount: '1.50', currency: 'JPY' } }),
      ).toEqual({
        kind: 'invalid',
        errors: [
          { name: 'amount', value: '10.50', message: 'has more decimals than JPY has (0)' },
          { name: 'forex.amount', value: '1.50', message: 'has more decimals than JPY has (0)' },
        ],
      });
    });
  });

  describe('referenceUuid', () => {
    const PA = `amount=10.00&currency=EUR&paymentBrand=VISA&paymentType=PA&${CARD_FORM}`;

    it('links a reauthorization to the original and charges its stored card', async () => {
      const d = deps();
      const original = paid(await createPayment(d, caller, request(PA)));
      const reauth = paid(
        await createPayment(
          d,
          caller,
          request(
            `amount=12.00&currency=EUR&paymentType=PA&referenceUuid=${original.id}&standingInstruction.industryPractice=REAUTHORIZATION`,
          ),
        ),
      );
      expect(reauth).toMatchObject({
        resultCode: '000.100.110',
        referencedId: original.id,
        paymentBrand: 'VISA',
        card: original.card,
      });
      expect(paymentResponse(reauth).referencedId).toBe(original.id);
    });

    /** The original: none, or a PA on another channel of the same merchant. */
    it.each<[string, boolean]>([
      ['an unknown id', false],
      ['a payment on another channel', true],
    ])('answers a validation error for %s', async (_, onOtherChannel) => {
      const d = deps();
      const other = { ...channel, id: 'c'.repeat(32) };
      const id = onOtherChannel
        ? paid(await createPayment(d, { ...caller, channel: other }, request(PA))).id
        : 'f'.repeat(32);
      const outcome = await createPayment(
        d,
        caller,
        request(`amount=1.00&currency=EUR&paymentType=PA&referenceUuid=${id}`),
      );
      expect(outcome).toEqual({
        kind: 'invalid',
        errors: [{ name: 'referenceUuid', value: id, message: 'matches no transaction' }],
      });
    });

    it('declines building on a rejected original (700.300.200)', async () => {
      const d = deps();
      const rejected = paid(
        await createPayment(d, caller, request(`${PA}&customParameters[forceResultCode]=800.100.151`)),
      );
      const outcome = paid(
        await createPayment(
          d,
          caller,
          request(`amount=1.00&currency=EUR&paymentType=PA&referenceUuid=${rejected.id}`),
        ),
      );
      expect(outcome).toMatchObject({ resultCode: '700.300.200', referencedId: rejected.id });
    });
  });

  describe('recurring migration', () => {
    it('keeps the ids of the agreement the merchant brings along', () => {
      expect(
        agreementOf({
          recurringMigration: { connectorTxId1: 'ACQ-123' },
          standingInstruction: { agreementId: 'AG-1' },
        }),
      ).toEqual({ initialTransactionId: 'ACQ-123', agreementId: 'AG-1' });
      expect(
        agreementOf({
          recurringMigration: {},
          standingInstruction: { initialTransactionId: '123456789012345' },
        }),
      ).toMatchObject({ initialTransactionId: '123456789012345' });
      expect(agreementOf({})).toBeUndefined();
    });

    it('registers a migrated agreement with createRegistration', async () => {
      const d = deps();
      const payment = paid(
        await createPayment(
          d,
          caller,
          request(
            `amount=5.00&currency=EUR&paymentBrand=VISA&paymentType=DB&${CARD_FORM}&createRegistration=true&recurringMigration.paymentType=DB&recurringMigration.connectorTxId1=ACQ-123`,
          ),
        ),
      );
      expect(payment.details.recurringMigration).toEqual({ paymentType: 'DB', connectorTxId1: 'ACQ-123' });
      const registration = await d.store.getRegistration(channel.merchantId, payment.registrationId ?? '');
      expect(registration).toMatchObject({ initialTransactionId: 'ACQ-123', card: payment.card });
    });
  });
});
