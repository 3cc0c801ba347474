import { describe, expect, it } from 'vitest';
import { parseRequest } from '../../params/requests';
import { echoOf } from './echo';

describe('echoOf', () => {
  it('echoes request groups without secrets or credentials', () => {
    const parsed = parseRequest(
      'payment',
      [
        'entityId=8a8294174b7ecb28014b9699220015ca',
        'authentication.userId=8a8294174b7ecb28014b9699220015cc',
        'authentication.password=sy6KJsT8',
        'amount=92.00&currency=EUR&paymentBrand=VISA&paymentType=DB',
        'card.number=4200000000000000&card.holder=Jane%20Jones&card.expiryMonth=05&card.expiryYear=2034&card.cvv=123',
        'customer.givenName=Jane&customer.surname=Jones',
        'customParameters[SHOPPER_promo]=X1',
        'cart.items[0].name=Book&cart.items[1].name=Pen',
      ].join('&'),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const echo = echoOf(parsed.value);
    expect(echo).toEqual({
      card: { holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' },
      customer: { givenName: 'Jane', surname: 'Jones' },
      customParameters: { SHOPPER_promo: 'X1' },
      cart: { items: [{ name: 'Book' }, { name: 'Pen' }] },
    });
    const json = JSON.stringify(echo);
    for (const secret of ['4200000000000000', '"123"', 'sy6KJsT8', '8a8294174b7ecb28014b9699220015cc']) {
      expect(json).not.toContain(secret);
    }
  });

  it('echoes account numbers to the merchant who sent them (storage seals them at rest)', () => {
    const parsed = parseRequest(
      'payment',
      [
        'amount=92.00&currency=EUR&paymentBrand=DIRECTDEBIT_SEPA&paymentType=DB',
        'bankAccount.holder=Jane%20Jones&bankAccount.iban=DE89370400440532013000&bankAccount.bic=MARKDEF1100',
        'sender.accountNumber=NL91ABNA0417164300',
      ].join('&'),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(echoOf(parsed.value)).toEqual({
      bankAccount: { holder: 'Jane Jones', iban: 'DE89370400440532013000', bic: 'MARKDEF1100' },
      sender: { accountNumber: 'NL91ABNA0417164300' },
    });
  });
});
