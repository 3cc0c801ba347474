import { describe, expect, it } from 'vitest';
import { PAN } from '../test-kit/fixtures/cards';
import { MASK, maskDigitRuns, redact, redactString, sensitiveKind } from './redact';

const PAN_MASKED = '420000******0000';
/** 16 digits that fail Luhn. */
const NOT_LUHN = '4444444444444444';

describe('sensitiveKind', () => {
  it('recognises card, secret and credential names in any spelling', () => {
    for (const name of [
      'number',
      'cardNumber',
      'card.number',
      'card[number]',
      'card_number',
      'PAN',
      'iban',
      'bankAccount.iban',
      'bankAccount[iban]',
      'sender.accountNumber',
      'bankAccountNumber',
      'senderIban',
    ])
      expect(sensitiveKind(name), name).toBe('pan');
    for (const name of [
      'cvv',
      'card.cvv',
      'card[cvv]',
      'CVV',
      'password',
      'authentication.password',
      'secret',
      'token',
      'authorization',
      'Authorization',
      'paymentToken',
      'walletA.paymentToken',
      'cryptogram',
      'threeDSecure.cryptogram',
      'customParameters[SHOPPER_password]',
      'accessToken',
      'webhookSecret',
      'x-api-key',
      'cookie',
    ])
      expect(sensitiveKind(name), name).toBe('secret');
  });

  it('leaves ordinary names alone', () => {
    for (const name of [
      'amount',
      'numberOfCaptures',
      'tokenId',
      'authentication.userId',
      'entityId',
      'holder',
      'merchantTransactionId',
      'card.bin',
      'last4Digits',
      'secretHash',
      'idempotencyKey',
    ])
      expect(sensitiveKind(name), name).toBeUndefined();
  });
});

describe('maskDigitRuns', () => {
  it('keeps the first 6 and last 4 of a Luhn-valid PAN, with or without separators', () => {
    expect(maskDigitRuns(PAN)).toBe(PAN_MASKED);
    expect(maskDigitRuns('4200 0000 0000 0000')).toBe('4200 00** **** 0000');
    expect(maskDigitRuns('4200-0000-0000-0000')).toBe('4200-00**-****-0000');
    expect(maskDigitRuns(`card ${PAN} declined`)).toBe(`card ${PAN_MASKED} declined`);
    expect(maskDigitRuns('378282246310005')).toBe('378282*****0005');
    expect(maskDigitRuns('4200+0000+0000+0000')).toBe('4200+00**+****+0000');
    expect(maskDigitRuns('4200%200000%200000%200000')).toBe('4200%2000**%20****%200000');
  });

  it('stars every digit of other runs of 12 or more', () => {
    expect(maskDigitRuns(NOT_LUHN)).toBe('*'.repeat(16));
    expect(maskDigitRuns('123456789012')).toBe('*'.repeat(12));
    expect(maskDigitRuns('x12345678901234567890y')).toBe(`x${'*'.repeat(20)}y`);
    expect(maskDigitRuns(`abc${PAN}`)).toBe(`abc${PAN_MASKED}`);
  });

  it('leaves short numbers, dates, shortIds, amounts and our hex identifiers alone', () => {
    for (const s of [
      '12345678901',
      '2021-08-16 17:34:10+0000',
      '1234.5678.9012',
      '92.00',
      '8a8294174b7ecb28014b9699220015cc',
      'a1234567890123456789012345678901',
      '1234567890123456789012345678901f',
      `${'0'.repeat(39)}a@2021-08-16 17:34:10 +0000`,
      `sha256:${'1'.repeat(63)}f`,
    ])
      expect(maskDigitRuns(s), s).toBe(s);
  });

  it('does not spare a PAN glued to a word of another length', () => {
    expect(maskDigitRuns(`deadbeef${PAN}`)).toBe(`deadbeef${PAN_MASKED}`);
    expect(maskDigitRuns(`${'1'.repeat(31)}`)).toBe('*'.repeat(31));
  });
});

describe('redactString', () => {
  it('masks card data in URL query strings', () => {
    expect(redactString(`/v1/payments?card.number=${PAN}`)).toBe(`/v1/payments?card.number=${PAN_MASKED}`);
    const url = `https://gw.example/v1/payments?entityId=8a8294174b7ecb28014b9699220015cc&card.number=${NOT_LUHN}&card.cvv=123&card.holder=Jane%20Doe`;
    const out = redactString(url);
    expect(out).not.toContain(NOT_LUHN);
    expect(out).not.toContain('cvv=123');
    expect(out).toContain('card.cvv=***');
    expect(out).toContain('entityId=8a8294174b7ecb28014b9699220015cc');
    expect(out).toContain('card.holder=Jane%20Doe');
  });

  it('masks card data in form bodies, also with encoded names and + for spaces', () => {
    const body = `card%5Bnumber%5D=4200+0000+0000+0000&card%5Bcvv%5D=123&authentication.password=s3cr3t&amount=92.00`;
    const out = redactString(body);
    expect(out).toBe(
      'card%5Bnumber%5D=4200 00** **** 0000&card%5Bcvv%5D=***&authentication.password=***&amount=92.00',
    );
  });

  it('masks secrets in JSON text', () => {
    const json = JSON.stringify({ card: { number: PAN, cvv: '123' }, token: 'abc', amount: '1.00', n: 7 });
    const out = redactString(json);
    expect(JSON.parse(out)).toEqual({
      card: { number: PAN_MASKED, cvv: MASK },
      token: MASK,
      amount: '1.00',
      n: 7,
    });
    expect(redactString('{"cvv": 123}')).toBe('{"cvv": "***"}');
  });

  it('masks Bearer and Basic credentials in free text', () => {
    expect(
      redactString('Authorization: Bearer OGE4Mjk0MTc0YjdlY2IyODAxNGI5Njk5MjIwMDE1Y2N8c3k2S0pzVDg='),
    ).toBe('Authorization: Bearer ***');
    expect(redactString('got basic dXNlcjpwYXNz here')).toBe('got basic *** here');
  });

  it('returns text without anything sensitive unchanged', () => {
    for (const s of ['', 'payment accepted', 'GET /v1/payments/8a8294174b7ecb28014b9699220015cc?entityId=x'])
      expect(redactString(s)).toBe(s);
  });

  // Not a timing target (bench/ has those): a pattern that backtracks on 400,000 characters
  // without a separator takes minutes, far past this generous timeout even on a loaded machine.
  it('stays linear on long strings without separators', () => {
    const long = `${'a'.repeat(200_000)} ${'b1'.repeat(100_000)}`;
    expect(redactString(long)).toBe(long);
  }, 10_000);
});

describe('IBANs in logs', () => {
  it('masks a valid IBAN in free text, compact or in groups, any case, keeping country, check digits and last 4', () => {
    expect(redactString('refused: NL91ABNA0417164300 unknown')).toBe('refused: NL91**********4300 unknown');
    expect(redactString('account fr1420041010050500013m02606')).toBe('account FR14*******************2606');
    expect(redactString('IBAN DE89 3704 0044 0532 0130 00.')).toBe('IBAN DE89**************3000.');
    expect(redactString('{"note":"GB29NWBK60161331926819"}')).toBe('{"note":"GB29**************6819"}');
  });

  it('masks IBANs and account numbers under their names entirely', () => {
    expect(
      redact({ bankAccount: { iban: 'NL91ABNA0417164300', number: 'KTO99887766', holder: 'Jane' } }),
    ).toEqual({
      bankAccount: { iban: MASK, number: MASK, holder: 'Jane' },
    });
    expect(redactString('bankAccount.iban=NL91ABNA0417164300&sender.accountNumber=X1')).toBe(
      `bankAccount.iban=${MASK}&sender.accountNumber=${MASK}`,
    );
  });

  it('leaves IBAN-shaped words that are not valid IBANs alone', () => {
    for (const text of ['NL91ABNA0417164301', 'AB12CDEFGHIJKLMNOP', 'ZZ00ABCDEFGHIJK1'])
      expect(redactString(text), text).toBe(text);
  });
});

describe('redact', () => {
  it('masks sensitive names at any depth, in arrays and in maps', () => {
    const input = {
      request: {
        card: { number: PAN, cvv: '123', holder: 'Jane', expiryMonth: '05' },
        'card.number': `${PAN.slice(0, 4)} ${PAN.slice(4, 8)} ${PAN.slice(8, 12)} ${PAN.slice(12)}`,
        'card.cvv': 123,
        registrations: [{ id: 'r1', cvv: '999' }],
      },
      headers: { Authorization: 'Bearer abc', 'content-type': 'text/plain' },
      tokens: [{ token: 'xyz', tokenId: 't1' }],
      map: new Map<string, unknown>([
        ['password', 'p'],
        ['ok', NOT_LUHN],
      ]),
    };
    expect(redact(input)).toEqual({
      request: {
        card: { number: PAN_MASKED, cvv: MASK, holder: 'Jane', expiryMonth: '05' },
        'card.number': '4200 00** **** 0000',
        'card.cvv': MASK,
        registrations: [{ id: 'r1', cvv: MASK }],
      },
      headers: { Authorization: MASK, 'content-type': 'text/plain' },
      tokens: [{ token: MASK, tokenId: 't1' }],
      map: { password: MASK, ok: '*'.repeat(16) },
    });
  });

  it('masks a non-PAN under a card-number name entirely, and whole objects under secret names', () => {
    expect(redact({ number: '123', pan: NOT_LUHN, secret: { a: 1 }, token: null, password: '' })).toEqual({
      number: MASK,
      pan: MASK,
      secret: MASK,
      token: null,
      password: '',
    });
  });

  it('masks digit runs in any string, including under ordinary names and in keys', () => {
    expect(redact({ note: `customer typed ${PAN} in the name`, [PAN]: 1 })).toEqual({
      note: `customer typed ${PAN_MASKED} in the name`,
      [PAN_MASKED]: 1,
    });
    expect(redact([`${PAN}`, 42, true, null])).toEqual([PAN_MASKED, 42, true, null]);
  });

  it('turns errors into plain objects with message, stack, own fields and cause redacted', () => {
    const cause = new Error(`upstream said card ${PAN} invalid`);
    const err = Object.assign(new TypeError(`bad card ${PAN}`, { cause }), { code: 'E_CARD', cvv: '123' });
    const out = redact({ err }) as { err: Record<string, unknown> };
    expect(out.err.name).toBe('TypeError');
    expect(out.err.message).toBe(`bad card ${PAN_MASKED}`);
    expect(out.err.code).toBe('E_CARD');
    expect(out.err.cvv).toBe(MASK);
    expect(String(out.err.stack)).toContain(`bad card ${PAN_MASKED}`);
    expect((out.err.cause as Record<string, unknown>).message).toBe(
      `upstream said card ${PAN_MASKED} invalid`,
    );
    expect(JSON.stringify(out)).not.toContain(PAN);
  });

  it('is JSON-safe: dates, bytes, URLs, bigints, functions, cycles and depth', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = { pan: PAN };
    for (let i = 0; i < 50; i++) deep = { deep };
    const out = redact({
      at: new Date('2024-01-02T03:04:05Z'),
      bytes: Buffer.from(PAN),
      url: new URL(`https://x.example/v1/payments?card.number=${PAN}`),
      big: 4200000000000000n,
      fn: function named() {},
      cyclic,
      deep,
      set: new Set([PAN]),
    }) as Record<string, unknown>;
    expect(out.at).toBe('2024-01-02T03:04:05.000Z');
    expect(out.bytes).toBe('[16 bytes]');
    expect(out.url).toBe(`https://x.example/v1/payments?card.number=${PAN_MASKED}`);
    expect(out.big).toBe(PAN_MASKED);
    expect(out.fn).toBe('[Function named]');
    expect(out.cyclic).toEqual({ a: 1, self: '[Circular]' });
    expect(out.set).toEqual([PAN_MASKED]);
    expect(JSON.stringify(out)).toContain('[Truncated]');
    expect(JSON.stringify(out)).not.toContain(PAN);
  });

  it('does not modify its input', () => {
    const input = { card: { number: PAN, cvv: '123' } };
    redact(input);
    expect(input).toEqual({ card: { number: PAN, cvv: '123' } });
  });

  it('keeps a shared (non-cyclic) object in both places', () => {
    const shared = { id: 'x' };
    expect(redact({ a: shared, b: shared })).toEqual({ a: { id: 'x' }, b: { id: 'x' } });
  });
});
