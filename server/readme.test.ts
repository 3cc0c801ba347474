/**
 * The guides' curl blocks (docs/getting-started.md's quick start, docs/api.md, docs/widget.md,
 * docs/webhooks.md), run as printed against a real gateway process: only the base URL
 * (`http://127.0.0.1:8080`) and the data folder (`./data/`) are rewritten to this test's. Each
 * example must answer exactly the outcomes its comments promise, field by field where they name
 * one (scripts/docs/docs.test.ts runs every block of every guide, and checks the codes alone).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './test-kit/postgres';
import { REPO_ROOT, type SpawnedGateway, spawnGateway } from './test-kit/process';

const run = promisify(execFile);

/** The guide each block is in. */
const GUIDE_OF: Readonly<Record<string, string>> = {
  'Try it:': 'docs/getting-started.md',
  '## 3-D Secure and redirect methods': 'docs/api.md',
  '## Checkouts': 'docs/api.md',
  '## Query': 'docs/api.md',
  '## Wallets, fast checkout and Subresource Integrity': 'docs/widget.md',
  '## Webhooks and chargebacks': 'docs/webhooks.md',
};

/** The first ```sh block after `marker` in its guide. */
async function shBlockAfter(marker: string): Promise<string> {
  const guide = GUIDE_OF[marker]!;
  const text = await readFile(join(REPO_ROOT, guide), 'utf8');
  const from = text.indexOf(marker);
  const match = /```sh\n([\s\S]*?)```/.exec(text.slice(from));
  if (from === -1 || match === null) throw new Error(`${guide}: no sh block after "${marker}"`);
  return match[1]!;
}

/**
 * Runs a block that continues the quick start (its ENTITY and TOKEN) against the gateway, and
 * returns its output lines; the curl wrapper ends each answer with a newline.
 */
async function runContinuation(block: string, gateway: SpawnedGateway, dataDir: string): Promise<string[]> {
  const demo = `${dataDir}/demo-merchant.json`;
  const script = [
    'set -eu',
    'curl() { command curl "$@"; echo; }',
    `ENTITY=$(node -p "require('${demo}').entityId")`,
    `TOKEN=$(node -p "require('${demo}').accessToken")`,
    // each guide's block reads the credentials itself (docs/README.md, "The examples")
    block.replaceAll('http://127.0.0.1:8080', gateway.baseUrl).replaceAll('./data/', `${dataDir}/`),
  ].join('\n');
  const { stdout } = await run('bash', ['-c', script], { cwd: REPO_ROOT, timeout: 60_000 });
  return stdout.split('\n').filter((line) => line.trim() !== '');
}

const jsonLines = <T>(lines: readonly string[]): T[] =>
  lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as T);

describe('the guides’ curl examples', () => {
  let dataDir: string;
  let gateway: SpawnedGateway;
  let shopPort: number;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gateway-readme-'));
    shopPort = await freePort();
    // as the webhook section says to start it: the admin API on, the demo shop's receiver there
    gateway = await spawnGateway({
      dataDir,
      env: { GATEWAY_ADMIN_TOKEN: 'change-me-to-a-long-random-secret', DEMO_SHOP_PORT: String(shopPort) },
      readyTimeoutMs: 120_000,
    });
  }, 150_000);
  afterAll(async () => {
    await gateway?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('every curl example answers what its comment says', async () => {
    const block = (await shBlockAfter('Try it:'))
      .replaceAll('http://127.0.0.1:8080', gateway.baseUrl)
      .replaceAll('./data/', `${dataDir}/`);
    // One line per response, so each example's answer can be told apart.
    const script = `set -eu\ncurl() { command curl "$@"; echo; }\n${block}`;
    const { stdout } = await run('bash', ['-c', script], { cwd: REPO_ROOT, timeout: 60_000 });
    const answers = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { result: { code: string; parameterErrors?: { name: string }[] } });
    const codes = answers.map((a) => a.result.code);
    expect(codes).toEqual([
      '000.100.110', // a debit
      '000.100.110', // the second partial capture
      '000.100.110', // the refund
      '800.100.151', // the declined card
      '200.300.404', // 12.5
      '200.300.404', // no paymentType
      '200.300.404', // card.holdr
      '000.100.110', // the payment with the stored registration
      '000.100.110', // the status of the PA
    ]);
    expect(answers[4]!.result.parameterErrors?.map((e) => e.name)).toEqual(['amount']);
    expect(answers[5]!.result.parameterErrors?.map((e) => e.name)).toEqual(['paymentType']);
    expect(answers[6]!.result.parameterErrors?.map((e) => e.name)).toEqual(['card.holdr']);
  });

  it('the 3-D Secure and redirect-method examples answer what their comments say', async () => {
    const lines = await runContinuation(
      await shBlockAfter('## 3-D Secure and redirect methods'),
      gateway,
      dataDir,
    );
    const answers = jsonLines<{
      id: string;
      result: { code: string };
      threeDSecure?: Record<string, string>;
      redirect?: { url: string; parameters: { name: string }[] };
    }>(lines);
    expect(answers.map((a) => a.result.code)).toEqual([
      '000.100.110', // frictionless
      '000.200.000', // the challenge
      '000.100.110', // its final status
      '000.200.000', // the redirect method
      '800.100.170', // declined at the provider
    ]);
    expect(answers[0]!.threeDSecure).toMatchObject({ eci: '05', authenticationStatus: 'Y' });
    expect(answers[0]!.threeDSecure?.verificationId).toHaveLength(28);
    expect(answers[1]!.redirect?.parameters.map((p) => p.name)).toEqual(['creq', 'threeDSSessionData']);
    expect(answers[3]!.redirect?.parameters.map((p) => p.name)).toEqual(['session']);
    // The shopper's way back after each answer.
    const returns = lines.filter((line) => line.startsWith('https://shop.example/return'));
    expect(returns).toEqual([
      `https://shop.example/return?id=${answers[1]!.id}&resourcePath=%2Fv1%2Fpayments%2F${answers[1]!.id}`,
      `https://shop.example/return?id=${answers[3]!.id}&resourcePath=%2Fv1%2Fpayments%2F${answers[3]!.id}`,
    ]);
  });

  it('the wallet examples answer what their comments say', async () => {
    const lines = await runContinuation(
      await shBlockAfter('## Wallets, fast checkout and Subresource Integrity'),
      gateway,
      dataDir,
    );
    const answers = jsonLines<{
      result?: { code: string; parameterErrors?: { name: string }[] };
      walletA?: Record<string, string>;
      integrity?: string;
    }>(lines);
    expect(answers.map((a) => a.result?.code)).toEqual([
      '000.100.110', // the token
      '200.300.404', // another wallet's
      '000.100.110', // the decrypted-card variant
      '000.000.100', // the integrity (a successful request)
    ]);
    expect(answers[0]!.walletA).toEqual({ cardNetwork: 'VISA', cardType: 'CREDIT' });
    expect(answers[1]!.result?.parameterErrors?.map((e) => e.name)).toEqual(['walletB.paymentToken']);
    expect(answers[3]!.integrity).toMatch(/^sha384-[A-Za-z0-9+/]{64}$/);
  });

  it('the checkout examples answer what their comments say', async () => {
    const answers = jsonLines<{ id?: string; kind?: string; result: { code: string } }>(
      await runContinuation(await shBlockAfter('## Checkouts'), gateway, dataDir),
    );
    expect(answers.map((a) => a.result.code)).toEqual([
      '000.200.000', // the status before payment
      '000.000.100', // the session
      '000.100.110', // the widget's submission
      '000.100.110', // the status after payment
    ]);
    expect(answers[1]!.kind).toBe('payment');
    expect(answers[3]!.id).toBe(answers[2]!.id);
  });

  it('the query examples answer what their comments say', async () => {
    const answers = jsonLines<{
      id?: string;
      paymentType?: string;
      payments?: { id: string; paymentType: string; paymentBrand: string }[];
      result: { code: string; parameterErrors?: { name: string }[] };
    }>(await runContinuation(await shBlockAfter('## Query'), gateway, dataDir));
    expect(answers.map((a) => a.result.code)).toEqual([
      '000.100.110', // the capture
      '000.100.110', // the PA through /v1/query/{id}
      '000.000.100', // by merchantTransactionId
      '000.000.100', // with its linked transactions
      '000.000.100', // this year's captures and refunds
      '200.300.404', // both at once
    ]);
    const [capture, pa, byId, linked, year, both] = answers;
    expect(pa!.paymentType).toBe('PA');
    expect(byId!.payments?.map((p) => p.id)).toEqual([pa!.id]);
    expect(linked!.payments?.map((p) => p.id)).toEqual([pa!.id, capture!.id]);
    expect(year!.payments?.map((p) => p.id)).toContain(capture!.id);
    for (const p of year!.payments ?? []) {
      expect(['CP', 'RF']).toContain(p.paymentType);
      expect(p.paymentBrand).toBe('VISA');
    }
    expect(both!.result.parameterErrors?.map((e) => e.name)).toEqual([
      'merchantTransactionId',
      'date.from',
      'date.to',
    ]);
  });

  it('the webhook and chargeback examples answer what their comments say', async () => {
    const block = (await shBlockAfter('## Webhooks and chargebacks'))
      .replaceAll('http://127.0.0.1:8081', `http://127.0.0.1:${shopPort}`)
      .replaceAll('./data/', `${dataDir}/`);
    const answers = jsonLines<{
      id?: string;
      key?: string;
      paymentType?: string;
      referencedId?: string;
      deliveries?: { status: string; type: string; paymentId: string }[];
      payments?: { id: string; paymentType: string }[];
      result: { code: string };
    }>(await runContinuation(block, gateway, dataDir));
    const [registered, log, reversal, linked] = answers;
    expect(registered!.key).toMatch(/^[0-9A-F]{64}$/);
    expect(log!.deliveries).toEqual([expect.objectContaining({ status: 'delivered', type: 'PAYMENT' })]);
    const db = log!.deliveries![0]!.paymentId;
    expect(reversal).toMatchObject({ paymentType: 'CR', referencedId: db, result: { code: '000.100.110' } });
    expect(linked!.payments?.map((p) => p.paymentType)).toEqual(['DB', 'CB', 'CR']);
    expect(linked!.payments?.[0]?.id).toBe(db);
    // the demo shop's receiver got the test notification and the debit's, encrypted
    const shop = (await (await fetch(`http://127.0.0.1:${shopPort}/webhooks`)).json()) as {
      received: { encrypted: boolean }[];
    };
    expect(shop.received.length).toBeGreaterThanOrEqual(2);
    expect(shop.received.every((r) => r.encrypted)).toBe(true);
  });
});
