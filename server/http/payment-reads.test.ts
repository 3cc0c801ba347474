/**
 * The kept answers of final payments (payment-reads.ts) are bounded by count and by the size of
 * their text: a read past either bound reads the payment from the store again.
 */
import type { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AccessToken, Channel, Payment } from '../../shared/engine/core/model';
import { paymentReads } from './payment-reads';

const token = { merchantId: 'm1', channelIds: [] as string[] } as unknown as AccessToken;
const channel = { id: 'c1', merchantId: 'm1', environment: 'test' } as unknown as Channel;
const final = (id: string) =>
  ({ id, merchantId: 'm1', channelId: 'c1', resultCode: '000.100.110' }) as unknown as Payment;

function reads(answerChars: (id: string) => number, max: number, maxChars: number) {
  const loaded: string[] = [];
  const read = paymentReads(
    {
      environment: 'test',
      getPayment: async (_merchantId, id) => {
        loaded.push(id);
        return final(id);
      },
      getChannel: async () => channel,
      render: (p) => ({ status: 200, head: 'x'.repeat(answerChars(p.id)), tail: '}' }),
      answer: () => new Response('fresh'),
      sendRendered: () => new Response('kept'),
    },
    max,
    maxChars,
  );
  return { loaded, read: (id: string) => read({} as Context, token, id), release: read.release };
}

describe('kept payment answers', () => {
  it('keeps answers up to the size bound, oldest out first', async () => {
    // each entry costs 1,000 + 1 + 200 chars: three fit in 4,000, the fourth pushes out the first
    const { loaded, read } = reads(() => 1_000, 100, 4_000);
    for (const id of ['a', 'b', 'c', 'a', 'b', 'c']) await read(id);
    expect(loaded).toEqual(['a', 'b', 'c']);
    await read('d');
    for (const id of ['b', 'c', 'd', 'a']) await read(id);
    expect(loaded).toEqual(['a', 'b', 'c', 'd', 'a']);
  });

  it('keeps no answer larger than the whole bound, and still answers it', async () => {
    const { loaded, read } = reads((id) => (id === 'big' ? 10_000 : 10), 100, 4_000);
    expect(await (await read('big'))!.text()).toBe('fresh');
    expect(await (await read('big'))!.text()).toBe('fresh');
    await read('small');
    expect(await (await read('small'))!.text()).toBe('kept');
    expect(loaded).toEqual(['big', 'big', 'small']);
  });

  it('keeps at most `max` answers', async () => {
    const { loaded, read } = reads(() => 10, 2, 1_000_000);
    for (const id of ['a', 'b', 'c', 'a']) await read(id);
    expect(loaded).toEqual(['a', 'b', 'c', 'a']);
  });
});

describe('kept payment answers once the gateway is idle', () => {
  it('release forgets every kept answer; the next read reads the store and keeps it again', async () => {
    const { loaded, read, release } = reads(() => 10, 100, 1_000_000);
    for (const id of ['a', 'b', 'a', 'b']) await read(id);
    expect(loaded).toEqual(['a', 'b']);
    release();
    expect(await (await read('a'))!.text()).toBe('fresh');
    expect(await (await read('a'))!.text()).toBe('kept');
    expect(loaded).toEqual(['a', 'b', 'a']);
  });
});
