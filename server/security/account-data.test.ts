import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { newId, newShortId } from '../../shared/engine/core/ids';
import type { Payment } from '../../shared/engine/core/model';
import { asMinor } from '../../shared/money';
import { accountSealer, isSealed } from '../../shared/sealing/account-data';
import { openStore } from '../storage';
import { SQLITE_FILE } from '../storage/open';
import { IBAN } from '../test-kit/fixtures/bank-accounts';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../test-kit/postgres';
import { tempFolder } from '../test-kit/temp-folders';
import { testVault } from '../test-kit/vault';
import { openVault } from './vault';

const vault = testVault();
const sealer = accountSealer(vault);

describe('accountSealer', () => {
  const doc = {
    bankAccount: { holder: 'Jane Jones', iban: IBAN, number: 'KTO1234567', bic: 'MARKDEF1100' },
    sender: { accountNumber: 'NL91ABNA0417164300', accountNumberType: 'IBAN' },
    recipient: { accountNumber: 'ACC-1' },
    merchant: { bankAccount: { number: 'BE68539007547034' } },
    afterSuccess: { register: { bankAccount: { iban: IBAN } } },
    list: [{ bankAccount: { iban: IBAN } }],
    customer: { givenName: 'Jane', number: 'not an account' },
    iban: 'a top-level iban is no account field of the catalogue',
  };

  it('seals the account numbers at any depth, and nothing else', () => {
    const sealed = sealer.seal(doc);
    expect(isSealed(sealed.bankAccount.iban)).toBe(true);
    expect(isSealed(sealed.bankAccount.number)).toBe(true);
    expect(isSealed(sealed.sender.accountNumber)).toBe(true);
    expect(isSealed(sealed.recipient.accountNumber)).toBe(true);
    expect(isSealed(sealed.merchant.bankAccount.number)).toBe(true);
    expect(isSealed(sealed.afterSuccess.register.bankAccount.iban)).toBe(true);
    expect(isSealed(sealed.list[0]!.bankAccount.iban)).toBe(true);
    expect(sealed.bankAccount.holder).toBe('Jane Jones');
    expect(sealed.bankAccount.bic).toBe('MARKDEF1100');
    expect(sealed.sender.accountNumberType).toBe('IBAN');
    expect(sealed.customer).toBe(doc.customer); // unchanged parts are shared, not copied
    expect(sealed.iban).toBe(doc.iban);
    expect(JSON.stringify(sealed)).not.toContain(IBAN);
    expect(JSON.stringify(sealed)).not.toContain('0417164300');
    expect(doc.bankAccount.iban).toBe(IBAN); // the input is not changed
  });

  it('opens what it sealed; sealing twice and opening plaintext change nothing', () => {
    const sealed = sealer.seal(doc);
    expect(sealer.seal(sealed)).toBe(sealed);
    expect(sealer.open(sealed)).toEqual(doc);
    expect(sealer.open(doc)).toBe(doc);
    const plain = { details: 'none', amount: 5 };
    expect(sealer.seal(plain)).toBe(plain);
  });

  it('refuses a sealed value that was altered', () => {
    const sealed = sealer.seal({ bankAccount: { iban: IBAN } });
    const parts = sealed.bankAccount.iban.split(':');
    const ciphertext = parts[3]!;
    parts[3] = (ciphertext.startsWith('A') ? 'B' : 'A') + ciphertext.slice(1);
    expect(() => sealer.open({ bankAccount: { iban: parts.join(':') } })).toThrow(/authentication/);
  });
});

describe("a channel's connector credentials at rest", () => {
  it('seals the access token to the other gateway, and reads it back', async () => {
    const dataDir = await tempFolder('gateway-connector-secret-');
    const token = 'OGE4Mjk0MTc0YjdlY2IyODAxNGI5Njk5MjIwMDE1Y2N8c3k2S0pzVDg=';
    const store = await openStore({ dataDir, vault });
    try {
      const merchantId = newId();
      await store.insertMerchant({ id: merchantId, name: 'Shop', createdAt: new Date() });
      const channel = {
        id: newId(),
        merchantId,
        name: 'Live',
        mode: 'LIVE' as const,
        settings: {
          connector: { baseUrl: 'https://acquirer.example', entityId: newId(), accessToken: token },
        },
        createdAt: new Date(),
      };
      await store.insertChannel(channel);
      const stored = (await store.getChannel(channel.id))?.settings.connector;
      expect(stored !== undefined && 'accessToken' in stored ? stored.accessToken : undefined).toBe(token);
    } finally {
      await store.close();
    }
    for (const name of await readdir(dataDir)) {
      const bytes = await readFile(join(dataDir, name));
      expect(bytes.includes(Buffer.from(token)), `the connector token in ${name}`).toBe(false);
    }
  });
});

describe('0009_account_data_sealed: rows written before sealing existed', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('seals them on the next start, reads them as before, and leaves no plaintext in the files', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-account-data-'));
    dirs.push(dataDir);
    const first = await openStore({ dataDir, vault });
    const payment: Payment = {
      id: newId(),
      merchantId: newId(),
      channelId: newId(),
      paymentType: 'DB',
      paymentBrand: 'DIRECTDEBIT_SEPA',
      amount: asMinor(500),
      currency: 'EUR',
      resultCode: '000.100.110',
      resultDescription: 'ok',
      shortId: newShortId(),
      ndc: 'x',
      details: { bankAccount: { holder: 'Jane Jones', iban: IBAN } },
      createdAt: new Date(),
    };
    await first.insertPayment(payment);
    await first.close();

    // As an older gateway wrote it: plaintext, and the sealing migration not yet applied.
    const raw = new BetterSqlite3(join(dataDir, SQLITE_FILE));
    raw
      .prepare('UPDATE payments SET details = ? WHERE id = ?')
      .run(JSON.stringify(payment.details), payment.id);
    raw.prepare("DELETE FROM kysely_migration WHERE name = '0009_account_data_sealed'").run();
    expect(raw.prepare('SELECT details FROM payments').get()).toEqual({
      details: JSON.stringify(payment.details),
    });
    raw.close();

    const second = await openStore({ dataDir, vault });
    try {
      expect((await second.getPayment(payment.merchantId, payment.id))?.details).toEqual(payment.details);
    } finally {
      await second.close();
    }
    const check = new BetterSqlite3(join(dataDir, SQLITE_FILE), { readonly: true });
    const { details } = check.prepare('SELECT details FROM payments').get() as { details: string };
    check.close();
    expect(isSealed(JSON.parse(details).bankAccount.iban)).toBe(true);
    for (const name of await readdir(dataDir)) {
      const bytes = await readFile(join(dataDir, name));
      expect(bytes.includes(Buffer.from(IBAN)), `${IBAN} in ${name}`).toBe(false);
    }
  });

  it('refuses to seal them under a key that cannot open what is sealed already', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-account-data-'));
    dirs.push(dataDir);
    const first = await openStore({ dataDir, vault });
    const id = newId();
    await first.insertPayment({
      id,
      merchantId: newId(),
      channelId: newId(),
      paymentType: 'DB',
      paymentBrand: 'VISA',
      amount: asMinor(500),
      currency: 'EUR',
      resultCode: '000.100.110',
      resultDescription: 'ok',
      shortId: newShortId(),
      ndc: 'x',
      card: {
        bin: '420000',
        last4Digits: '0000',
        expiryMonth: '05',
        expiryYear: '2034',
        encryptedNumber: vault.encrypt('4200000000000000'),
      },
      details: { sender: { accountNumber: 'NL91ABNA0417164300' } },
      createdAt: new Date(),
    });
    await first.close();
    const raw = new BetterSqlite3(join(dataDir, SQLITE_FILE));
    raw
      .prepare('UPDATE payments SET details = ? WHERE id = ?')
      .run(JSON.stringify({ sender: { accountNumber: 'NL91ABNA0417164300' } }), id);
    raw.prepare("DELETE FROM kysely_migration WHERE name = '0009_account_data_sealed'").run();
    raw.close();

    const otherKey = openVault({ dataDir, env: { GATEWAY_DATA_KEY: 'ab'.repeat(32) } });
    await expect(openStore({ dataDir, vault: otherKey })).rejects.toThrow(
      /0009_account_data_sealed.*data key/s,
    );
    const check = new BetterSqlite3(join(dataDir, SQLITE_FILE), { readonly: true });
    expect(check.prepare('SELECT details FROM payments').get()).toEqual({
      details: JSON.stringify({ sender: { accountNumber: 'NL91ABNA0417164300' } }),
    });
    check.close();
  });
});

describe.skipIf(postgresUnavailableReason() !== undefined)('0009_account_data_sealed on PostgreSQL', () => {
  let cluster: PostgresCluster | undefined;
  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it('seals every page of rows written before, and reads them as before', async () => {
    cluster = await startPostgres();
    const first = await openStore({ databaseUrl: cluster.url, vault });
    const merchantId = newId();
    const ids: string[] = [];
    for (let i = 0; i < 1_201; i++) {
      const id = newId();
      ids.push(id);
      await first.insertPayment({
        id,
        merchantId,
        channelId: newId(),
        paymentType: 'DB',
        paymentBrand: 'DIRECTDEBIT_SEPA',
        amount: asMinor(500),
        currency: 'EUR',
        resultCode: '000.100.110',
        resultDescription: 'ok',
        shortId: newShortId(),
        ndc: 'x',
        details:
          i % 2 === 0
            ? { bankAccount: { holder: 'Jane Jones', iban: IBAN } }
            : { customer: { ip: '1.2.3.4' } },
        createdAt: new Date(),
      });
    }
    await first.close();

    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      await client.query(`UPDATE payments SET details = $1 WHERE details LIKE '%iban%'`, [
        JSON.stringify({ bankAccount: { holder: 'Jane Jones', iban: IBAN } }),
      ]);
      await client.query(`DELETE FROM kysely_migration WHERE name = '0009_account_data_sealed'`);
      expect(
        (await client.query(`SELECT count(*)::int AS n FROM payments WHERE details LIKE $1`, [`%${IBAN}%`]))
          .rows[0].n,
      ).toBe(601);

      const second = await openStore({ databaseUrl: cluster.url, vault });
      try {
        expect((await second.getPayment(merchantId, ids[1_200]!))?.details).toEqual({
          bankAccount: { holder: 'Jane Jones', iban: IBAN },
        });
      } finally {
        await second.close();
      }
      expect(
        (await client.query(`SELECT count(*)::int AS n FROM payments WHERE details LIKE $1`, [`%${IBAN}%`]))
          .rows[0].n,
      ).toBe(0);
    } finally {
      await client.end();
    }
  }, 120_000);
});
