import { describe, expect, it } from 'vitest';
import { parsed } from '../../../server/test-kit/engine/requests';
import { echoOf } from '../answers/echo';
import {
  giftCardDetails,
  instrumentOf,
  sendsInstrument,
  storedBankAccountInstrument,
  storedCard,
} from './instruments';

const PAY = 'amount=1.00&currency=EUR&paymentType=DB';
const CRYPTOGRAM = 'AgAAAAAABk4DWZ4C28yUQAAAAAA=';
const seal = (plain: string) => `sealed(${plain.length})`;

describe('instrumentOf', () => {
  it('reads a network token like a card number, without CVV', () => {
    const request = parsed(
      'payment',
      `${PAY}&paymentBrand=VISA&tokenAccount.number=4200000000000000&tokenAccount.type=NETWORK&tokenAccount.cryptogram=${CRYPTOGRAM}&tokenAccount.expiryMonth=05&tokenAccount.expiryYear=2034`,
    );
    expect(instrumentOf(request)).toEqual({
      kind: 'tokenAccount',
      brand: 'VISA',
      number: '4200000000000000',
      expiryMonth: '05',
      expiryYear: '2034',
    });
  });

  it('reads a virtual account and a gift card', () => {
    expect(
      instrumentOf(parsed('payment', `${PAY}&paymentBrand=VIRTUAL_ACCOUNT&virtualAccount.accountId=jane`)),
    ).toEqual({ kind: 'virtualAccount', brand: 'VIRTUAL_ACCOUNT', accountId: 'jane' });
    expect(
      instrumentOf(
        parsed('payment', `${PAY}&paymentBrand=GIFTCARD&giftCard.number=6000001234&giftCard.pin=9876`),
      ),
    ).toEqual({ kind: 'giftCard', hasNumber: true, hasPin: true });
  });

  it('tells a request without account data from one with', () => {
    const id = 'a'.repeat(32);
    expect(sendsInstrument(parsed('payment', `${PAY}&referenceUuid=${id}`))).toBe(false);
    expect(
      sendsInstrument(
        parsed('payment', `${PAY}&referenceUuid=${id}&paymentBrand=GIFTCARD&giftCard.holder=Jane`),
      ),
    ).toBe(true);
  });
});

describe('storedCard', () => {
  it('keeps a token only sealed, with bin and last4, and no expiry when none was sent', () => {
    const request = parsed(
      'payment',
      `${PAY}&paymentBrand=VISA&tokenAccount.number=4111110000001111&tokenAccount.type=EXTERNAL`,
    );
    expect(storedCard(request, seal)).toEqual({
      bin: '411111',
      last4Digits: '1111',
      expiryMonth: '',
      expiryYear: '',
      encryptedNumber: 'sealed(16)',
    });
  });
});

describe('giftCardDetails', () => {
  it('adds the last four characters of the number to the echo, which has neither number nor PIN', () => {
    const request = parsed(
      'payment',
      `${PAY}&paymentBrand=GIFTCARD&giftCard.number=GC-6000001234&giftCard.pin=9876&giftCard.type=BIRTHDAY`,
    );
    const echo = echoOf(request);
    const details = giftCardDetails(request, echo);
    expect(details).toEqual({ giftCard: { type: 'BIRTHDAY', last4Digits: '1234' } });
    expect(JSON.stringify({ ...echo, ...details })).not.toMatch(/9876|GC-6000001234/);
  });
});

describe('storedBankAccountInstrument', () => {
  it('checks a stored SEPA registration by its IBAN, as storage opened it', () => {
    const details = {
      bankAccount: { holder: 'Jane Jones', iban: 'DE89370400440532013000', bic: 'MARKDEF1100' },
    };
    expect(storedBankAccountInstrument(details)).toEqual({
      kind: 'bankAccount',
      iban: 'DE89370400440532013000',
      holder: 'Jane Jones',
    });
    expect(storedBankAccountInstrument({ card: { holder: 'Jane Jones' } })).toBeUndefined();
  });
});
