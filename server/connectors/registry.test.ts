/**
 * Connectors built once per settings (issue 33): the Adyen client and Stripe's SDK are made for a
 * channel's credentials once, not per payment, and made again when the settings change.
 */
import { describe, expect, it } from 'vitest';
import type { AnyConnectorTarget } from '../../shared/engine/core/ports';
import { cachedContracts, contractOf, settingsKey } from './registry';

const stripe = {
  kind: 'stripe',
  baseUrl: 'https://api.stripe.com',
  apiKey: 'sk_test_one',
} as AnyConnectorTarget;
const clients = { opp: { send: async () => ({ code: '000.100.110' }) }, fetch: globalThis.fetch };

describe('connectors built once per settings', () => {
  it('the same settings: the same connector; other credentials or address: another', () => {
    let builds = 0;
    const contract = cachedContracts((target) => {
      builds++;
      return contractOf(clients, target);
    });
    const first = contract(stripe);
    expect(contract({ ...stripe })).toBe(first);
    expect(builds).toBe(1);
    const rotated = contract({ ...stripe, apiKey: 'sk_test_two' } as AnyConnectorTarget);
    expect(rotated).not.toBe(first);
    expect(contract({ ...stripe, baseUrl: 'https://stripe.fake.test' } as AnyConnectorTarget)).not.toBe(
      first,
    );
    expect(builds).toBe(3);
  });

  it('the least recently used is dropped beyond the limit', () => {
    let builds = 0;
    const contract = cachedContracts(() => {
      builds++;
      return contractOf(clients, stripe);
    }, 2);
    const a = { ...stripe, apiKey: 'a' } as AnyConnectorTarget;
    const b = { ...stripe, apiKey: 'b' } as AnyConnectorTarget;
    const c = { ...stripe, apiKey: 'c' } as AnyConnectorTarget;
    contract(a);
    contract(b);
    contract(a); // a used last: b is the oldest
    contract(c);
    expect(builds).toBe(3);
    contract(a);
    expect(builds).toBe(3);
    contract(b);
    expect(builds).toBe(4);
  });

  it('a key never holds a credential in clear', () => {
    expect(settingsKey(stripe)).not.toContain('sk_test_one');
    expect(settingsKey(stripe)).toMatch(/^stripe\|https:\/\/api\.stripe\.com\|[\w-]{43}$/);
  });
});
