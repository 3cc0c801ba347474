// @vitest-environment happy-dom
import '../methods'; // the payment methods register themselves, as in the bundle's entry
import { describe, expect, it } from 'vitest';
import { registerBrand } from '../../shared/brands';
import { brandName, parseBrands, planMethods } from './brands';

const form = (html: string) => {
  document.body.innerHTML = html;
  return document.querySelector('form')!;
};

describe('brands of a form', () => {
  it('reads data-brands with any whitespace, upper-cased, without duplicates', () => {
    expect(parseBrands(form('<form data-brands="  VISA   master\n AMEX VISA "></form>'))).toEqual([
      'VISA',
      'MASTER',
      'AMEX',
    ]);
  });

  it('falls back to the form text on legacy pages', () => {
    expect(parseBrands(form('<form> VISA MASTER </form>'))).toEqual(['VISA', 'MASTER']);
    expect(parseBrands(form('<form data-brands=" ">DIRECTDEBIT_SEPA</form>'))).toEqual(['DIRECTDEBIT_SEPA']);
  });

  it('plans one card form for all card brands and one form per other brand, in order', () => {
    expect(
      planMethods([
        'PAYPAL',
        'VISA',
        'DIRECTDEBIT_SEPA',
        'MASTER',
        'VIRTUAL_ACCOUNT',
        'GIFTCARD',
        'PREPAYMENT',
        'WALLETA',
      ]),
    ).toEqual([
      { kind: 'onlineTransfer', brand: 'PAYPAL' },
      { kind: 'card', brands: ['VISA', 'MASTER'] },
      { kind: 'directDebit', brand: 'DIRECTDEBIT_SEPA' },
      { kind: 'virtualAccount', brand: 'VIRTUAL_ACCOUNT' },
      { kind: 'giftCard', brand: 'GIFTCARD' },
      { kind: 'onlineTransfer', brand: 'PREPAYMENT' },
      { kind: 'wallet', brand: 'WALLETA' },
    ]);
  });

  it('draws MADA in the card form and drops brands the gateway does not know', () => {
    expect(
      planMethods(['FOOBAR', 'VISA', 'APPLEPAY', 'MADA', 'NOPAY', 'PAYPAL', 'INVOICE', 'NOVOUCHER']),
    ).toEqual([
      { kind: 'card', brands: ['VISA', 'MADA'] },
      { kind: 'onlineTransfer', brand: 'PAYPAL' },
    ]);
    expect(planMethods(['FOOBAR', 'NOBANK', 'NOTRANSFER'])).toEqual([]);
  });

  it('draws only the brands the checkout’s channel accepts (undefined: all of them)', () => {
    const listed = ['VISA', 'MASTER', 'MADA', 'DIRECTDEBIT_SEPA', 'PAYPAL', 'WALLETA'];
    expect(planMethods(listed, ['VISA', 'MASTER'])).toEqual([{ kind: 'card', brands: ['VISA', 'MASTER'] }]);
    expect(planMethods(listed, ['PAYPAL', 'MADA', 'AMEX'])).toEqual([
      { kind: 'card', brands: ['MADA'] },
      { kind: 'onlineTransfer', brand: 'PAYPAL' },
    ]);
    expect(planMethods(listed, [])).toEqual([]);
    expect(planMethods(listed, undefined)).toHaveLength(4);
  });

  it('draws no button for a wallet whose sheet the widget does not have (its data no form collects)', () => {
    registerBrand('TESTWALLET_NOGROUP', { kind: 'wallet' });
    registerBrand('TESTWALLET_TOKEN', { kind: 'wallet', group: 'tokenAccount' });
    expect(planMethods(['TESTWALLET_NOGROUP', 'VISA', 'TESTWALLET_TOKEN', 'WALLETB'])).toEqual([
      { kind: 'card', brands: ['VISA'] },
      { kind: 'wallet', brand: 'WALLETB' },
    ]);
  });
});

describe('what the shopper reads for a brand', () => {
  it("is the catalogue's display name: Klarna Pay Later, Sofort, PayPal, Visa, Wallet A", () => {
    expect(
      ['KLARNA_PAYMENTS_PAYLATER', 'SOFORTUEBERWEISUNG', 'PAYPAL', 'VISA', 'WALLETA', 'EPS'].map(brandName),
    ).toEqual(['Klarna Pay Later', 'Sofort', 'PayPal', 'Visa', 'Wallet A', 'eps-Überweisung']);
  });
});
