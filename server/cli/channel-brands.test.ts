/**
 * `gateway channel create|set|list` with what a channel accepts: --brands, --currencies (a list,
 * or `all`), the merchant's bank account (--bank-*, --no-bank-account). Checked before the store
 * is opened (usage errors, exit 2), shown in the list (the IBAN masked), sealed at rest, and
 * honoured by the gateway started on the same data.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../storage';
import { IBAN } from '../test-kit/fixtures/bank-accounts';
import { testGateway } from '../test-kit/gateway';
import { testVault } from '../test-kit/vault';
import { run } from './run';

let root = '';
let dataDir = '';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'gateway-cli-brands-'));
  dataDir = join(root, 'data');
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

async function gateway(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  let opened = 0;
  const code = await run(argv, {
    openStore: async () => {
      opened += 1;
      return openStore({ dataDir, vault: testVault() });
    },
    output: { out: (l) => out.push(l), err: (l) => err.push(l) },
  });
  return { code, out, err, opened };
}

describe('gateway channel … --brands --currencies --bank-*', () => {
  it('creates, lists and changes what a channel accepts; the gateway on the same data honours it', async () => {
    const merchantId = (await gateway(['merchant', 'create', '--name', 'Brands Shop'])).out[0]!;
    const open = await gateway(['channel', 'create', '--merchant', merchantId, '--name', 'Everything']);
    expect(open.code).toBe(0);
    const created = await gateway([
      'channel',
      'create',
      '--merchant',
      merchantId,
      '--name',
      'Riyadh',
      '--brands',
      'VISA MASTER MADA',
      '--currencies',
      'EUR SAR',
      '--json',
    ]);
    expect(created.code, created.err.join('\n')).toBe(0);
    const channel = JSON.parse(created.out.join('\n'));
    expect(channel).toMatchObject({
      brands: ['VISA', 'MASTER', 'MADA'],
      currencies: ['EUR', 'SAR'],
      bankAccount: null,
    });
    const entityId: string = channel.entityId;

    const list = await gateway(['channel', 'list', '--merchant', merchantId]);
    expect(list.code).toBe(0);
    expect(list.out[0]).toMatch(
      /^ENTITY ID\s+MODE\s+3DS\s+THROTTLE\s+CONNECTOR\s+BRANDS\s+CURRENCIES\s+BANK ACCOUNT\s+NAME$/,
    );
    expect(list.out.find((l) => l.startsWith(open.out[0]!))).toMatch(/\s+all\s+all\s+-\s+Everything$/);
    expect(list.out.find((l) => l.startsWith(entityId))).toMatch(
      /\s+VISA MASTER MADA\s+EUR SAR\s+-\s+Riyadh$/,
    );

    const set = await gateway([
      'channel',
      'set',
      entityId,
      '--brands',
      'VISA MADA PREPAYMENT',
      '--bank-holder',
      'Brands Shop LLC',
      '--bank-iban',
      IBAN,
      '--bank-bic',
      'COBADEFFXXX',
      '--bank-country',
      'DE',
      '--json',
    ]);
    expect(set.code, set.err.join('\n')).toBe(0);
    expect(JSON.parse(set.out.join('\n'))).toMatchObject({
      brands: ['VISA', 'MADA', 'PREPAYMENT'],
      currencies: ['EUR', 'SAR'],
      bankAccount: {
        holder: 'Brands Shop LLC',
        iban: 'DE89**************3000',
        bic: 'COBADEFFXXX',
        country: 'DE',
      },
    });
    expect(set.out.join('\n')).not.toContain(IBAN);
    const listed = await gateway(['channel', 'list', '--merchant', merchantId]);
    expect(listed.out.join('\n')).not.toContain(IBAN);
    expect(listed.out.find((l) => l.startsWith(entityId))).toContain(
      'DE89**************3000 (Brands Shop LLC)',
    );

    // sealed in the database, read back in full by the store
    const files = await readdir(dataDir);
    for (const f of files) {
      const bytes = await readFile(join(dataDir, f));
      expect(bytes.includes(Buffer.from(IBAN)), f).toBe(false);
    }
    const store = await openStore({ dataDir, vault: testVault() });
    try {
      expect((await store.getChannel(entityId))?.settings.bankAccount?.iban).toBe(IBAN);
    } finally {
      await store.close();
    }

    const token = (await gateway(['token', 'create', '--merchant', merchantId])).out[0]!;
    const gw = await testGateway({ dataDir });
    try {
      const pay = (params: Record<string, string>) =>
        gw.post(
          '/v1/payments',
          { entityId, amount: '10.00', currency: 'SAR', paymentType: 'DB', ...params },
          { token },
        );
      const card = {
        'card.holder': 'Jane Jones',
        'card.expiryMonth': '05',
        'card.expiryYear': '2034',
      };
      const visa = await pay({
        paymentBrand: 'VISA',
        'card.number': '4200000000000000',
        'card.cvv': '123',
        ...card,
      });
      expect(visa.body.result.code, visa.text).toBe('000.100.110');
      const master = await pay({
        paymentBrand: 'MASTER',
        'card.number': '5454545454545454',
        'card.cvv': '123',
        ...card,
      });
      expect(master.body.result.code, master.text).toBe('600.200.201');
      const prepayment = await pay({ paymentBrand: 'PREPAYMENT' });
      expect(prepayment.status, prepayment.text).toBe(200);
      expect(prepayment.body.merchant.bankAccount.number).toBe(IBAN);
    } finally {
      await gw.close();
    }

    // back to every brand and any currency; the bank account removed
    const reset = await gateway([
      'channel',
      'set',
      entityId,
      '--brands',
      'all',
      '--currencies',
      'all',
      '--no-bank-account',
      '--json',
    ]);
    expect(reset.code, reset.err.join('\n')).toBe(0);
    expect(JSON.parse(reset.out.join('\n'))).toMatchObject({
      brands: null,
      currencies: null,
      bankAccount: null,
    });
  });

  it.each([
    [['--brands', 'VISA NOPE_PAY'], /--brands unknown brand NOPE_PAY/],
    [['--brands', ''], /--brands must name at least one brand/],
    [['--currencies', 'EUR EURO'], /--currencies not an ISO 4217 currency code: EURO/],
    [
      ['--bank-iban', 'DE89370400440532013001'],
      /--bank-holder is required.*--bank-iban is not a valid IBAN.*--bank-bic is required/,
    ],
  ])('refuses %j as a usage error (exit 2) before opening the store', async (flags, message) => {
    const r = await gateway(['channel', 'create', '--merchant', '0'.repeat(32), '--name', 'X', ...flags]);
    expect(r.code).toBe(2);
    expect(r.opened).toBe(0);
    expect(r.err.join('\n')).toMatch(message);
    expect(r.err.join('\n')).not.toContain('DE89370400440532013001');
  });

  it('refuses --no-bank-account with --bank-* options', async () => {
    const r = await gateway([
      'channel',
      'set',
      '0'.repeat(32),
      '--no-bank-account',
      '--bank-bic',
      'COBADEFFXXX',
    ]);
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toMatch(/--no-bank-account cannot be combined/);
  });
});
