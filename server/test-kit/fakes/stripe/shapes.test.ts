/**
 * Every object the fake answers has the shape of its fixture in Stripe's published
 * fixtures3.json (../shared/facts/connectors/stripe/): the same keys, at the top and in the
 * nested objects the connector reads (a charge's card details and checks). Skipped, saying so,
 * when ../shared is not there (a clone outside this workplace).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from './harness';
import { type StripeFake, startStripeFake } from './server';

const FIXTURES = fileURLToPath(
  new URL('../../../../../shared/facts/connectors/stripe/fixtures3.json', import.meta.url),
);
const present = existsSync(FIXTURES);
if (!present) console.warn(`skipped: Stripe's fixtures are not at ${FIXTURES} (../shared is absent)`);

type Json = Record<string, unknown>;
const keys = (object: unknown) => Object.keys(object as Json).sort();
const at = (object: unknown, ...path: string[]) =>
  path.reduce<unknown>((o, name) => (o as Json)[name], object);

describe.skipIf(!present)('the Stripe fake answers with the shapes of Stripe’s fixtures', () => {
  let fake: StripeFake;
  let fixtures: Record<string, Json>;
  const answers: Record<string, Json> = {};

  const call = async (method: string, path: string, body?: Record<string, string>) => {
    const response = await fetch(`${fake.baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${TEST_API_KEY}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      ...(body === undefined ? {} : { body: new URLSearchParams(body).toString() }),
    });
    return (await response.json()) as Json;
  };
  const card = {
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': '4242424242424242',
    'payment_method_data[card][exp_month]': '12',
    'payment_method_data[card][exp_year]': '2034',
    'payment_method_data[card][cvc]': '123',
  };

  beforeAll(async () => {
    fixtures = (JSON.parse(readFileSync(FIXTURES, 'utf8')) as { resources: Record<string, Json> }).resources;
    fake = await startStripeFake();
    const customer = await call('POST', '/v1/customers', { email: 'jane@example.com' });
    const intent = await call('POST', '/v1/payment_intents', {
      amount: '1000',
      currency: 'eur',
      confirm: 'true',
      capture_method: 'manual',
      customer: String(customer.id),
      setup_future_usage: 'off_session',
      'expand[0]': 'latest_charge',
      ...card,
    });
    const captured = await call('POST', `/v1/payment_intents/${intent.id}/capture`, {
      amount_to_capture: '800',
    });
    answers.customer = customer;
    answers.payment_intent = captured;
    answers.charge = intent.latest_charge as Json;
    answers.refund = await call('POST', '/v1/refunds', { payment_intent: String(intent.id), amount: '100' });
    answers.payment_method = await call('GET', `/v1/payment_methods/${intent.payment_method}`);
    answers.setup_intent = await call('POST', '/v1/setup_intents', {
      confirm: 'true',
      customer: String(customer.id),
      usage: 'off_session',
      ...card,
    });
    answers.balance = await call('GET', '/v1/balance');
    answers.event = fake.events.at(-1) as Json;
  });
  afterAll(async () => {
    await fake?.close();
  });

  for (const type of [
    'payment_intent',
    'charge',
    'refund',
    'customer',
    'payment_method',
    'setup_intent',
    'balance',
    'event',
  ])
    it(`${type}: the fixture's keys`, () => {
      expect(answers[type]?.object).toBe(type);
      expect(keys(answers[type])).toEqual(keys(fixtures[type]));
    });

  it('a charge’s card details and checks, and a payment method’s card: the fixture’s keys', () => {
    for (const path of [
      ['payment_method_details'],
      ['payment_method_details', 'card'],
      ['payment_method_details', 'card', 'checks'],
      ['outcome'],
      ['billing_details'],
    ])
      expect(keys(at(answers.charge, ...path)), path.join('.')).toEqual(keys(at(fixtures.charge, ...path)));
    expect(keys(at(answers.payment_method, 'card'))).toEqual(keys(at(fixtures.payment_method, 'card')));
  });
});
