/**
 * The statement descriptor (spec: "descriptor … merchant.name overrides it"): a payment sent with
 * both answers merchant.name as its descriptor, reads it back so, and the reconciliation file's
 * Descriptor column carries it; without merchant.name the descriptor sent, else the default.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECONCILIATION_COLUMNS } from '../../shared/settlement';
import { fakeClock } from '../test-kit/clock';
import { VISA_CARD_WITHOUT_CVV } from '../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { parseCsv } from '../test-kit/settlement/spec-checks';
import { settleDay } from './settlement-run';

const DAY = '2026-05-04';
describe('merchant.name overrides descriptor', () => {
  const clock = fakeClock(`${DAY}T09:00:00.000Z`);
  let gw: TestGateway;
  let m: TestMerchant;
  const answers: Record<string, { id: string; descriptor: string }> = {};

  const pay = async (label: string, params: Record<string, string>) => {
    const res = await gw.post(
      '/v1/payments',
      {
        entityId: m.entityId,
        amount: '10.00',
        currency: 'EUR',
        paymentType: 'DB',
        ...VISA_CARD_WITHOUT_CVV,
        ...params,
      },
      { token: m.token },
    );
    expect(res.status, res.text).toBe(200);
    answers[label] = { id: res.body.id, descriptor: res.body.descriptor };
    clock.advance(60_000);
  };

  beforeAll(async () => {
    gw = await testGateway({ clock, settlement: { autoStart: false } });
    m = await gw.addMerchant({ channels: 1 });
    await pay('both', { descriptor: 'Order 4711 Shop', 'merchant.name': 'Shop Berlin' });
    await pay('descriptor', { descriptor: 'Order 4712 Shop' });
    await pay('neither', {});
    clock.advance(Date.parse('2026-05-05T03:00:00.000Z') - clock.now().getTime());
  });
  afterAll(() => gw?.cleanup());

  it('answers and reads back merchant.name as the descriptor', async () => {
    expect(answers.both!.descriptor).toBe('Shop Berlin');
    expect(answers.descriptor!.descriptor).toBe('Order 4712 Shop');
    expect(answers.neither!.descriptor).toMatch(/^\d{4}\.\d{4}\.\d{4} /);
    const read = await gw.get(
      `/v1/payments/${answers.both!.id}`,
      { entityId: m.entityId },
      { token: m.token },
    );
    expect(read.body.descriptor).toBe('Shop Berlin');
  });

  it('writes it in the reconciliation file', async () => {
    const [account] = await settleDay({ store: gw.store, clock, dataDir: gw.dataDir }, DAY, {
      merchantId: m.merchantId,
    });
    const [header, ...rows] = parseCsv(await readFile(account!.file!, 'utf8'));
    expect(header).toEqual([...RECONCILIATION_COLUMNS]);
    const column = header!.indexOf('Descriptor');
    const unique = header!.indexOf('UniqueID');
    const byId = new Map(rows.map((row) => [row[unique], row[column]]));
    expect(byId.get(answers.both!.id)).toBe('Shop Berlin');
    expect(byId.get(answers.descriptor!.id)).toBe('Order 4712 Shop');
  });
});
