/**
 * The adyen connector's test system: the fake of Adyen, a gateway whose live merchants' channels
 * connect to it (and to an address that refuses the connection, and to one that never answers),
 * and Adyen's documented test cards in the family's request fields.
 */
import { createServer, type Socket } from 'node:net';
import type { AdyenConnectorSettings } from '../../../../shared/engine/core/model';
import { adyenConnector } from '../../../connectors/adyen/connector';
import type { ProcessorShopper } from '../../connectors/shopper';
import type { ConnectorWorld } from '../../connectors/world';
import { type TestGateway, type TestMerchant, testGateway } from '../../gateway';
import { freePort } from '../../postgres';
import { type AdyenFake, startAdyenFake } from './server';

/** Adyen's Visa test card, authorised (expiry 03/2030, security code 737). */
export const ADYEN_VISA = {
  paymentBrand: 'VISA',
  'card.number': '4111111145551142',
  'card.holder': 'Jane Shopper',
  'card.expiryMonth': '03',
  'card.expiryYear': '2030',
  'card.cvv': '737',
} as const;

/** Adyen's 3-D Secure 2 Visa test card: its issuer challenges the shopper. */
export const ADYEN_3DS2_VISA = { ...ADYEN_VISA, 'card.number': '4917610000000000' } as const;

/** An Adyen Visa test card the fake authenticates without the shopper (frictionless). */
export const ADYEN_FRICTIONLESS_VISA = { ...ADYEN_VISA, 'card.number': '4988438843884305' } as const;

/**
 * Refused by Adyen's test platform for its holder name: 2, "Refused". (The refusal names with an
 * underscore, NOT_ENOUGH_BALANCE…, are no `card.holder` of the family: the contract tests send them.)
 */
export const ADYEN_DECLINED = { ...ADYEN_VISA, 'card.holder': 'DECLINED' } as const;

export interface AdyenWorld extends ConnectorWorld {
  readonly fake: AdyenFake;
  /** The channel settings of a connector to `baseUrl` with the fake's credentials. */
  settings(baseUrl?: string): AdyenConnectorSettings;
  /** A live merchant of the gateway whose channel's connector is the fake. */
  liveMerchant(baseUrl?: string): Promise<TestMerchant>;
}

/** A TCP server that accepts and never answers: the client's timeout. */
async function silentServer() {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/checkout/v71`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The shopper on one of the fake's pages: their choice, and where the fake sends them back. */
export function adyenShopper(fake: AdyenFake): ProcessorShopper {
  return async (page, choice) => {
    const shown = await fetch(`${page.action}?${new URLSearchParams(page.fields)}`);
    if (shown.status !== 200) throw new Error(`the fake's page answered ${shown.status}`);
    const session = /name="session" value="([^"]+)"/.exec(await shown.text())?.[1] ?? '';
    const back = await fetch(`${fake.origin}/pages/choose`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ session, outcome: choice }),
      redirect: 'manual',
    });
    const location = back.headers.get('location');
    if (back.status !== 302 || location === null) throw new Error(`the fake's page answered ${back.status}`);
    return location;
  };
}

export async function adyenWorld(
  gatewayOptions: Parameters<typeof testGateway>[0] = {},
): Promise<AdyenWorld> {
  const fake = await startAdyenFake();
  const silent = await silentServer();
  // nothing listens on a port just freed: the connection is refused
  const refusedUrl = `http://127.0.0.1:${await freePort()}/checkout/v71`;
  // real time, which the suite's last scenario moves on (an abandoned payment's 30 minutes)
  let ahead = 0;
  const clock = { now: () => new Date(Date.now() + ahead) };
  // the "no answer in time" scenario waits for the client's timeout: 5 s here, not the default 30
  // (2 s was too short for the fake's ordinary answers on a loaded 2-core machine: an
  // authorisation came back uncertain, pending, and the scenario failed)
  const gateway: TestGateway = await testGateway({
    clock,
    ...gatewayOptions,
    env: { GATEWAY_CONNECTOR_TIMEOUT_MS: '5000', ...gatewayOptions.env },
  });
  const settings = (baseUrl = fake.baseUrl): AdyenConnectorSettings => ({
    kind: 'adyen',
    baseUrl,
    apiKey: fake.apiKey,
    merchantAccount: fake.merchantAccount,
    hmacKey: fake.hmacKey,
  });
  const liveMerchant = (baseUrl?: string) =>
    gateway.addMerchant({ channels: 1, mode: 'LIVE', settings: { connector: settings(baseUrl) } });
  return {
    fake,
    settings,
    liveMerchant,
    gateway,
    merchant: await liveMerchant(),
    refused: await liveMerchant(refusedUrl),
    silent: await liveMerchant(silent.url),
    shopper: {
      authenticating: await gateway.addMerchant({
        channels: 1,
        mode: 'LIVE',
        settings: { threeDSecure: true, connector: settings() },
      }),
      cards: { challenge: ADYEN_3DS2_VISA, frictionless: ADYEN_FRICTIONLESS_VISA },
      redirectBrand: { paymentBrand: 'PAYPAL' },
      atProcessor: adyenShopper(fake),
      advance: (ms: number) => {
        ahead += ms;
      },
    },
    contract: adyenConnector(settings(), (url, init) => fetch(url, init)),
    cards: { approved: ADYEN_VISA, declined: ADYEN_DECLINED, declineCode: '800.100.152' },
    async cleanup() {
      await gateway.cleanup();
      await silent.close();
      await fake.close();
    },
  };
}
