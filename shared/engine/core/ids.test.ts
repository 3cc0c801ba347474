import { describe, expect, it } from 'vitest';
import { checkoutNodeName, newCheckoutId, newId, newPaymentNdc, newShortId } from './ids';

describe('identifiers', () => {
  it('have the family shapes', () => {
    expect(newId()).toMatch(/^[0-9a-f]{32}$/);
    expect(newShortId()).toMatch(/^\d{4}\.\d{4}\.\d{4}$/);
    expect(newPaymentNdc('8a8294174b7ecb28014b9699220015ca')).toMatch(
      /^8a8294174b7ecb28014b9699220015ca-[0-9a-f]{32}$/,
    );
    const checkout = newCheckoutId('local01-vm-tx01');
    expect(checkout).toMatch(/^[0-9A-F]{32}\.local01-vm-tx01$/);
    expect(checkout.length).toBeGreaterThanOrEqual(32);
    expect(checkout.length).toBeLessThanOrEqual(48);
  });

  it('keep checkout ids within 48 characters of [A-Za-z0-9.-] whatever the node name', () => {
    expect(checkoutNodeName('Gateway_Host.example.com')).toBe('gateway-host-ex');
    expect(checkoutNodeName('--')).toBe('local01');
    expect(checkoutNodeName('')).toBe('local01');
    for (const node of ['a', 'a-very-long-host-name-indeed.example.com', 'ünïcødé', '___x___']) {
      const id = newCheckoutId(node);
      expect(id).toMatch(/^[0-9A-F]{32}\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/);
      expect(id.length).toBeGreaterThanOrEqual(34);
      expect(id.length).toBeLessThanOrEqual(48);
    }
  });

  it('do not repeat', () => {
    const ids = new Set(Array.from({ length: 10_000 }, newId));
    expect(ids.size).toBe(10_000);
  });
});
