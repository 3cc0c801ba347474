import { describe, expect, it } from 'vitest';
import { detectBrand, luhnValid } from '../../../shared/brands';
import { isKnownCode, isSuccess } from '../../../shared/result-codes';
import { DECLINED_CARDS, decide, forcedCode, type SimulatedInstrument } from './acquirer';

const NOW = new Date('2026-11-21T12:00:00Z');
const card = (over: Partial<Extract<SimulatedInstrument, { kind: 'card' }>> = {}): SimulatedInstrument => ({
  kind: 'card',
  brand: 'VISA',
  number: '4200000000000000',
  expiryMonth: '05',
  expiryYear: '2034',
  cvv: '123',
  holder: 'Jane Jones',
  ...over,
});

describe('acquirer simulator', () => {
  it.each<[string, SimulatedInstrument, Record<string, string> | undefined, string]>([
    ['the standard test card succeeds with exactly 000.100.110', card(), undefined, '000.100.110'],
    ['a card that fails Luhn', card({ number: '4444444444444444' }), undefined, '100.100.101'],
    [
      '4200000000000001 (recorded as invalid)',
      card({ number: '4200000000000001' }),
      undefined,
      '100.100.101',
    ],
    [
      'AMEX test card with a 4-digit code',
      card({ brand: 'AMEX', number: '377777777777770', cvv: '1234' }),
      undefined,
      '000.100.110',
    ],
    [
      'AMEX with a 3-digit code',
      card({ brand: 'AMEX', number: '377777777777770', cvv: '123' }),
      undefined,
      '100.100.601',
    ],
    [
      'MASTER test card',
      card({ brand: 'MASTER', number: '5232105022907162', cvv: '204' }),
      undefined,
      '000.100.110',
    ],
    ['a VISA number sent as MASTER', card({ brand: 'MASTER' }), undefined, '100.100.700'],
    [
      'an expired card (old samples use past dates)',
      card({ expiryMonth: '03', expiryYear: '2025' }),
      undefined,
      '100.100.303',
    ],
    [
      'the current month is still valid',
      card({ expiryMonth: '11', expiryYear: '2026' }),
      undefined,
      '000.100.110',
    ],
    [
      'the decline test card passes the checks and is declined',
      card({ number: '4000000000000002' }),
      undefined,
      '800.100.151',
    ],
    [
      'the decline test card still fails its CVV check first',
      card({ number: '4000000000000002', cvv: '12' }),
      undefined,
      '100.100.601',
    ],
    ['forceResultCode forces a decline', card(), { forceResultCode: '800.100.151' }, '800.100.151'],
    ['forceResultCode cannot force success', card(), { forceResultCode: '000.000.000' }, '000.100.110'],
    ['forceResultCode cannot force pending', card(), { forceResultCode: '000.200.000' }, '000.100.110'],
    ['an unknown forced code is ignored', card(), { forceResultCode: '123.456.789' }, '000.100.110'],
    ['a result code as the holder forces it', card({ holder: '800.100.153' }), undefined, '800.100.153'],
    [
      'a test IBAN succeeds',
      { kind: 'bankAccount', iban: 'DE23100000001234567890' },
      undefined,
      '000.100.110',
    ],
    [
      'an IBAN with a bad checksum',
      { kind: 'bankAccount', iban: 'DE24100000001234567890' },
      undefined,
      '100.100.101',
    ],
    // Network tokens get the card checks, without a CVV; the expiry only when sent.
    [
      'a network token in VISA ranges',
      { kind: 'tokenAccount', brand: 'VISA', number: '4200000000000000' },
      undefined,
      '000.100.110',
    ],
    [
      'a token failing Luhn',
      { kind: 'tokenAccount', brand: 'VISA', number: '4444444444444444' },
      undefined,
      '100.100.101',
    ],
    [
      'a token outside its brand',
      { kind: 'tokenAccount', brand: 'MASTER', number: '4200000000000000' },
      undefined,
      '100.100.700',
    ],
    [
      'an expired token',
      {
        kind: 'tokenAccount',
        brand: 'VISA',
        number: '4200000000000000',
        expiryMonth: '10',
        expiryYear: '2026',
      },
      undefined,
      '100.100.303',
    ],
    [
      'a token forced to decline',
      { kind: 'tokenAccount', brand: 'VISA', number: '4200000000000000' },
      { forceResultCode: '800.100.151' },
      '800.100.151',
    ],
    [
      'a virtual account',
      { kind: 'virtualAccount', brand: 'VIRTUAL_ACCOUNT', accountId: 'jane@example.com' },
      undefined,
      '000.100.110',
    ],
    [
      'a virtual account of a brand that is none',
      { kind: 'virtualAccount', brand: 'NOT_A_VIRTUAL_ACCOUNT', accountId: 'jane@example.com' },
      undefined,
      '100.210.102',
    ],
    [
      'a virtual account with a blank id',
      { kind: 'virtualAccount', brand: 'VIRTUAL_ACCOUNT', accountId: '  ' },
      undefined,
      '100.210.101',
    ],
    [
      'a virtual account forced to decline',
      { kind: 'virtualAccount', brand: 'VIRTUAL_ACCOUNT', accountId: 'jane@example.com' },
      { forceResultCode: '100.396.101' },
      '100.396.101',
    ],
    [
      'a gift card with number and PIN',
      { kind: 'giftCard', hasNumber: true, hasPin: true },
      undefined,
      '000.100.110',
    ],
    [
      'a gift card without its PIN',
      { kind: 'giftCard', hasNumber: true, hasPin: false },
      undefined,
      '100.100.101',
    ],
    [
      'a gift card forced to decline',
      { kind: 'giftCard', hasNumber: true, hasPin: true },
      { forceResultCode: '800.100.151' },
      '800.100.151',
    ],
  ])('%s', (_, instrument, customParameters, code) => {
    expect(decide({ instrument, customParameters }, NOW).code).toBe(code);
  });

  it('answers AVS and CVV letters on card successes', () => {
    expect(
      decide({ instrument: card(), billing: { street1: '1 Test Street', postcode: 'TE1 2ST' } }, NOW),
    ).toMatchObject({
      avsResponse: 'F',
      cvvResponse: 'M',
    });
    expect(decide({ instrument: card({ cvv: undefined }) }, NOW)).toMatchObject({
      avsResponse: 'U',
      cvvResponse: 'P',
    });
  });

  it('charges a stored card only while it is valid, checking a CVV sent with it', () => {
    const stored = (expiryYear: string, cvv?: string): SimulatedInstrument => ({
      kind: 'storedCard',
      brand: 'VISA',
      expiryMonth: '05',
      expiryYear,
      ...(cvv === undefined ? {} : { cvv }),
    });
    expect(decide({ instrument: stored('2034') }, NOW)).toMatchObject({
      code: '000.100.110',
      cvvResponse: 'P',
    });
    expect(decide({ instrument: stored('2025') }, NOW).code).toBe('100.100.303');
    expect(decide({ instrument: stored('2034', '12') }, NOW).code).toBe('100.100.601');
    expect(decide({ instrument: stored('2034', '123') }, NOW).cvvResponse).toBe('M');
  });

  it('declines its test cards with catalogue codes; advice codes are two digits, on MASTER cards only', () => {
    for (const [number, declined] of Object.entries(DECLINED_CARDS)) {
      expect(luhnValid(number), number).toBe(true);
      expect(isKnownCode(declined.code) && !isSuccess(declined.code), declined.code).toBe(true);
      if (declined.merchantAdviceCode !== undefined) {
        expect(declined.merchantAdviceCode).toMatch(/^\d{2}$/);
        expect(detectBrand(number)).toBe('MASTER');
      }
    }
  });

  it('is deterministic', () => {
    const a = decide({ instrument: card(), billing: { postcode: 'TE1 2ST' } }, NOW);
    expect(decide({ instrument: card(), billing: { postcode: 'TE1 2ST' } }, NOW)).toEqual(a);
  });

  it.each([
    ['800.100.151', '800.100.151'],
    ['000.100.110', undefined],
    ['not a code', undefined],
    [undefined, undefined],
  ])('forcedCode(%s)', (value, expected) => {
    expect(forcedCode(value)).toBe(expected);
  });
});
