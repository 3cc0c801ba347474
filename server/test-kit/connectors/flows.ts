/**
 * The scenarios of the connector kit's suite (scenarios.ts), each a flow a live merchant runs
 * through a connector: what it sends, what the answer must be. The processor's test data (an
 * approving and a declining card, its decline code) comes from the kind's harness.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { isSuccess } from '../../../shared/result-codes';
import { isNotSupported } from '../../connectors/kit/contract';
import type { TestResponse } from '../gateway';
import { SHOPPER_SCENARIOS } from './shopper-flows';
import type { Scenario, ScenarioContext, Support } from './world';

const LIVE_SUCCESS = '000.000.000';
const EUR = { currency: 'EUR' } as const;

/** A live success (200, 000.000.000) that the processor knows by its own reference. */
function succeeded(answer: TestResponse): void {
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.result.code).toBe(LIVE_SUCCESS);
  expect(answer.body.resultDetails?.ConnectorTxID1, answer.text).toEqual(expect.any(String));
}

/** The answer of `request`, or the table's 'not supported' when the connector says so. */
async function step(
  c: ScenarioContext,
  answer: Promise<TestResponse>,
): Promise<{ readonly answer: TestResponse; readonly unsupported?: Support }> {
  const got = await answer;
  const unsupported = c.unsupported(got);
  return unsupported === undefined ? { answer: got } : { answer: got, unsupported };
}

/** An initial payment with the approving card. */
const pay = (c: ScenarioContext, paymentType: string, amount: string, extra: Record<string, string> = {}) =>
  step(c, c.post('/v1/payments', { ...c.world.cards.approved, ...EUR, amount, paymentType, ...extra }));

/** A payment of the first, referencing `id` (CP, RF, RV, RB). */
const reference = (c: ScenarioContext, id: string, paymentType: string, amount?: string) =>
  step(c, c.post(`/v1/payments/${id}`, { paymentType, ...(amount === undefined ? {} : { ...EUR, amount }) }));

/** An authorisation, then its capture of `captured`. */
async function authorizeThenCapture(c: ScenarioContext, captured: string): Promise<Support> {
  const pa = await pay(c, 'PA', '10.00');
  if (pa.unsupported) return pa.unsupported;
  succeeded(pa.answer);
  const cp = await reference(c, pa.answer.body.id, 'CP', captured);
  if (cp.unsupported) return cp.unsupported;
  succeeded(cp.answer);
  expect(cp.answer.body).toMatchObject({
    paymentType: 'CP',
    amount: captured,
    referencedId: pa.answer.body.id,
  });
  return 'supported';
}

/** A debit of 10.00, then `then` with it. */
async function afterDebit(c: ScenarioContext, then: (id: string) => Promise<Support>): Promise<Support> {
  const db = await pay(c, 'DB', '10.00');
  if (db.unsupported) return db.unsupported;
  succeeded(db.answer);
  return then(db.answer.body.id);
}

/** A referencing payment that must succeed. */
const referenced = (c: ScenarioContext, type: string, amount?: string) => async (id: string) => {
  const got = await reference(c, id, type, amount);
  if (got.unsupported) return got.unsupported;
  succeeded(got.answer);
  return 'supported' as const;
};

/** A registration with the approving card (no CVV is stored), its id. */
async function registered(c: ScenarioContext): Promise<{ id?: string; unsupported?: Support }> {
  const { 'card.cvv': _cvv, ...card } = c.world.cards.approved;
  const rg = await step(c, c.post('/v1/registrations', card));
  if (rg.unsupported) return { unsupported: rg.unsupported };
  expect(rg.answer.status, rg.answer.text).toBe(200);
  expect(rg.answer.body.result.code).toBe(LIVE_SUCCESS);
  return { id: rg.answer.body.id };
}

async function payWithRegistration(c: ScenarioContext, extra: Record<string, string>): Promise<Support> {
  const rg = await registered(c);
  if (rg.unsupported) return rg.unsupported;
  const paid = await step(
    c,
    c.post(`/v1/registrations/${rg.id}/payments`, { ...EUR, amount: '6.00', paymentType: 'DB', ...extra }),
  );
  if (paid.unsupported) return paid.unsupported;
  succeeded(paid.answer);
  expect(paid.answer.body.registrationId).toBe(rg.id);
  return 'supported';
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'authorize, then capture in full',
    operations: ['authorize', 'capture'],
    run: (c) => authorizeThenCapture(c, '10.00'),
  },
  {
    name: 'authorize, then capture in part',
    operations: ['authorize', 'capture'],
    run: (c) => authorizeThenCapture(c, '4.00'),
  },
  {
    name: 'debit',
    operations: ['debit'],
    run: (c) => afterDebit(c, async () => 'supported'),
  },
  {
    name: 'credit',
    operations: ['credit'],
    run: async (c) => {
      const cd = await pay(c, 'CD', '3.00');
      if (cd.unsupported) return cd.unsupported;
      succeeded(cd.answer);
      return 'supported';
    },
  },
  {
    name: 'reverse an authorisation',
    operations: ['authorize', 'reverse'],
    run: async (c) => {
      const pa = await pay(c, 'PA', '10.00');
      if (pa.unsupported) return pa.unsupported;
      succeeded(pa.answer);
      return referenced(c, 'RV')(pa.answer.body.id);
    },
  },
  {
    name: 'refund in part',
    operations: ['debit', 'refund'],
    run: (c) => afterDebit(c, referenced(c, 'RF', '3.00')),
  },
  {
    name: 'refund over the amount: refused, nothing refunded',
    operations: ['debit', 'refund'],
    run: (c) =>
      afterDebit(c, async (id) => {
        const over = await reference(c, id, 'RF', '15.00');
        if (over.unsupported) return over.unsupported;
        expect(over.answer.status, over.answer.text).toBe(400);
        expect(over.answer.body.result.code).toMatch(/^700\./);
        // the whole amount can still be refunded: the refusal took nothing
        return referenced(c, 'RF', '10.00')(id);
      }),
  },
  {
    name: 'rebill',
    operations: ['debit', 'rebill'],
    run: (c) => afterDebit(c, referenced(c, 'RB', '10.00')),
  },
  {
    name: 'a declined card: the family’s decline code',
    operations: ['debit'],
    run: async (c) => {
      const { declined, declineCode } = c.world.cards;
      const got = await step(
        c,
        c.post('/v1/payments', { ...declined, ...EUR, amount: '2.00', paymentType: 'DB' }),
      );
      if (got.unsupported) return got.unsupported;
      expect(got.answer.status, got.answer.text).toBe(400);
      expect(got.answer.body.result.code).toBe(declineCode);
      expect(got.answer.body.resultDetails.AcquirerResponse, got.answer.text).toEqual(expect.any(String));
      return 'supported';
    },
  },
  {
    name: 'register, then pay with the registration',
    operations: ['register', 'payWithRegistration'],
    run: (c) => payWithRegistration(c, {}),
  },
  {
    name: 'a merchant-initiated repeat with the registration',
    operations: ['register', 'payWithRegistration'],
    run: (c) =>
      payWithRegistration(c, {
        'standingInstruction.mode': 'REPEATED',
        'standingInstruction.source': 'MIT',
        'standingInstruction.type': 'UNSCHEDULED',
      }),
  },
  {
    // issue 33 point 6: how a registration made at another connector is charged here (its contract,
    // as server/connectors/routing/migrate.ts calls it)
    name: 'a repeat of a card registered at another connector: the card on file with its network id',
    operations: ['debit'],
    run: async (c) => {
      const card = c.world.cards.approved as Record<string, string>;
      const answer = await c.world.contract.debit({
        channel: {} as never,
        request: {
          ...EUR,
          amount: '3.00',
          paymentType: 'DB',
          paymentBrand: card.paymentBrand,
          standingInstruction: { mode: 'REPEATED', source: 'MIT', type: 'UNSCHEDULED' },
        },
        decide: {
          instrument: {
            kind: 'card',
            brand: card.paymentBrand ?? 'VISA',
            number: card['card.number'] ?? '',
            expiryMonth: card['card.expiryMonth'] ?? '',
            expiryYear: card['card.expiryYear'] ?? '',
          },
        },
        now: new Date(),
        paymentId: randomUUID().replace(/-/g, ''),
        cardOnFile: { networkTransactionId: '123456789012345', type: 'UNSCHEDULED' },
      });
      if (isNotSupported(answer) || c.world.contract.takesCardOnFile !== true) return 'not supported';
      expect(isSuccess(answer.code), JSON.stringify(answer)).toBe(true);
      return 'supported';
    },
  },
  {
    name: 'the processor refuses the connection: a failure, nothing charged',
    operations: ['debit'],
    run: async (c) => {
      const got = await c.post(
        '/v1/payments',
        { ...c.world.cards.approved, ...EUR, amount: '1.00', paymentType: 'DB' },
        c.world.refused,
      );
      expect(got.status, got.text).toBe(400);
      expect(got.body.result.code).not.toBe(LIVE_SUCCESS);
      return 'supported';
    },
  },
  {
    name: 'the processor does not answer in time: pending, then asked',
    operations: ['debit', 'inquire'],
    run: async (c) => {
      const got = await c.post(
        '/v1/payments',
        { ...c.world.cards.approved, ...EUR, amount: '1.00', paymentType: 'DB' },
        c.world.silent,
      );
      // An uncertain outcome is never a failure (DECISIONS, "Connectors and processors"): pending
      // until the processor is asked what happened (the fault matrix, server/connectors/faults.test.ts).
      expect(got.status, got.text).toBe(200);
      expect(got.body.result.code, got.text).toBe('000.200.000');
      return 'supported';
    },
  },
  // last: the abandoned payment's scenario moves the gateway's clock
  ...SHOPPER_SCENARIOS,
];
