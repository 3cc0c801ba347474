/**
 * The noisy neighbour (issue 30, hole 2) through the real app: one merchant sending the largest
 * bodies the limits allow, all at once, and another merchant's payment in the same moment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encode, fullPayment } from '../../../../bench/largest-request';
import { VISA_CARD } from '../../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../../../test-kit/gateway';
import { DEFAULT_WORK_BUDGET } from '.';

let gw: TestGateway;
let noisy: TestMerchant;
let quiet: TestMerchant;
beforeAll(async () => {
  gw = await testGateway();
  noisy = await gw.addMerchant({ channels: 1, throttlePerMinute: 1_000_000 });
  quiet = await gw.addMerchant({ channels: 1 });
});
afterAll(() => gw.cleanup());

/**
 * About 485 KiB, as bench/noisy-neighbour's bodies, but cheap to refuse once taken (one custom
 * parameter far past its 2,048 characters): what the budget charges is bytes, and the test then
 * waits for the budget, not for the parses.
 */
const noisyBody = (entityId: string): string =>
  `entityId=${entityId}&amount=1.00&currency=EUR&paymentType=DB&customParameters[SHOPPER_note]=`.padEnd(
    485 * 1024,
    'x',
  );

describe('the work budget', () => {
  it('makes a merchant past its budget wait, then answers 429; another merchant is answered at once', async () => {
    const body = noisyBody(noisy.entityId);
    const bodies = Math.ceil(
      (DEFAULT_WORK_BUDGET.burstBytes +
        (DEFAULT_WORK_BUDGET.maxWaitMs / 1000 + 2) * DEFAULT_WORK_BUDGET.bytesPerSecond) /
        body.length,
    );
    let settled = 0;
    const sent = Array.from({ length: bodies }, () =>
      gw.post('/v1/payments', body, { token: noisy.token }).finally(() => settled++),
    );
    const paid = await gw.post(
      '/v1/payments',
      { entityId: quiet.entityId, amount: '1.00', currency: 'EUR', paymentType: 'DB', ...VISA_CARD },
      { token: quiet.token },
    );
    expect(paid.status).toBe(200);
    // answered while the noisy merchant's bodies still wait their turn (seconds of them)
    const waitingWhenQuietAnswered = bodies - settled;
    const answers = await Promise.all(sent);
    const statuses = answers.map((r) => r.status);
    expect({
      waitingWhenQuietAnswered: waitingWhenQuietAnswered > bodies / 2,
      refused: statuses.includes(429),
    }).toEqual({
      waitingWhenQuietAnswered: true,
      refused: true,
    });
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.body.result.code).toBe('800.120.100');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // the bodies taken were parsed as ever: 400 naming the custom parameter
    const parsed = answers.filter((r) => r.status !== 429);
    expect(parsed.length).toBeGreaterThan(0);
    for (const r of parsed)
      expect(r.body.result.parameterErrors[0].name).toBe('customParameters[SHOPPER_note]');
  }, 60_000);

  it('refuses a sender already past its budget before reading its next body', async () => {
    const crowd = await gw.addMerchant({ channels: 1, throttlePerMinute: 1_000_000 });
    const body = noisyBody(crowd.entityId);
    // enough bodies at once that the last ones are past the longest wait
    const bodies = Math.ceil(
      (DEFAULT_WORK_BUDGET.burstBytes +
        (DEFAULT_WORK_BUDGET.maxWaitMs / 1000 + 2) * DEFAULT_WORK_BUDGET.bytesPerSecond) /
        body.length,
    );
    const sent = Array.from({ length: bodies }, () => gw.post('/v1/payments', body, { token: crowd.token }));
    const first = await Promise.race(sent);
    expect(first.status).toBe(429);
    // a body that never ends: read, it would be waited for until the test's end
    const endless = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => undefined) });
    const answer = gw.app.request('http://localhost/v1/payments', {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${crowd.token}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        'Content-Length': String(body.length),
      },
      body: endless,
      duplex: 'half',
    } as RequestInit);
    const waited = new Promise<'still reading'>((resolve) =>
      setTimeout(() => resolve('still reading'), 3_000),
    );
    const res = await Promise.race([answer, waited]);
    expect(res === 'still reading' ? res : res.status).toBe(429);
    if (res !== 'still reading') {
      expect((await res.json()).result.code).toBe('800.120.100');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    await Promise.all(sent);
  }, 60_000);

  it('still takes the spec’s largest valid request (every group, 1,000 cart items), one after another', async () => {
    const pairs = fullPayment(1000).filter(([name]) => !name.startsWith('authentication.'));
    const body = encode(
      pairs.map(([name, value]) =>
        name === 'entityId'
          ? [name, quiet.entityId]
          : name === 'testMode'
            ? [name, 'INTERNAL']
            : [name, value],
      ),
    );
    expect(body.length).toBeGreaterThan(380 * 1024);
    for (let i = 0; i < 3; i++) {
      const res = await gw.post('/v1/payments', body, { token: quiet.token });
      expect({ status: res.status, code: res.body.result.code }).toMatchObject({ status: 200 });
      expect(res.body.result.code).toMatch(/^000\./);
    }
  }, 60_000);
});
