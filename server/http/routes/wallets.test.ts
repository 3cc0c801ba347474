/**
 * The simulated wallets (walletA, walletB, walletC) at the HTTP level, on a gateway started with
 * `startGateway` (SQLite, a fake clock): both variants of each family through POST /v1/payments
 * (the encrypted token the gateway opens, and the card the merchant decrypted itself), every way a
 * token is refused (changed, another wallet's, another channel's or merchant's, expired, malformed,
 * another gateway's), the token endpoint the wallet sheet and server-to-server tests use (also for
 * a checkout's submission), and the widget script's SRI hash, computed here from the served bytes.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WalletPayload } from '../../../shared/engine/core/ports';
import {
  WALLET_BRANDS,
  WALLET_CARDS,
  WALLET_GROUPS,
  type WalletGroup,
} from '../../processors/simulator/wallets';
import { WALLET_TOKEN_TTL_MS, walletTokens } from '../../security/wallet-tokens';
import { parameterErrorNames as names } from '../../test-kit/answers';
import { fakeClock } from '../../test-kit/clock';
import { type TestGateway, type TestMerchant, type TestResponse, testGateway } from '../../test-kit/gateway';

const MINUTE = 60_000;
/** Another data key: a second gateway whose tokens this one cannot open. */
const OTHER_DATA_KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
/** A cryptogram as a wallet's decrypted payload carries it: 28 characters (20 bytes, base64). */
const CRYPTOGRAM = 'AJkBBkhgQQAAAE4gSEJydQAAAAA=';

/** Each family with the card its token carries here (three networks, three ECIs' families). */
const FAMILIES: readonly { wallet: WalletGroup; card: string; bin: string; last4: string; eci: string }[] = [
  { wallet: 'walletA', card: 'visa', bin: '420000', last4: '0000', eci: '05' },
  { wallet: 'walletB', card: 'mastercard', bin: '545454', last4: '5454', eci: '02' },
  { wallet: 'walletC', card: 'amex', bin: '377777', last4: '7770', eci: '05' },
];

/** A refused token: 400, 200.300.404, one error naming the token, its value never shown. */
function expectRefused(res: TestResponse, wallet: WalletGroup, token: string, message?: string): void {
  expect(res.status).toBe(400);
  expect(res.body.result.code).toBe('200.300.404');
  expect(res.body.result.parameterErrors).toEqual([
    { name: `${wallet}.paymentToken`, value: null, message: message ?? expect.any(String) },
  ]);
  expect(res.body.id).toBeUndefined();
  // Searched for in everything but the random ndc and the build's stamps: a
  // three-letter token such as 'abc' turns up in a random hex ndc now and then.
  const { ndc: _ndc, buildNumber: _build, timestamp: _time, ...answer } = res.body;
  const shown = JSON.stringify(answer);
  if (token.length > 0) expect(shown).not.toContain(token);
  // Nor any part of it (header, iv, ciphertext, tag).
  for (const part of token.split('.')) if (part.length >= 8) expect(shown).not.toContain(part);
}

/** A token endpoint refusal: 400, {error}, never cached. */
function expectTokenRefused(res: TestResponse, error: RegExp): void {
  expect(res.status).toBe(400);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.body).toEqual({ error: expect.stringMatching(error) });
}

/** Changes the character in the middle of a token's part (0 header, 1 iv, 2 ciphertext, 3 tag). */
function flip(token: string, part: number): string {
  const parts = token.split('.');
  const text = parts[part]!;
  const i = Math.floor(text.length / 2);
  parts[part] = `${text.slice(0, i)}${text[i] === 'A' ? 'B' : 'A'}${text.slice(i + 1)}`;
  return parts.join('.');
}

describe('wallet payments over HTTP (SQLite, fake clock)', () => {
  let gw: TestGateway;
  /** Two channels, one token for both. */
  let m: TestMerchant;
  let stranger: TestMerchant;
  const clock = fakeClock();
  /** What the gateway's tokens hold, opened with its own key (to know the cryptogram to look for). */
  let peek: (wallet: WalletGroup, token: string, entityId: string) => WalletPayload;
  /** Every token, card number and cryptogram the tests saw, to look for in the data files. */
  const secrets = new Set<string>();

  beforeAll(async () => {
    gw = await testGateway({ clock, pending: { autoStart: false }, notifier: { autoStart: false } });
    m = await gw.addMerchant({ channels: 2 });
    stranger = await gw.addMerchant({ channels: 1 });
    const keys = walletTokens(gw.vault.subkey('wallet-tokens'));
    peek = (wallet, token, entityId) => {
      const opened = keys.open(wallet, token, entityId, clock.now());
      if ('refused' in opened) throw new Error(`test token refused: ${opened.refused}`);
      return opened;
    };
  });
  afterAll(() => gw?.cleanup());

  /** POST /simulators/wallets/token. */
  const tokenFor = (params: Record<string, string>) => gw.post('/simulators/wallets/token', params);

  /** A token of `wallet` for `card`, issued for m's first channel unless told otherwise. */
  async function issue(wallet: string, card: string, where: Record<string, string> = {}): Promise<string> {
    const res = await tokenFor({ wallet, card, entityId: m.entityId, ...where });
    expect(res.status, res.text).toBe(200);
    const token: string = res.body.paymentToken;
    secrets.add(token);
    return token;
  }

  let idempotencyKey = 0;
  /** POST /v1/payments on m's first channel; an Idempotency-Key so stored answers are searched too. */
  const pay = (params: Record<string, string>, who: TestMerchant = m, entityId = who.entityId) =>
    gw.post(
      '/v1/payments',
      { entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', ...params },
      { token: who.token, headers: { 'Idempotency-Key': `wallet-${++idempotencyKey}` } },
    );

  const payWithToken = (wallet: WalletGroup, token: string, extra: Record<string, string> = {}) =>
    pay({ paymentBrand: WALLET_BRANDS[wallet], [`${wallet}.paymentToken`]: token, ...extra });

  /** The decrypted-card variant: what the merchant sends after decrypting the token itself. */
  const decrypted = (wallet: WalletGroup): Record<string, string> => ({
    paymentBrand: WALLET_BRANDS[wallet],
    'card.number': '4200000000000000',
    'card.expiryMonth': '12',
    'card.expiryYear': '2030',
    'threeDSecure.verificationId': CRYPTOGRAM,
    'threeDSecure.eci': '05',
    [`${wallet}.source`]: 'web',
  });

  const stored = async (who: TestMerchant = m) => (await gw.paymentIds(who.merchantId)).length;

  describe.each(FAMILIES)('$wallet', ({ wallet, card, bin, last4, eci }) => {
    const brand = WALLET_BRANDS[wallet];

    it(`pays with an encrypted token (${brand}), answering the card masked and the ECI, never the token`, async () => {
      const token = await issue(wallet, card);
      const inside = peek(wallet, token, m.entityId);
      secrets.add(inside.number);
      secrets.add(inside.cryptogram);
      expect(inside.cryptogram).toHaveLength(28);

      const res = await payWithToken(wallet, token);
      expect(res.status, res.text).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
      expect(res.body.paymentBrand).toBe(brand);
      expect(res.body.card).toMatchObject({ bin, last4Digits: last4 });
      expect(res.body.threeDSecure).toMatchObject({ eci });
      for (const secret of [token, inside.number, inside.cryptogram, 'paymentToken', 'verificationId']) {
        expect(res.text, secret).not.toContain(secret);
      }
      // The status read shows the same, and no more.
      const status = await gw.get(
        `/v1/payments/${res.body.id}`,
        { entityId: m.entityId },
        { token: m.token },
      );
      expect(status.body.card).toMatchObject({ bin, last4Digits: last4 });
      for (const secret of [token, inside.number, inside.cryptogram])
        expect(status.text).not.toContain(secret);
    });

    it('declines the wallet card the issuer declines with 800.100.151', async () => {
      const token = await issue(wallet, 'visa-declined');
      secrets.add(peek(wallet, token, m.entityId).cryptogram);
      const res = await payWithToken(wallet, token);
      expect(res.status).toBe(400);
      expect(res.body.result.code).toBe('800.100.151');
      expect(res.body.card).toMatchObject({ bin: '400000', last4Digits: '0002' });
      expect(res.text).not.toContain(token);
      expect(res.text).not.toContain('4000000000000002');
    });

    it('pays with the decrypted card (card.*, threeDSecure.verificationId and eci, source=web)', async () => {
      const res = await pay(decrypted(wallet));
      expect(res.status, res.text).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
      expect(res.body.paymentBrand).toBe(brand);
      expect(res.body.card).toMatchObject({ bin: '420000', last4Digits: '0000' });
      expect(res.body.threeDSecure).toMatchObject({ eci: '05' });
      expect(res.body[wallet]).toEqual({ source: 'web' });
      expect(res.text).not.toContain('4200000000000000');
      expect(res.text).not.toContain(CRYPTOGRAM);
    });

    it.each([
      'card.number',
      'card.expiryMonth',
      'card.expiryYear',
      'threeDSecure.verificationId',
      'threeDSecure.eci',
    ])('refuses the decrypted card without %s (400 naming it)', async (field) => {
      const before = await stored();
      const { [field]: _, ...rest } = decrypted(wallet);
      const res = await pay(rest);
      expect(res.status).toBe(400);
      expect(res.body.result.code).toBe('200.300.404');
      expect(names(res)).toContain(field);
      expect(res.text).not.toContain(CRYPTOGRAM);
      expect(await stored()).toBe(before);
    });

    it(`refuses ${wallet}.paymentToken and ${wallet}.source together (400)`, async () => {
      const token = await issue(wallet, card);
      const res = await pay({ ...decrypted(wallet), [`${wallet}.paymentToken`]: token });
      expect(res.status).toBe(400);
      expect(res.body.result.code).toBe('200.300.404');
      expect(names(res)).toContain(`${wallet}.source`);
      expect(res.text).not.toContain(token);
    });

    it(`refuses ${wallet} without a token or a source (400 naming ${wallet}.paymentToken)`, async () => {
      const res = await pay({ paymentBrand: brand });
      expect(res.status).toBe(400);
      expect(names(res)).toContain(`${wallet}.paymentToken`);
    });
  });

  it('passes walletA.cardNetwork and walletA.cardType through, in both variants', async () => {
    const sent = { 'walletA.cardNetwork': 'MASTERCARD', 'walletA.cardType': 'DEBIT' };
    const token = await issue('walletA', 'mastercard');
    const viaToken = await payWithToken('walletA', token, sent);
    expect(viaToken.status, viaToken.text).toBe(200);
    expect(viaToken.body.walletA).toEqual({ cardNetwork: 'MASTERCARD', cardType: 'DEBIT' });
    const viaCard = await pay({ ...decrypted('walletA'), ...sent });
    expect(viaCard.status, viaCard.text).toBe(200);
    expect(viaCard.body.walletA).toEqual({ cardNetwork: 'MASTERCARD', cardType: 'DEBIT', source: 'web' });
  });

  it('registers the card a token stands for (createRegistration), and pays with it again', async () => {
    const token = await issue('walletC', 'visa');
    const first = await payWithToken('walletC', token, { createRegistration: 'true' });
    expect(first.status, first.text).toBe(200);
    expect(first.body.registrationId).toMatch(/^[0-9a-f]{32}$/);
    const again = await gw.post(
      `/v1/registrations/${first.body.registrationId}/payments`,
      { entityId: m.entityId, amount: '5.00', currency: 'EUR', paymentType: 'DB' },
      { token: m.token },
    );
    expect(again.status, again.text).toBe(200);
    expect(again.body.card).toMatchObject({ bin: '420000', last4Digits: '0000' });
    expect(again.text).not.toContain(token);
  });

  describe('refused tokens: 400 200.300.404 naming walletA.paymentToken, nothing stored', () => {
    it.each([
      [0, 'header'],
      [1, 'iv'],
      [2, 'ciphertext'],
      [3, 'tag'],
    ])('a character changed in part %i (%s)', async (part) => {
      const token = await issue('walletA', 'visa');
      const before = await stored();
      const changed = flip(token, part);
      expect(changed).not.toBe(token);
      expectRefused(await payWithToken('walletA', changed), 'walletA', changed);
      expect(await stored()).toBe(before);
    });

    it("another wallet's token (walletB's sent as walletA)", async () => {
      const token = await issue('walletB', 'visa');
      const before = await stored();
      expectRefused(await payWithToken('walletA', token), 'walletA', token, 'was issued by another wallet');
      expect(await stored()).toBe(before);
    });

    it("a token issued for the merchant's other channel", async () => {
      const token = await issue('walletA', 'visa', { entityId: m.entityIds[1]! });
      const before = await stored();
      expectRefused(
        await payWithToken('walletA', token),
        'walletA',
        token,
        'was issued for another merchant (entityId)',
      );
      expect(await stored()).toBe(before);
      // On the channel it was issued for, it pays.
      const right = await pay({ paymentBrand: 'WALLETA', 'walletA.paymentToken': token }, m, m.entityIds[1]);
      expect(right.body.result.code).toBe('000.100.110');
    });

    it("another merchant's token", async () => {
      const token = await issue('walletA', 'visa', { entityId: stranger.entityId });
      const before = await stored();
      expectRefused(
        await payWithToken('walletA', token),
        'walletA',
        token,
        'was issued for another merchant (entityId)',
      );
      expect(await stored()).toBe(before);
    });

    it('an expired token (past WALLET_TOKEN_TTL_MS), while one at its last millisecond still pays', async () => {
      const stale = await issue('walletA', 'visa');
      const edge = await issue('walletA', 'visa');
      clock.advance(WALLET_TOKEN_TTL_MS);
      const last = await payWithToken('walletA', edge);
      expect(last.body.result.code).toBe('000.100.110');
      clock.advance(1);
      const before = await stored();
      expectRefused(
        await payWithToken('walletA', stale),
        'walletA',
        stale,
        'has expired: ask the wallet for a new one',
      );
      expect(await stored()).toBe(before);
    });

    it.each([
      ['abc', 'abc'],
      ['three parts', 'eyJ2IjoxfQ.AAAA.BBBB'],
      ['five parts', 'a.b.c.d.e'],
      ['four parts, no header', 'bm90IGpzb24.AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA'],
    ])('a malformed token (%s)', async (_, token) => {
      const before = await stored();
      expectRefused(
        await payWithToken('walletA', token),
        'walletA',
        token,
        'is not a payment token of this wallet',
      );
      expect(await stored()).toBe(before);
    });

    it('an empty token', async () => {
      const before = await stored();
      const res = await payWithToken('walletA', '');
      expect(res.status).toBe(400);
      expect(res.body.result.code).toBe('200.300.404');
      expect(res.body.result.parameterErrors).toEqual([
        expect.objectContaining({ name: 'walletA.paymentToken', message: expect.any(String) }),
      ]);
      expect(await stored()).toBe(before);
    });

    it("another gateway's token (another data key), issued for this very channel", async () => {
      const other = await testGateway({ env: { GATEWAY_DATA_KEY: OTHER_DATA_KEY } });
      try {
        // The same entityId on the other gateway, so only the key differs.
        const channel = await gw.store.getChannel(m.entityId);
        await other.store.insertMerchant({ id: m.merchantId, name: 'Twin', createdAt: clock.now() });
        await other.store.insertChannel(channel!);
        const res = await other.post('/simulators/wallets/token', {
          wallet: 'walletA',
          card: 'visa',
          entityId: m.entityId,
        });
        expect(res.status, res.text).toBe(200);
        const token: string = res.body.paymentToken;
        const before = await stored();
        expectRefused(
          await payWithToken('walletA', token),
          'walletA',
          token,
          "cannot be decrypted: it was altered, or not issued by this gateway's wallet",
        );
        expect(await stored()).toBe(before);
      } finally {
        await other.cleanup();
      }
    });

    it('a token with the wallet in its header relabelled (the header is authenticated)', async () => {
      const token = await issue('walletB', 'visa');
      const [header, ...rest] = token.split('.');
      const fields = JSON.parse(Buffer.from(header!, 'base64url').toString('utf8'));
      const relabelled = [
        Buffer.from(JSON.stringify({ ...fields, w: 'walletA' })).toString('base64url'),
        ...rest,
      ].join('.');
      expectRefused(
        await payWithToken('walletA', relabelled),
        'walletA',
        relabelled,
        "cannot be decrypted: it was altered, or not issued by this gateway's wallet",
      );
    });
  });

  describe('registrations with a wallet token', () => {
    const register = (params: Record<string, string>) =>
      gw.post('/v1/registrations', { entityId: m.entityId, ...params }, { token: m.token });

    it('store the card the token stands for, which then pays', async () => {
      const res = await register({
        paymentBrand: 'WALLETA',
        'walletA.paymentToken': await issue('walletA', 'visa'),
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
      expect(res.body.card).toMatchObject({ bin: '420000', last4Digits: '0000' });
      const paid = await gw.post(
        `/v1/registrations/${res.body.id}/payments`,
        { entityId: m.entityId, amount: '5.00', currency: 'EUR', paymentType: 'DB' },
        { token: m.token },
      );
      expect(paid.body.result.code).toBe('000.100.110');
      expect(paid.body.card).toMatchObject({ last4Digits: '0000' });
    });

    it('refuse a token that does not open, naming it, and store nothing', async () => {
      const res = await register({ paymentBrand: 'WALLETA', 'walletA.paymentToken': 'garbage' });
      expect(res.status).toBe(400);
      expect(names(res)).toEqual(['walletA.paymentToken']);
      expect(res.body.id).toBeUndefined();
    });
  });

  describe('POST /simulators/wallets/token', () => {
    it('lists the wallet cards, the declined one included, without their numbers', async () => {
      const res = await gw.get('/simulators/wallets/cards');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body.cards.map((c: { id: string }) => c.id)).toEqual(WALLET_CARDS.map((c) => c.id));
      expect(res.body.cards).toContainEqual(
        expect.objectContaining({ id: 'visa-declined', network: 'VISA' }),
      );
      for (const card of WALLET_CARDS) expect(res.text).not.toContain(card.number);
    });

    it.each(WALLET_GROUPS)(
      'issues a %s token: network, type and last 4 beside it, never cached',
      async (wallet) => {
        const res = await tokenFor({ wallet, card: 'mastercard', entityId: m.entityId });
        expect(res.status).toBe(200);
        expect(res.headers.get('cache-control')).toBe('no-store');
        const card = WALLET_CARDS.find((c) => c.id === 'mastercard')!;
        expect(res.body).toEqual({
          paymentToken: expect.stringMatching(/^[\w-]+\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/),
          cardNetwork: 'MASTERCARD',
          cardType: card.type,
          last4: '5454',
        });
        expect(res.text).not.toContain('5454545454545454');
        // Two tokens for the same card differ (a fresh IV and cryptogram each time).
        const again = await tokenFor({ wallet, card: 'mastercard', entityId: m.entityId });
        expect(again.body.paymentToken).not.toBe(res.body.paymentToken);
      },
    );

    it.each([
      [
        'an unknown wallet',
        { wallet: 'walletD', card: 'visa' },
        /^wallet must be one of walletA, walletB, walletC$/,
      ],
      ['no wallet', { card: 'visa' }, /^wallet must be one of/],
      ['an unknown card', { wallet: 'walletA', card: 'diners' }, /^card must be one of visa, mastercard/],
      ['no card', { wallet: 'walletA' }, /^card must be one of/],
    ])('refuses %s', async (_, params, error) => {
      expectTokenRefused(await tokenFor({ entityId: m.entityId, ...params }), error);
    });

    it('refuses a request without checkoutId or entityId', async () => {
      expectTokenRefused(
        await tokenFor({ wallet: 'walletA', card: 'visa' }),
        /checkoutId or entityId is required/,
      );
    });

    it('refuses an unknown entityId, and an unknown checkout', async () => {
      expectTokenRefused(
        await tokenFor({ wallet: 'walletA', card: 'visa', entityId: 'f'.repeat(32) }),
        /entityId names no channel/,
      );
      expectTokenRefused(
        await tokenFor({ wallet: 'walletA', card: 'visa', checkoutId: `${'0'.repeat(32)}.local01` }),
        /checkoutId names no open checkout/,
      );
    });

    it('refuses a LIVE channel: the simulated wallets serve test channels only', async () => {
      const live = await gw.addMerchant({ channels: 1, mode: 'LIVE' });
      expectTokenRefused(
        await tokenFor({ wallet: 'walletA', card: 'visa', entityId: live.entityId }),
        /test channels only/,
      );
    });

    const createCheckout = async (who: TestMerchant = m) => {
      const res = await gw.post(
        '/v1/checkouts',
        { entityId: who.entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB' },
        { token: who.token },
      );
      expect(res.status, res.text).toBe(200);
      return res.body.id as string;
    };

    it('refuses an expired checkout (30 minutes)', async () => {
      const id = await createCheckout();
      clock.advance(30 * MINUTE);
      expectTokenRefused(
        await tokenFor({ wallet: 'walletA', card: 'visa', checkoutId: id }),
        /checkoutId names no open checkout/,
      );
    });

    it("issues for a checkout's channel: the submission pays with it, and the status shows it", async () => {
      const id = await createCheckout();
      const res = await tokenFor({ wallet: 'walletA', card: 'visa', checkoutId: id });
      expect(res.status, res.text).toBe(200);
      const token: string = res.body.paymentToken;
      secrets.add(token);
      // The widget's submission: no credentials.
      const paid = await gw.post(`/v1/checkouts/${id}/payment`, {
        paymentBrand: 'WALLETA',
        'walletA.paymentToken': token,
      });
      expect(paid.status, paid.text).toBe(200);
      expect(paid.body.result.code).toBe('000.100.110');
      expect(paid.body.card).toMatchObject({ bin: '420000', last4Digits: '0000' });
      expect(paid.text).not.toContain(token);
      const status = await gw.get(
        `/v1/checkouts/${id}/payment`,
        { entityId: m.entityId },
        { token: m.token },
      );
      expect(status.status).toBe(200);
      expect(status.body.result.code).toBe('000.100.110');
      expect(status.body.id).toBe(paid.body.id);
      expect(status.body.paymentBrand).toBe('WALLETA');
      expect(status.body.card).toMatchObject({ last4Digits: '0000' });
      expect(status.text).not.toContain(token);
    });

    it("refuses a checkout's token on another merchant's checkout", async () => {
      const mine = await createCheckout();
      const theirs = await createCheckout(stranger);
      const token = (await tokenFor({ wallet: 'walletA', card: 'visa', checkoutId: mine })).body.paymentToken;
      expectRefused(
        await gw.post(`/v1/checkouts/${theirs}/payment`, {
          paymentBrand: 'WALLETA',
          'walletA.paymentToken': token,
        }),
        'walletA',
        token,
        'was issued for another merchant (entityId)',
      );
      expect(await stored(stranger)).toBe(0);
    });
  });

  // Last: every payment above has been written; the WAL and, after close, the database are searched.
  it('never writes a token, a wallet card number or a cryptogram to the data files', async () => {
    expect(secrets.size).toBeGreaterThan(10);
    const all = [...secrets, '4200000000000000', '5454545454545454', '377777777777770', CRYPTOGRAM];
    const check = async () => {
      const files = await gw.dataFiles();
      expect(files.some((f) => f.path.endsWith('gateway.db'))).toBe(true);
      for (const f of files) {
        for (const secret of all) {
          expect(f.bytes.includes(Buffer.from(secret)), `${secret.slice(0, 24)}… in ${f.path}`).toBe(false);
        }
        // The name may be stored (a refusal's parameterErrors), never a value under it.
        for (const key of ['"paymentToken":', 'paymentToken=']) {
          expect(f.bytes.includes(Buffer.from(key)), `${key} in ${f.path}`).toBe(false);
        }
      }
    };
    await check();
    await gw.close();
    await check();
  });
});

describe('the widget script and its SRI hash (the real build in dist/widget)', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  let script: Response;
  let bytes: Buffer;

  beforeAll(async () => {
    gw = await testGateway({ pending: { autoStart: false }, notifier: { autoStart: false } });
    m = await gw.addMerchant({ channels: 1 });
    script = await gw.app.request('/v1/paymentWidgets.js?checkoutId=ABC.local01');
    bytes = Buffer.from(await script.arrayBuffer());
  });
  afterAll(() => gw?.cleanup());

  /** sha384 of the served bytes, computed here and not read from the build's manifest. */
  const sri = () => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

  it('serves the script (build it with `npx tsx widget/build/ensure.ts`)', () => {
    expect(script.status, 'dist/widget is built').toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(bytes.length).toBeGreaterThan(1000);
  });

  it('answers sha384 of the served bytes at /v1/fastcheckout/integrity', async () => {
    const res = await gw.get('/v1/fastcheckout/integrity');
    expect(res.status).toBe(200);
    expect(res.body.result.code).toBe('000.000.100');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.body.integrity).toMatch(/^sha384-[A-Za-z0-9+/]{64}$/);
    expect(res.body.integrity).toBe(sri());
  });

  it('answers the same hash for POST /v1/checkouts with integrity=true, and none without', async () => {
    const create = (extra: Record<string, string>) =>
      gw.post(
        '/v1/checkouts',
        { entityId: m.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB', ...extra },
        { token: m.token },
      );
    const asked = await create({ integrity: 'true' });
    expect(asked.status).toBe(200);
    expect(asked.body.integrity).toBe(sri());
    expect((await create({})).body.integrity).toBeUndefined();
  });

  it('serves the same bytes again, with or without a checkoutId (one file, one hash per build)', async () => {
    for (const path of ['/v1/paymentWidgets.js?checkoutId=ABC.local01', '/v1/paymentWidgets.js']) {
      const again = await gw.app.request(path);
      expect(again.status).toBe(200);
      expect(Buffer.from(await again.arrayBuffer()).equals(bytes), path).toBe(true);
    }
  });

  it('lets any origin load it, with an ETag that If-None-Match answers with 304 and no body', async () => {
    expect(script.headers.get('access-control-allow-origin')).toBe('*');
    expect(script.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const etag = script.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    const revalidated = await gw.app.request('/v1/paymentWidgets.js?checkoutId=ABC.local01', {
      headers: { 'If-None-Match': etag! },
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('etag')).toBe(etag);
    expect((await revalidated.arrayBuffer()).byteLength).toBe(0);
    const other = await gw.app.request('/v1/paymentWidgets.js', { headers: { 'If-None-Match': '"stale"' } });
    expect(other.status).toBe(200);
  });

  it('is revalidated on every use: its URL stays while its hash changes per build', () => {
    // A page's integrity comes from the current build; a copy kept by max-age after a deploy
    // would fail that check and the widget would not load. So: no freshness without a check.
    const cacheControl = script.headers.get('cache-control') ?? '';
    expect(cacheControl).toMatch(/\bno-cache\b|\bmax-age=0\b/);
    expect(cacheControl).not.toMatch(/immutable|max-age=[1-9]/);
  });

  it('pins everything that runs on the page: every part the script names is served, immutable, with the sha384 the script carries', async () => {
    /** `parts/<name>-<hash>.js` and the sha384 written after it, as the script's part table has them. */
    const parts = [
      ...bytes.toString('utf8').matchAll(/(parts\/\w+-[\w-]{10}\.js)\W{1,4}(sha384-[A-Za-z0-9+/]{64})/g),
    ];
    expect(parts.length).toBeGreaterThanOrEqual(8);
    for (const [, file, integrity] of parts) {
      const res = await gw.app.request(`/v1/widget/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('cache-control'), file).toContain('immutable');
      expect(res.headers.get('access-control-allow-origin'), file).toBe('*');
      const body = Buffer.from(await res.arrayBuffer());
      expect(`sha384-${createHash('sha384').update(body).digest('base64')}`, file).toBe(integrity);
    }
  });
});
