/**
 * The checkout's session on a connector channel draws only the brands the channel's connector
 * processes (issue 32 point 2: the live widget drew PAYPAL on a connector that could not take it).
 */
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../../../server/test-kit/engine/memory-store';
import { simulatedProcessors } from '../../../../server/test-kit/engine/processors';
import { parsed } from '../../../../server/test-kit/engine/requests';
import { EXTERNAL_CONNECTOR, testChannel } from '../../../../server/test-kit/fixtures/channels';
import type { Channel } from '../../core/model';
import type { Processor } from '../../core/ports';
import { checkoutSession, createCheckout } from './index';

const refuse = async () => ({ code: '600.200.201', result: {}, resultDetails: {} });
/** A connector whose processor takes cards of two schemes only. */
const cardsOnly: Processor = {
  kind: 'connector',
  testMode: undefined,
  pay: refuse,
  reference: refuse,
  register: refuse,
  payWithRegistration: refuse,
  brands: ['VISA', 'MASTER'],
};

async function sessionOf(channel: Channel, connector: Processor | undefined) {
  const deps = {
    store: memoryStore(),
    clock: { now: () => new Date(Date.UTC(2026, 11, 2)) },
    processors: { simulator: simulatedProcessors.simulator, connector: () => connector },
    seal: (plain: string) => `sealed:${plain.length}`,
    nodeName: 'unit',
  };
  const created = await createCheckout(
    deps,
    { merchantId: channel.merchantId, channel },
    parsed('checkout', `entityId=${channel.id}&amount=10.00&currency=EUR&paymentType=DB`),
  );
  if (created.kind !== 'checkout') throw new Error(created.kind);
  return checkoutSession(deps, created.checkout, channel);
}

describe('the brands a checkout on a connector channel draws', () => {
  const live: Channel = { ...testChannel, mode: 'LIVE', settings: { ...EXTERNAL_CONNECTOR } };

  it('are those its connector processes', async () => {
    const session = await sessionOf(live, cardsOnly);
    expect(session.brands).toEqual(['VISA', 'MASTER']);
  });

  it('are those, of the ones the channel accepts', async () => {
    const session = await sessionOf(
      { ...live, settings: { ...live.settings, brands: ['VISA', 'PAYPAL'] } },
      cardsOnly,
    );
    expect(session.brands).toEqual(['VISA']);
  });

  it('are every accepted brand when the connector declares none (a gateway of the family)', async () => {
    const { brands: _none, ...anyBrand } = cardsOnly;
    const session = await sessionOf(live, anyBrand);
    expect(session.brands).toContain('PAYPAL');
  });
});
