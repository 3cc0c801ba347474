/**
 * The harness's Adyen and Stripe: their fakes (server/test-kit/fakes/, each with its own 3-D
 * Secure page, on http://127.0.0.1:<port>) and, for each, a live channel of the live merchant with
 * 3-D Secure on whose connector (`kind: 'adyen'` / `'stripe'`) points at the fake, with a live
 * token of its own. The shops that pay on them are the harness's (it serves one per channel).
 */

import { type CommandContext, createChannel, createToken } from '../../server/cli/commands';
import type { GatewayStore } from '../../server/storage';
import { startAdyenFake } from '../../server/test-kit/fakes/adyen';
import { startStripeFake } from '../../server/test-kit/fakes/stripe';
import { stripeSettings } from '../../server/test-kit/fakes/stripe/harness';
import type { ConnectorSettings } from '../../shared/engine/core/model';

/** A live channel paying through a fake processor, and the fake's own address. */
export interface FakeConnectorChannel {
  readonly gatewayUrl: string;
  readonly entityId: string;
  readonly accessToken: string;
  /** Where the fake serves its API and its 3-D Secure page. */
  readonly processorOrigin: string;
}

export interface ConnectorFakes {
  readonly adyen: FakeConnectorChannel;
  readonly stripe: FakeConnectorChannel;
  close(): Promise<void>;
}

/** Starts both fakes and makes the live merchant's channels to them, on `liveUrl`. */
export async function connectorFakes(
  cli: CommandContext,
  store: GatewayStore,
  merchantId: string,
  liveUrl: string,
): Promise<ConnectorFakes> {
  const adyen = await startAdyenFake();
  const stripe = await startStripeFake();
  /** A live channel with 3-D Secure on whose connector is `connector`, and a token for it. */
  const channel = async (name: string, connector: ConnectorSettings, processorOrigin: string) => {
    const made = await createChannel(cli, { merchantId, name, mode: 'LIVE', threeDSecure: true });
    const stored = await store.getChannel(made.id);
    // as `gateway channel set --connector adyen|stripe` stores them (sealed by the store)
    await store.updateChannelSettings(made.id, { ...stored!.settings, connector });
    const token = await createToken(cli, { merchantId, channelIds: [made.id] });
    return { gatewayUrl: liveUrl, entityId: made.id, accessToken: token.accessToken, processorOrigin };
  };
  return {
    adyen: await channel(
      'Live_Adyen_3DS',
      {
        kind: 'adyen',
        baseUrl: adyen.baseUrl,
        apiKey: adyen.apiKey,
        merchantAccount: adyen.merchantAccount,
        hmacKey: adyen.hmacKey,
      },
      adyen.origin,
    ),
    stripe: await channel('Live_Stripe_3DS', stripeSettings(stripe.baseUrl), new URL(stripe.baseUrl).origin),
    async close() {
      await adyen.close();
      await stripe.close();
    },
  };
}
