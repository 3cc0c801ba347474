/**
 * The stripe connector's bank redirects (iDEAL, EPS, giropay, Przelewy24, Sofort) against the
 * fake of Stripe, at the contract: the PaymentIntent each is created and confirmed with (its
 * payment method type, the billing details the type requires, the gateway's return address),
 * Stripe's redirect as the pending answer, and what `finish` reads after the bank's page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Payment } from '../../../shared/engine/core/model';
import {
  type StripeFake,
  shopperAtStripe,
  startStripeFake,
  stripeSettings,
} from '../../test-kit/fakes/stripe';
import { type ConnectorAnswer, isNotSupported, type NotSupported } from '../kit/contract';
import { stripeConnector } from './connector';

let fake: StripeFake;
beforeAll(async () => {
  fake = await startStripeFake();
});
afterAll(async () => {
  await fake.close();
});

const connector = () => stripeConnector(stripeSettings(fake.baseUrl), (url, init) => fetch(url, init));

let ids = 0;
/** A DB with a redirect brand as the engine gives it: no account data, the gateway's return address. */
function order(paymentBrand: string, extra: Record<string, unknown> = {}, paymentType = 'DB') {
  const paymentId = `8ac7a4a0${String(++ids).padStart(24, '0')}`;
  return {
    channel: {} as never,
    request: { amount: '12.34', currency: 'EUR', paymentType, paymentBrand, ...extra },
    decide: { instrument: { kind: 'other' as const } },
    now: new Date(),
    paymentId,
    returnUrl: `https://gateway.example/connectors/return/${paymentId}`,
  };
}

function answered(answer: ConnectorAnswer | NotSupported): ConnectorAnswer {
  if (isNotSupported(answer)) throw new Error(`not supported: ${answer.notSupported}`);
  return answer;
}

const made = (answer: ConnectorAnswer): Payment =>
  ({ id: 'gw-1', paymentType: 'DB', details: { resultDetails: { ConnectorTxID1: answer.id } } }) as never;

const named = { customer: { givenName: 'Jane', surname: 'Jones', email: 'jane@example.com' } };

describe('the stripe connector’s bank redirects', () => {
  it.each([
    ['IDEAL', 'ideal', {}, {}],
    ['EPS', 'eps', named, { billing_details: { name: 'Jane Jones' } }],
    ['GIROPAY', 'giropay', named, { billing_details: { name: 'Jane Jones' } }],
    ['PRZELEWY', 'p24', named, { billing_details: { email: 'jane@example.com' } }],
    ['SOFORTUEBERWEISUNG', 'sofort', { bankAccount: { country: 'AT' } }, { sofort: { country: 'AT' } }],
  ])(
    '%s: a PaymentIntent of type %s, pending with Stripe’s redirect to the bank',
    async (brand, type, extra, data) => {
      const request = order(brand, extra);
      const pending = answered(await connector().debit(request));
      expect(pending.code).toBe('000.200.000');
      expect(pending.redirect?.url).toMatch(new RegExp(`^${fake.baseUrl}/authorize/pi_`));
      expect(fake.requests.at(-1)?.form).toMatchObject({
        amount: '1234',
        currency: 'eur',
        confirm: 'true',
        capture_method: 'automatic',
        allowed_payment_method_types: [type],
        payment_method_data: { type, ...data },
        return_url: request.returnUrl,
      });
      // declared, so the live widget draws the brand for a channel whose connector is Stripe
      expect(connector().brands).toContain(brand);
    },
  );

  it.each([
    ['EPS', {}, '100.700.100'],
    ['GIROPAY', { customer: { givenName: 'Jane' } }, '100.700.100'],
    ['PRZELEWY', { customer: { givenName: 'Jane', surname: 'Jones' } }, '100.900.100'],
    ['SOFORTUEBERWEISUNG', {}, '100.200.100'],
  ])('%s without what Stripe requires of it: the family’s code, nothing sent', async (brand, extra, code) => {
    const sent = fake.requests.length;
    expect(answered(await connector().debit(order(brand, extra))).code).toBe(code);
    expect(fake.requests.length).toBe(sent);
  });

  it('a currency the method does not take (iDEAL in USD): 600.200.500, nothing sent', async () => {
    const sent = fake.requests.length;
    const answer = answered(await connector().debit(order('IDEAL', { currency: 'USD' })));
    expect(answer.code).toBe('600.200.500');
    expect(fake.requests.length).toBe(sent);
  });

  it('Przelewy24 takes PLN; PA of a bank redirect is not supported (Stripe captures them at once)', async () => {
    const pln = answered(await connector().debit(order('PRZELEWY', { ...named, currency: 'PLN' })));
    expect(pln.code).toBe('000.200.000');
    expect(isNotSupported(await connector().authorize(order('IDEAL', {}, 'PA')))).toBe(true);
  });

  it('finish after the bank: succeeded is 000.000.000; a failure 100.396.101 with Stripe’s code kept', async () => {
    const c = connector();
    const paid = answered(await c.debit(order('IDEAL')));
    await shopperAtStripe(paid.redirect?.url ?? '', 'approve');
    const ok = answered(await c.finish({ payment: made(paid), parameters: {} } as never));
    expect(ok).toMatchObject({ code: '000.000.000', processorCode: 'succeeded', id: paid.id });
    expect(ok.resultDetails?.ConnectorTxID2).toMatch(/^py_|^ch_/);
    const failed = answered(await c.debit(order('IDEAL')));
    await shopperAtStripe(failed.redirect?.url ?? '', 'decline');
    const no = answered(await c.finish({ payment: made(failed), parameters: {} } as never));
    expect(no).toMatchObject({ code: '100.396.101', processorCode: 'payment_intent_payment_attempt_failed' });
  });

  it('Sofort is processing after the bank (a delayed notification method): finish is still pending', async () => {
    const c = connector();
    const pending = answered(await c.debit(order('SOFORTUEBERWEISUNG', { bankAccount: { country: 'DE' } })));
    await shopperAtStripe(pending.redirect?.url ?? '', 'approve');
    const read = answered(await c.finish({ payment: made(pending), parameters: {} } as never));
    expect(read).toMatchObject({ code: '000.200.000', processorCode: 'processing' });
  });

  it('an abandoned one is still requires_action at Stripe: finish answers pending (the gateway times it out)', async () => {
    const c = connector();
    const pending = answered(await c.debit(order('IDEAL')));
    const read = answered(await c.finish({ payment: made(pending), parameters: {} } as never));
    expect(read.code).toBe('000.200.000');
  });
});
