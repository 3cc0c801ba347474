/**
 * The CLI's webhook and chargeback commands through `run` (argv in, exit code and output out), on
 * a real SQLite store, with a real receiver on loopback for the test notification.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/engine/core/ids';
import type { Payment } from '../../shared/engine/core/model';
import { recordPayment } from '../../shared/engine/steps/record';
import { asMinor } from '../../shared/money';
import { openVault } from '../security/vault';
import { type GatewayStore, openStore } from '../storage';
import { TEST_DATA_KEY } from '../test-kit/gateway';
import { type Receiver, startReceiver } from '../test-kit/receiver';
import { testVault } from '../test-kit/vault';
import { run } from './run';

let root = '';
let store: GatewayStore;
let receiver: Receiver;
const merchantId = newId();
const entityId = newId();

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(argv, {
    // the command closes the store it is given: hand it a fresh one on the same data
    openStore: () => openStore({ dataDir: join(root, 'data'), vault: testVault(), lockFolder: false }),
    openVault: () => openVault({ dataDir: join(root, 'data'), env: { GATEWAY_DATA_KEY: TEST_DATA_KEY } }),
    output: { out: (l) => out.push(l), err: (l) => err.push(l) },
    dataDir: join(root, 'data'),
  });
  return { code, out, err };
}

function captured(id: string, amount = 5000, createdAt = new Date()): Payment {
  return {
    id,
    merchantId,
    channelId: entityId,
    paymentType: 'DB',
    paymentBrand: 'VISA',
    amount: asMinor(amount),
    currency: 'EUR',
    resultCode: '000.100.110',
    resultDescription: 'Request successfully processed in Merchant in Integrator Test Mode',
    shortId: '1234.5678.9012',
    ndc: `${entityId}_${newId()}`,
    testMode: 'INTERNAL',
    details: {},
    createdAt,
  };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'gateway-cli-webhooks-'));
  store = await openStore({ dataDir: join(root, 'data'), vault: testVault() });
  receiver = await startReceiver();
  await store.insertMerchant({ id: merchantId, name: 'Shop', createdAt: new Date() });
  await store.insertChannel({
    id: entityId,
    merchantId,
    name: 'Shop_Channel',
    mode: 'TEST',
    settings: {},
    createdAt: new Date(),
  });
});

afterAll(async () => {
  await store?.close();
  await receiver?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('gateway webhook', () => {
  it('adds (after a test notification), lists and removes webhooks', async () => {
    const added = await cli(
      'webhook',
      'add',
      '--merchant',
      merchantId,
      '--url',
      `${receiver.url}/cli`,
      '--types',
      'PAYMENT',
    );
    expect(added.code).toBe(0);
    const [id] = added.out;
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(added.err.join('\n')).toMatch(/key \(shown once.*\): [0-9A-F]{64}/);
    expect(receiver.received.at(-1)?.url).toBe('/cli');

    const listed = await cli('webhook', 'list', '--merchant', merchantId, '--json');
    expect(JSON.parse(listed.out.join('\n'))).toEqual([
      expect.objectContaining({ id, url: `${receiver.url}/cli`, types: ['PAYMENT'], encrypted: true }),
    ]);
    expect(listed.out.join('\n')).not.toMatch(/[0-9A-F]{64}/);

    expect((await cli('webhook', 'remove', '--merchant', merchantId, id!)).code).toBe(0);
    const again = await cli('webhook', 'remove', '--merchant', merchantId, id!);
    expect(again.code).toBe(1);
    expect(again.err[0]).toContain('unknown webhook');
  });

  it('refuses what the admin API refuses, with the reason', async () => {
    const bad = await cli('webhook', 'add', '--merchant', merchantId, '--url', 'ftp://x', '--key', 'zz');
    // invalid input: a usage error naming the flags, as every other invalid input
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toContain('--url must be http or https');
    expect(bad.err[0]).toContain('--key must be 64 hexadecimal characters');
    receiver.answerWith(500);
    const refused = await cli('webhook', 'add', '--merchant', merchantId, '--url', receiver.url);
    receiver.answerWith(200);
    expect(refused.code).toBe(1);
    expect(refused.err[0]).toContain('did not accept the test notification');
    expect((await cli('webhook', 'deliveries', '--merchant', merchantId, '--status', 'lost')).code).toBe(2);
    expect((await cli('webhook', 'redeliver', '--merchant', merchantId, 'x')).code).toBe(2);
  });

  it('shows the delivery log and redelivers a dead-lettered delivery', async () => {
    const added = await cli('webhook', 'add', '--merchant', merchantId, '--url', receiver.url, '--plain');
    const webhookId = added.out[0]!;
    await recordPayment({ store }, captured(newId()));
    const [delivery] = await store.listDeliveries(merchantId, { webhookId, limit: 1 });
    expect(delivery?.status).toBe('pending');
    // dead-letter it as the dispatcher would after 30 days
    const [claimed] = await store.claimDeliveries(
      new Date(Date.now() + 1000),
      new Date(Date.now() + 60_000),
      10,
    );
    await store.recordAttempt(claimed!, {
      delivered: false,
      at: new Date(),
      error: 'answered HTTP 500',
      status: 500,
    });

    const log = await cli('webhook', 'deliveries', '--merchant', merchantId, '--webhook', webhookId);
    expect(log.code).toBe(0);
    expect(log.out[0]).toMatch(/^ID\s+STATUS\s+ATTEMPTS\s+TYPE\s+PAYMENT/);
    expect(log.out[1]).toMatch(new RegExp(`^${delivery!.seq}\\s+dead\\s+1\\s+PAYMENT`));
    expect(log.out[1]).toContain('answered HTTP 500');

    expect((await cli('webhook', 'redeliver', '--merchant', merchantId, String(delivery!.seq))).code).toBe(0);
    expect((await store.getDelivery(merchantId, delivery!.seq))?.status).toBe('pending');
    const twice = await cli('webhook', 'redeliver', '--merchant', merchantId, String(delivery!.seq));
    expect(twice.code).toBe(1);
    expect(twice.err[0]).toContain('is pending');
  });
});

describe('gateway chargeback', () => {
  it('books a CB against a debit and reverses it', async () => {
    const debit = newId();
    await recordPayment({ store }, captured(debit, 5000));
    const cb = await cli(
      'chargeback',
      'book',
      '--merchant',
      merchantId,
      debit,
      '--amount',
      '20.00',
      '--code',
      '000.100.221',
      '--json',
    );
    expect(cb.code).toBe(0);
    const booked = JSON.parse(cb.out.join('\n'));
    expect(booked).toMatchObject({
      paymentType: 'CB',
      amount: '20.00',
      referencedId: debit,
      result: { code: '000.100.221' },
    });

    const tooMuch = await cli('chargeback', 'book', '--merchant', merchantId, debit, '--amount', '30.01');
    expect(tooMuch.code).toBe(1);
    expect(tooMuch.err[0]).toContain('at most 30.00 EUR');

    const cr = await cli('chargeback', 'reverse', '--merchant', merchantId, booked.id);
    expect(cr.code).toBe(0);
    const reversal = await store.getPayment(merchantId, cr.out[0]!);
    expect(reversal).toMatchObject({
      paymentType: 'CR',
      referencedId: debit,
      details: { chargebackId: booked.id },
    });
    expect((await cli('chargeback', 'reverse', '--merchant', merchantId, booked.id)).err[0]).toContain(
      '700.300.300',
    );
    expect((await cli('chargeback', 'book', '--merchant', merchantId, newId())).err[0]).toContain(
      'unknown payment',
    );
  });
});

describe('gateway settlement run', () => {
  it('settles a past day once and writes its reconciliation file', async () => {
    const yesterday = new Date(Date.now() - 24 * 3600_000);
    const day = yesterday.toISOString().slice(0, 10);
    await recordPayment({ store }, captured(newId(), 1234, yesterday));
    const first = await cli('settlement', 'run', '--date', day, '--merchant', merchantId, '--json');
    expect(first.code, first.err.join('\n')).toBe(0);
    const [account] = JSON.parse(first.out.join('\n'));
    expect(account).toMatchObject({ merchantId, entityId, date: day, status: 'settled', settlements: 1 });
    const csv = await readFile(account.file, 'utf8');
    expect(csv.split('\r\n')[0]).toMatch(/^ReconciliationType;PaymentType;Cashflow;/);
    expect(csv).toContain(';12.34;EUR;');
    const again = await cli('settlement', 'run', '--date', day, '--merchant', merchantId, '--json');
    expect(JSON.parse(again.out.join('\n'))[0].status).toBe('already-settled');
    const today = await cli('settlement', 'run', '--date', new Date().toISOString().slice(0, 10));
    expect(today.code).toBe(1);
    expect(today.err[0]).toContain('not over yet');
    expect((await cli('settlement', 'run', '--date', '21.11.2026')).code).toBe(2);
  });
});

describe('gateway channel risk', () => {
  it('sets rules from a file (checked field by field), shows and clears them', async () => {
    const file = join(root, 'rules.json');
    await writeFile(file, JSON.stringify({ blockedBins: ['400000'], amountLimits: { EUR: { max: 10000 } } }));
    expect((await cli('channel', 'risk', entityId, '--rules', file)).code).toBe(0);
    expect((await store.getChannel(entityId))?.settings.risk).toMatchObject({ blockedBins: ['400000'] });
    const shown = await cli('channel', 'risk', entityId);
    expect(JSON.parse(shown.out.join('\n'))).toMatchObject({ blockedBins: ['400000'] });

    await writeFile(file, JSON.stringify({ velocity: [{ per: 'card', windowSeconds: 0, maxCount: 3 }] }));
    const bad = await cli('channel', 'risk', entityId, '--rules', file);
    // faulty rules are invalid input: exit code 2 naming the flag and the field in it
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toContain('--rules velocity[0].windowSeconds');
    expect((await store.getChannel(entityId))?.settings.risk).toMatchObject({ blockedBins: ['400000'] });

    expect((await cli('channel', 'risk', entityId, '--clear')).code).toBe(0);
    expect((await store.getChannel(entityId))?.settings.risk).toBeUndefined();
    expect((await cli('channel', 'risk', entityId, '--clear', '--rules', file)).code).toBe(2);
  });
});
