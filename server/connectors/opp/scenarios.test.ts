/**
 * The opp connector through the connector kit's scenario suite (server/test-kit/connectors/):
 * a live channel of a gateway forwarding to a second in-process gateway of the family, which
 * stands for the processor (its test channel, the simulator's cards).
 */

import { connectorScenarios } from '../../test-kit/connectors/scenarios';
import { oppShopper } from '../../test-kit/connectors/shopper';
import { VISA_CARD } from '../../test-kit/fixtures/cards';
import { CHALLENGE_CARD, FRICTIONLESS_CARD } from '../../test-kit/fixtures/three-d-secure';
import { testGateway } from '../../test-kit/gateway';
import { oppClient } from './client';
import { oppConnector } from './connector';

const REFUSING = 'https://refused.test';
const SILENT = 'https://silent.test';

connectorScenarios({
  kind: 'opp',
  async start() {
    const processor = await testGateway();
    const account = await processor.addMerchant({ channels: 1 });
    const client = oppClient({
      // no answer in 2 s is a timeout; the in-process processor answers in milliseconds
      timeoutMs: 2_000,
      fetch: (url, init) => {
        // as undici reports a refused connection: the cause's code says nothing was sent
        if (url.startsWith(REFUSING))
          return Promise.reject(
            new TypeError('fetch failed', {
              cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
            }),
          );
        if (url.startsWith(SILENT))
          return new Promise((_, reject) =>
            init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
          );
        return processor.app.request(url, init);
      },
    });
    // real time, which the suite's last scenario moves on (an abandoned payment's 30 minutes)
    let ahead = 0;
    const clock = { now: () => new Date(Date.now() + ahead) };
    const gateway = await testGateway({ connector: client, clock });
    // the processor's account that authenticates shoppers (its 3-D Secure on)
    const authenticatingAccount = await processor.addMerchant({
      channels: 1,
      settings: { threeDSecure: true },
    });
    const target = (baseUrl: string) => ({ baseUrl, entityId: account.entityId, accessToken: account.token });
    const live = (baseUrl: string) =>
      gateway.addMerchant({ channels: 1, mode: 'LIVE', settings: { connector: target(baseUrl) } });
    return {
      gateway,
      merchant: await live('https://processor.test'),
      refused: await live(REFUSING),
      silent: await live(SILENT),
      contract: oppConnector(client, target('https://processor.test')),
      shopper: {
        authenticating: await gateway.addMerchant({
          channels: 1,
          mode: 'LIVE',
          settings: {
            threeDSecure: true,
            connector: {
              baseUrl: 'https://processor.test',
              entityId: authenticatingAccount.entityId,
              accessToken: authenticatingAccount.token,
            },
          },
        }),
        cards: {
          challenge: { ...VISA_CARD, 'card.number': CHALLENGE_CARD },
          frictionless: { ...VISA_CARD, 'card.number': FRICTIONLESS_CARD },
        },
        redirectBrand: { paymentBrand: 'PAYPAL' },
        atProcessor: oppShopper(processor),
        advance: (ms: number) => {
          ahead += ms;
        },
      },
      cards: {
        approved: VISA_CARD,
        declined: { ...VISA_CARD, 'card.number': '4000000000000002' },
        declineCode: '800.100.151',
      },
      async cleanup() {
        await gateway.cleanup();
        await processor.cleanup();
      },
    };
  },
});
