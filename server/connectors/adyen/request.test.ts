import { describe, expect, it } from 'vitest';
import { adyenAmount, browserInfo, paymentBody, shopperReferenceOf } from './request';

describe('the adyen request transformer', () => {
  it('sends amounts in minor units of their currency, by string arithmetic', () => {
    expect(adyenAmount({ amount: '10.50', currency: 'EUR' })).toEqual({ value: 1050, currency: 'EUR' });
    expect(adyenAmount({ amount: '100', currency: 'JPY' })).toEqual({ value: 100, currency: 'JPY' });
    expect(adyenAmount({ amount: '12.35', currency: 'BHD' })).toEqual({ value: 12350, currency: 'BHD' });
    // 0.1 + 0.2 as a float is 0.30000000000000004: never a float here
    expect(adyenAmount({ amount: '0.30', currency: 'EUR' })).toEqual({ value: 30, currency: 'EUR' });
    expect(adyenAmount({ amount: '1.5', currency: 'JPY' })).toBeUndefined();
    expect(adyenAmount({ currency: 'EUR' })).toBeUndefined();
  });

  it('sends no payment whose amount is not one', () => {
    const parts = {
      reference: 'r',
      returnUrl: 'https://gateway.example/return',
      paymentMethod: { type: 'ideal' },
      capture: 'immediate' as const,
    };
    expect(paymentBody({ merchantAccount: 'M' }, { amount: '1.5', currency: 'JPY' }, parts)).toBeUndefined();
  });

  it('sends browserInfo only when every field Adyen requires is there', () => {
    const browser = {
      acceptHeader: 'text/html',
      language: 'de-DE',
      screenHeight: '1080',
      screenWidth: '1920',
      timezone: '-60',
      userAgent: 'Mozilla/5.0',
      javaEnabled: 'false',
    };
    expect(browserInfo({ customer: { browser } })).toEqual({
      acceptHeader: 'text/html',
      language: 'de-DE',
      screenHeight: 1080,
      screenWidth: 1920,
      timeZoneOffset: -60,
      userAgent: 'Mozilla/5.0',
      colorDepth: 24,
      javaEnabled: false,
    });
    const { userAgent: _missing, ...partial } = browser;
    expect(browserInfo({ customer: { browser: partial } })).toBeUndefined();
  });

  it('a PA repeat of a card stored elsewhere: ContAuth, its model, networkTxReference beside manualCapture', () => {
    const body = paymentBody(
      { merchantAccount: 'M' },
      { amount: '5.00', currency: 'EUR', standingInstruction: { source: 'MIT', type: 'RECURRING' } },
      {
        reference: 'r',
        returnUrl: 'https://return.invalid/',
        paymentMethod: { type: 'scheme', number: '4111111145551142', expiryMonth: '03', expiryYear: '2030' },
        capture: 'manual',
        cardOnFile: { networkTxReference: '123456789012345', type: 'RECURRING' },
      },
    );
    expect(body).toMatchObject({
      shopperInteraction: 'ContAuth',
      recurringProcessingModel: 'Subscription',
      additionalData: { manualCapture: 'true', networkTxReference: '123456789012345' },
    });
    expect(body).not.toHaveProperty('shopperReference');
    expect(body).not.toHaveProperty('storePaymentMethod');
  });

  it('stores cards for the merchant’s stable shopper, scoped to the channel; else the gateway’s id', () => {
    const channel = { id: '0123456789abcdef0123456789abcdef' };
    expect(
      shopperReferenceOf({ channel, request: { customer: { merchantCustomerId: 'cust-42' } } }, 'gw1'),
    ).toBe('0123456789abcdef0123456789abcdef:cust-42');
    expect(shopperReferenceOf({ channel, request: {} }, 'registration-id')).toBe('registration-id');
    const long = shopperReferenceOf(
      { channel, request: { customer: { merchantCustomerId: 'x'.repeat(255) } } },
      'g',
    );
    expect(long).toMatch(/^0123456789abcdef0123456789abcdef:[0-9a-f]{64}$/);
  });
});
