/**
 * Addresses as real shops send them (decisions, "Addresses"): postcodes with spaces and hyphens
 * (`TE1 2ST`, `90925-6038`), states with spaces (`New Jersey`), in billing, shipping, the
 * merchant's own address and every repeat of those groups; SEPA mandate ids with digits.
 */
import { describe, expect, it } from 'vitest';
import { parseRequest, type RequestKind } from './requests';

const CARD =
  'amount=92.00&currency=EUR&paymentBrand=VISA&paymentType=DB&card.number=4200000000000000' +
  '&card.holder=Jane%20Jones&card.expiryMonth=05&card.expiryYear=2034';
const CHECKOUT = 'amount=92.00&currency=EUR&paymentType=DB';

const names = (kind: RequestKind, body: string): string[] => {
  const result = parseRequest(kind, body);
  return result.ok ? [] : result.errors.map((e) => e.name);
};

const POSTCODES = ['billing.postcode', 'shipping.postcode', 'merchant.billing.postcode', 'merchant.postcode'];
const STATES = ['billing.state', 'shipping.state', 'merchant.billing.state', 'merchant.state'];

describe('addresses the family’s shops send', () => {
  it.each(['TE1 2ST', '90925-6038', 'SW1A 1AA', '1010'])('accepts the postcode %j everywhere', (postcode) => {
    for (const name of POSTCODES) {
      const body = `&${name}=${encodeURIComponent(postcode)}`;
      expect(names('payment', CARD + body), name).toEqual([]);
      expect(names('checkout', CHECKOUT + body), name).toEqual([]);
    }
  });

  it.each(['New Jersey', 'Baden-Württemberg', 'St. Gallen', 'NJ'])(
    'accepts the state %j everywhere',
    (state) => {
      for (const name of STATES) {
        const body = `&${name}=${encodeURIComponent(state)}`;
        expect(names('payment', CARD + body), name).toEqual([]);
        expect(names('checkout', CHECKOUT + body), name).toEqual([]);
      }
    },
  );

  it.each([' TE1', 'TE1 ', 'TE1_2ST', 'A'.repeat(17)])('still refuses the postcode %j', (postcode) => {
    for (const name of POSTCODES)
      expect(names('payment', `${CARD}&${name}=${encodeURIComponent(postcode)}`), name).toContain(name);
  });

  it.each(['New_Jersey', 'N'.repeat(51), '<script>'])('still refuses the state %j', (state) => {
    for (const name of STATES)
      expect(names('payment', `${CARD}&${name}=${encodeURIComponent(state)}`), name).toContain(name);
  });

  it('accepts a SEPA mandate id with digits, refuses one with other characters', () => {
    const sepa =
      'amount=10.00&currency=EUR&paymentBrand=DIRECTDEBIT_SEPA&paymentType=DB&bankAccount.holder=Jane%20Jones' +
      '&bankAccount.iban=DE89370400440532013000&bankAccount.bic=COBADEFFXXX&bankAccount.mandate.dateOfSignature=2026-01-02';
    expect(names('payment', `${sepa}&bankAccount.mandate.id=MANDATE-123`)).toEqual([]);
    expect(names('payment', `${sepa}&bankAccount.mandate.id=MANDATE_123`)).toContain(
      'bankAccount.mandate.id',
    );
  });
});
