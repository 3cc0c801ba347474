/**
 * Registrations between connectors (issue 33 point 6), through the real gateway against the
 * fakes of Adyen and Stripe and a second gateway of the family (the opp kind's processor): a card
 * registered by a cardholder-initiated payment on one connector, then a merchant-initiated repeat
 * charged on another as a card on file with the network transaction id of that first payment (the
 * request the other processor received carries it; one charge in all). A registration moved by
 * the operator (admin API, CLI); the refusals: no network id, a bank account, a cardholder's
 * one-click use.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorRoute } from '../../../shared/engine/core/model';
import { run } from '../../cli/run';
import { openVault } from '../../security/vault';
import { openStore } from '../../storage';
import { ADMIN_TOKEN, adminCall } from '../../test-kit/admin';
import { type AdyenFake, startAdyenFake } from '../../test-kit/fakes/adyen/server';
import { ADYEN_VISA } from '../../test-kit/fakes/adyen/world';
import { type StripeFake, startStripeFake, stripeSettings } from '../../test-kit/fakes/stripe';
import { TEST_DATA_KEY, type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';
import { testVault } from '../../test-kit/vault';
import { oppClient } from '../opp/client';

const STRIPE_VISA = {
  paymentBrand: 'VISA',
  'card.number': '4242424242424242',
  'card.holder': 'Jane Shopper',
  'card.expiryMonth': '12',
  'card.expiryYear': '2034',
  'card.cvv': '123',
};

let adyen: AdyenFake;
let stripe: StripeFake;
let upstream: TestGateway;
let gw: TestGateway;
let oppSent: { path: string; body: URLSearchParams }[];
let routes: { adyen: ConnectorRoute; stripe: ConnectorRoute; opp: ConnectorRoute };

beforeAll(async () => {
  adyen = await startAdyenFake();
  stripe = await startStripeFake();
  upstream = await testGateway();
  const account = await upstream.addMerchant({ channels: 1 });
  oppSent = [];
  const client = oppClient({
    fetch: async (url, init) => {
      oppSent.push({ path: new URL(url).pathname, body: new URLSearchParams(String(init.body ?? '')) });
      return upstream.app.request(url, init);
    },
  });
  gw = await testGateway({ connector: client, env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN } });
  routes = {
    adyen: {
      connector: {
        kind: 'adyen',
        baseUrl: adyen.baseUrl,
        apiKey: adyen.apiKey,
        merchantAccount: adyen.merchantAccount,
        hmacKey: adyen.hmacKey,
      },
    },
    stripe: { connector: stripeSettings(stripe.baseUrl) },
    opp: {
      connector: { baseUrl: 'https://upstream.test', entityId: account.entityId, accessToken: account.token },
    },
  };
}, 120_000);
afterAll(async () => {
  // every request sent to Adyen, the card-on-file repeats among them, as its published schema says
  if (adyen?.schemaChecked) expect(adyen.schemaFailures).toEqual([]);
  await gw?.cleanup();
  await upstream?.cleanup();
  await adyen?.close();
  await stripe?.close();
});

type Kind = keyof typeof routes;

const channelWith = (...kinds: Kind[]) =>
  gw.addMerchant({ channels: 1, settings: { routes: kinds.map((k) => routes[k]) } });

/** The channel's routes replaced (the operator's `channel set --route …`). */
const reroute = (m: TestMerchant, ...kinds: Kind[]) =>
  gw.store.updateChannelSettings(m.entityId, { routes: kinds.map((k) => routes[k]) });

const post = (m: TestMerchant, path: string, params: Record<string, string>) =>
  gw.post(path, { entityId: m.entityId, testMode: 'EXTERNAL', ...params }, { token: m.token });

/** The cardholder's first payment, registering the card for later unscheduled repeats. */
async function initial(m: TestMerchant, card: Record<string, string>) {
  const cit = await post(m, '/v1/payments', {
    ...card,
    amount: '10.00',
    currency: 'EUR',
    paymentType: 'DB',
    createRegistration: 'true',
    'standingInstruction.mode': 'INITIAL',
    'standingInstruction.source': 'CIT',
    'standingInstruction.type': 'UNSCHEDULED',
  });
  expect(cit.status, cit.text).toBe(200);
  expect(cit.body.result.code).toBe('000.100.112');
  // where the card is held, and the network id kept with it, are never answered
  expect(cit.body.resultDetails).not.toHaveProperty('ConnectorRegistrationID');
  return cit.body as {
    registrationId: string;
    standingInstruction: { initialTransactionId: string };
    resultDetails: Record<string, string>;
  };
}

/** The merchant's repeat of it, quoting the agreement. */
const repeat = (m: TestMerchant, cit: Awaited<ReturnType<typeof initial>>, amount = '4.00') =>
  post(m, `/v1/registrations/${cit.registrationId}/payments`, {
    amount,
    currency: 'EUR',
    paymentType: 'DB',
    'standingInstruction.mode': 'REPEATED',
    'standingInstruction.source': 'MIT',
    'standingInstruction.type': 'UNSCHEDULED',
    'standingInstruction.initialTransactionId': cit.standingInstruction.initialTransactionId,
  });

const adyenPayments = () => adyen.received.filter((r) => r.path === '/payments');
const stripeIntents = () => stripe.requests.filter((r) => r.path === '/v1/payment_intents');
const oppPayments = () => oppSent.filter((r) => r.path.endsWith('/payments'));
const counts = () => ({
  adyen: adyenPayments().length,
  stripe: stripeIntents().length,
  opp: oppPayments().length,
});

const stripeField = (form: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], form);

async function attemptsOf(m: TestMerchant, id: string) {
  const view = await adminCall(gw.app, 'GET', `/admin/v1/merchants/${m.merchantId}/payments/${id}`, {
    token: ADMIN_TOKEN,
  });
  return (view.body as { attempts: { kind: string; route: number; outcome: string }[] }).attempts.map((a) => [
    a.kind,
    a.route,
    a.outcome,
  ]);
}

/**
 * The scenarios whose channel's routes change after the cardholder's first payment, set up at
 * once: the gateway reads a channel's settings through a cache of a few seconds, waited out once.
 */
interface Rerouted {
  readonly m: TestMerchant;
  readonly cit: Awaited<ReturnType<typeof initial>>;
}
const scenario: Record<string, Rerouted> = {};
let stripeOnly: { m: TestMerchant; registrationId: string };

beforeAll(async () => {
  const pairs: [string, Kind, Kind, Record<string, string>][] = [
    ['opp-adyen', 'opp', 'adyen', ADYEN_VISA],
    ['opp-stripe', 'opp', 'stripe', STRIPE_VISA],
    ['adyen-opp', 'adyen', 'opp', ADYEN_VISA],
    ['stripe-opp', 'stripe', 'opp', STRIPE_VISA],
    ['adyen-stripe', 'adyen', 'stripe', ADYEN_VISA],
    ['stripe-adyen', 'stripe', 'adyen', STRIPE_VISA],
    ['one-click', 'adyen', 'stripe', ADYEN_VISA],
  ];
  for (const [name, from, to, card] of pairs) {
    const m = await channelWith(from, to);
    scenario[name] = { m, cit: await initial(m, card) };
    await reroute(m, to);
  }
  // the holder refusing the connection (nothing listens on port 9), the family's gateway next
  const m = await channelWith('adyen', 'opp');
  scenario.refused = { m, cit: await initial(m, ADYEN_VISA) };
  const down: ConnectorRoute = {
    connector: { ...routes.adyen.connector, baseUrl: 'http://127.0.0.1:9/v71' },
  };
  await gw.store.updateChannelSettings(m.entityId, { routes: [down, routes.opp] });
  // a registration without a network transaction id (a Stripe SetupIntent)
  const s = await channelWith('stripe', 'adyen');
  const rg = await post(s, '/v1/registrations', STRIPE_VISA);
  expect(rg.body.result.code, rg.text).toBe('000.100.112');
  stripeOnly = { m: s, registrationId: rg.body.id };
  await reroute(s, 'adyen');
  await new Promise((resolve) => setTimeout(resolve, 5_200));
}, 120_000);

describe('a merchant-initiated repeat on another connector, its holding route gone', () => {
  it('opp → adyen: the card on file, ContAuth, the family’s scheme reference as networkTxReference', async () => {
    const { m, cit } = scenario['opp-adyen']!;
    const networkId = cit.resultDetails.CardholderInitiatedTransactionID;
    expect(networkId, JSON.stringify(cit.resultDetails)).toMatch(/^[0-9]{15}$/);
    const before = counts();
    const mit = await repeat(m, cit);
    expect(mit.status, mit.text).toBe(200);
    expect(mit.body.result.code).toBe('000.100.112');
    expect(counts()).toEqual({ ...before, adyen: before.adyen + 1 });
    expect(adyenPayments().at(-1)?.body).toMatchObject({
      amount: { value: 400, currency: 'EUR' },
      paymentMethod: {
        type: 'scheme',
        number: ADYEN_VISA['card.number'],
        expiryMonth: '03',
        expiryYear: '2030',
      },
      shopperInteraction: 'ContAuth',
      recurringProcessingModel: 'UnscheduledCardOnFile',
      additionalData: { networkTxReference: networkId },
    });
    const sentMethod = (adyenPayments().at(-1)?.body ?? {}) as { paymentMethod?: object };
    expect(sentMethod.paymentMethod).not.toHaveProperty('cvc');
    expect(await attemptsOf(m, mit.body.id)).toEqual([['adyen', 0, 'processed']]);
  });

  it('opp → stripe: off_session with mit_exemption[network_transaction_id]', async () => {
    const { m, cit } = scenario['opp-stripe']!;
    const networkId = cit.resultDetails.CardholderInitiatedTransactionID;
    const before = counts();
    const mit = await repeat(m, cit);
    expect(mit.body.result.code, mit.text).toBe('000.100.112');
    expect(counts()).toEqual({ ...before, stripe: before.stripe + 1 });
    const form = stripeIntents().at(-1)?.form;
    expect(stripeField(form, 'off_session')).toBe('true');
    expect(stripeField(form, 'confirm')).toBe('true');
    expect(stripeField(form, 'payment_method_data', 'card', 'number')).toBe(STRIPE_VISA['card.number']);
    expect(stripeField(form, 'payment_method_data', 'card', 'cvc')).toBeUndefined();
    expect(
      stripeField(form, 'payment_method_options', 'card', 'mit_exemption', 'network_transaction_id'),
    ).toBe(networkId);
  });

  it('adyen → opp: the card with standingInstruction MIT, REPEATED and Adyen’s networkTxReference', async () => {
    const { m, cit } = scenario['adyen-opp']!;
    const networkId = cit.resultDetails.networkTxReference;
    expect(networkId).toBeDefined();
    const before = counts();
    const mit = await repeat(m, cit);
    expect(mit.body.result.code, mit.text).toBe('000.100.112');
    expect(counts()).toEqual({ ...before, opp: before.opp + 1 });
    const sent = oppPayments().at(-1);
    expect(sent?.path).toBe('/v1/payments');
    expect(Object.fromEntries(sent?.body ?? [])).toMatchObject({
      paymentBrand: 'VISA',
      'card.number': ADYEN_VISA['card.number'],
      'standingInstruction.source': 'MIT',
      'standingInstruction.mode': 'REPEATED',
      'standingInstruction.type': 'UNSCHEDULED',
      'standingInstruction.initialTransactionId': networkId,
    });
    expect(sent?.body.has('card.cvv')).toBe(false);
    expect(sent?.body.has('standingInstruction.agreementId')).toBe(false);
  });

  it('stripe → opp: Stripe’s network_transaction_id as the family’s initialTransactionId', async () => {
    const { m, cit } = scenario['stripe-opp']!;
    const networkId = cit.resultDetails.NetworkTransactionId;
    expect(networkId).toBeDefined();
    const mit = await repeat(m, cit);
    expect(mit.body.result.code, mit.text).toBe('000.100.112');
    expect(oppPayments().at(-1)?.body.get('standingInstruction.initialTransactionId')).toBe(networkId);
  });

  it('adyen → stripe and stripe → adyen: sent with the network id (each test platform takes only its own test cards)', async () => {
    const a = scenario['adyen-stripe']!;
    const before = counts();
    const toStripe = await repeat(a.m, a.cit);
    expect(counts()).toEqual({ ...before, stripe: before.stripe + 1 });
    expect(
      stripeField(
        stripeIntents().at(-1)?.form,
        'payment_method_options',
        'card',
        'mit_exemption',
        'network_transaction_id',
      ),
    ).toBe(a.cit.resultDetails.networkTxReference);
    // Stripe's test mode declines a card that is not one of its test cards
    expect(toStripe.status, toStripe.text).toBe(400);

    const s = scenario['stripe-adyen']!;
    const toAdyen = await repeat(s.m, s.cit);
    expect(adyenPayments().at(-1)?.body).toMatchObject({
      shopperInteraction: 'ContAuth',
      additionalData: { networkTxReference: s.cit.resultDetails.NetworkTransactionId },
    });
    expect(toAdyen.status, toAdyen.text).toBe(400);
  });

  it('the holder refusing the connection: the repeat falls back to the next route, one charge', async () => {
    const { m, cit } = scenario.refused!;
    const before = counts();
    const mit = await repeat(m, cit);
    expect(mit.body.result.code, mit.text).toBe('000.100.112');
    expect(counts()).toEqual({ ...before, opp: before.opp + 1 });
    expect(await attemptsOf(m, mit.body.id)).toEqual([
      ['adyen', 0, 'refused'],
      ['opp', 1, 'processed'],
    ]);
  });
});

describe('what never moves', () => {
  it('a cardholder’s one-click payment: only where the card is stored, nothing sent elsewhere', async () => {
    const { m, cit } = scenario['one-click']!;
    const before = counts();
    const oneClick = await post(m, `/v1/registrations/${cit.registrationId}/payments`, {
      amount: '4.00',
      currency: 'EUR',
      paymentType: 'DB',
      'card.cvv': '737',
    });
    expect(oneClick.body.result.code, oneClick.text).toBe('600.200.201');
    expect(counts()).toEqual(before);
  });

  it('a registration without a network transaction id (a Stripe SetupIntent): not sent elsewhere', async () => {
    const { m, registrationId } = stripeOnly;
    const before = counts();
    const mit = await post(m, `/v1/registrations/${registrationId}/payments`, {
      amount: '4.00',
      currency: 'EUR',
      paymentType: 'DB',
      'standingInstruction.mode': 'REPEATED',
      'standingInstruction.source': 'MIT',
      'standingInstruction.type': 'UNSCHEDULED',
    });
    expect(mit.body.result.code, mit.text).toBe('600.200.201');
    expect(counts()).toEqual(before);
  });
});

/** One CLI invocation beside the running gateway (its folder, not its lock). */
async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(argv, {
    openStore: () =>
      openStore({ dataDir: gw.dataDir, vault: testVault(), lockFolder: false, checkpoints: 'inline' }),
    openVault: () => openVault({ dataDir: gw.dataDir, env: { GATEWAY_DATA_KEY: TEST_DATA_KEY } }),
    output: { out: (l) => out.push(l), err: (l) => err.push(l) },
    dataDir: join(gw.dataDir, 'cli-files'),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const moveCall = (m: TestMerchant, body: unknown) =>
  adminCall(gw.app, 'POST', `/admin/v1/merchants/${m.merchantId}/registrations/moves`, {
    token: ADMIN_TOKEN,
    body,
  });

describe('moving registrations (the operator)', () => {
  it('admin API: moved to route 1, its repeats go there with the network id; the cardholder’s one-click is refused', async () => {
    const m = await channelWith('adyen', 'stripe');
    const cit = await initial(m, ADYEN_VISA);
    const moved = await moveCall(m, { registrationIds: [cit.registrationId], route: 1 });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({
      moved: [{ id: cit.registrationId, route: 1, kind: 'stripe' }],
      refused: [],
    });
    const before = counts();
    await repeat(m, cit);
    expect(counts()).toEqual({ ...before, stripe: before.stripe + 1 });
    expect(
      stripeField(
        stripeIntents().at(-1)?.form,
        'payment_method_options',
        'card',
        'mit_exemption',
        'network_transaction_id',
      ),
    ).toBe(cit.resultDetails.networkTxReference);
    // moved again to where it is: refused, named
    const again = await moveCall(m, { registrationIds: [cit.registrationId], route: 1 });
    expect(again.status).toBe(400);
    expect(JSON.stringify(again.body)).toContain('holds it already');
    // and back to Adyen: a card on file there too (nothing of it stored at Adyen any more)
    expect((await moveCall(m, { registrationIds: [cit.registrationId], route: 0 })).status).toBe(200);
    const back = await repeat(m, cit);
    expect(back.body.result.code, back.text).toBe('000.100.112');
    expect(adyenPayments().at(-1)?.body).toMatchObject({
      shopperInteraction: 'ContAuth',
      additionalData: { networkTxReference: cit.resultDetails.networkTxReference },
    });
  });

  it('refuses what cannot move, naming why: no network id, a bank account, no such route; bad input named', async () => {
    const m = await channelWith('stripe', 'opp');
    const noId = await post(m, '/v1/registrations', STRIPE_VISA);
    const refusedNoId = await moveCall(m, { registrationIds: [noId.body.id], route: 1 });
    expect(refusedNoId.status).toBe(400);
    expect(JSON.stringify(refusedNoId.body)).toContain('no network transaction id');
    // a bank account, registered at the family's gateway
    const b = await channelWith('opp', 'adyen');
    const sepa = await post(b, '/v1/registrations', {
      paymentBrand: 'DIRECTDEBIT_SEPA',
      'bankAccount.iban': 'DE89370400440532013000',
      'bankAccount.bic': 'COBADEFFXXX',
      'bankAccount.holder': 'Jane Shopper',
    });
    expect(sepa.body.result.code, sepa.text).toBe('000.100.112');
    const refusedSepa = await moveCall(b, { registrationIds: [sepa.body.id], route: 1 });
    expect(refusedSepa.status, JSON.stringify(refusedSepa.body)).toBe(400);
    expect(JSON.stringify(refusedSepa.body)).toContain('only cards move');
    const cit = await initial(m, STRIPE_VISA);
    const noRoute = await moveCall(m, { registrationIds: [cit.registrationId], route: 5 });
    expect(JSON.stringify(noRoute.body)).toContain('no route 5');
    const bad = await moveCall(m, { route: -1 });
    expect(bad.status).toBe(400);
    const names = (
      bad.body as { result: { parameterErrors?: { name: string }[] } }
    ).result.parameterErrors?.map((e) => e.name);
    expect(names).toContain('route');
  });

  it('CLI: --all moves those that can and lists the others with why, audited', async () => {
    const m = await channelWith('adyen', 'stripe');
    const cit = await initial(m, ADYEN_VISA);
    const rg = await post(m, '/v1/registrations', ADYEN_VISA); // a zero-amount check: Adyen answers its id too
    const sepaLess = await post(m, '/v1/registrations', { ...ADYEN_VISA, 'card.holder': 'Other Shopper' });
    expect(sepaLess.body.result.code).toBe('000.100.112');
    const done = await cli([
      'registration',
      'move',
      '--all',
      '--merchant',
      m.merchantId,
      '--route',
      '1',
      '--json',
    ]);
    expect(done.code, done.err).toBe(0);
    const moves = JSON.parse(done.out) as { moved: { id: string }[]; refused: { id: string }[] };
    expect(moves.moved.map((x) => x.id).sort()).toEqual(
      [cit.registrationId, rg.body.id, sepaLess.body.id].sort(),
    );
    expect(moves.refused).toEqual([]);
    const usage = await cli(['registration', 'move', '--merchant', m.merchantId, '--route', '1']);
    expect(usage.code).toBe(2);
    const audit = await adminCall(gw.app, 'GET', `/admin/v1/audit?action=registration.move`, {
      token: ADMIN_TOKEN,
    });
    expect(JSON.stringify(audit.body)).toContain(cit.registrationId);
  });
});
