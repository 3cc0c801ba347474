/**
 * The adyen connector through the connector kit's scenario suite (server/test-kit/connectors/):
 * a live channel of a gateway whose connector is the fake of Adyen's Checkout API v71
 * (server/test-kit/fakes/adyen/), with Adyen's documented test cards.
 */
import { describe, expect, it } from 'vitest';
import { connectorScenarios } from '../../test-kit/connectors/scenarios';
import { type AdyenWorld, adyenWorld } from '../../test-kit/fakes/adyen/world';

let world: AdyenWorld | undefined;

connectorScenarios({
  kind: 'adyen',
  async start() {
    world = await adyenWorld();
    return world;
  },
});

describe('what the adyen connector sent in the scenarios', () => {
  it('every request matched the published Checkout API v71 schema', ({ skip }) => {
    if (world === undefined) return;
    if (!world.fake.schemaChecked)
      skip('../shared/facts/connectors/adyen is not here: nothing to check against');
    expect(world.fake.requests()).toBeGreaterThan(0);
    expect(world.fake.schemaFailures).toEqual([]);
  });
});
