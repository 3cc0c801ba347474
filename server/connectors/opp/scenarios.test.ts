/**
 * The opp connector through the connector kit's scenario suite (server/test-kit/connectors/):
 * a live channel of a gateway forwarding to a second in-process gateway of the family, which
 * stands for the processor (its test channel, the simulator's cards).
 */

import { connectorScenarios } from '../../test-kit/connectors/scenarios';
import { VISA_CARD } from '../../test-kit/fixtures/cards';
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
        if (url.startsWith(REFUSING)) return Promise.reject(new TypeError('fetch failed: ECONNREFUSED'));
        if (url.startsWith(SILENT))
          return new Promise((_, reject) =>
            init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
          );
        return processor.app.request(url, init);
      },
    });
    const gateway = await testGateway({ connector: client });
    const target = (baseUrl: string) => ({ baseUrl, entityId: account.entityId, accessToken: account.token });
    const live = (baseUrl: string) =>
      gateway.addMerchant({ channels: 1, mode: 'LIVE', settings: { connector: target(baseUrl) } });
    return {
      gateway,
      merchant: await live('https://processor.test'),
      refused: await live(REFUSING),
      silent: await live(SILENT),
      contract: oppConnector(client, target('https://processor.test')),
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
