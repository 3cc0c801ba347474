import { describe, expect, it, vi } from 'vitest';
import { classify, formBody, postCheckout, readSession, resourcePath, resultUrl, submitPath } from './api';

const BASE = 'https://gw.test/v1/';
const asFetch = (f: ReturnType<typeof vi.fn>) => f as unknown as typeof fetch;

describe('checkout API client', () => {
  it('reads the session without credentials and tells unknown ids apart', async () => {
    const ok = vi.fn(
      async (_url: string, _init?: RequestInit) =>
        new Response(
          JSON.stringify({
            id: 'ABC.n1',
            kind: 'registration',
            state: 'open',
            amount: '92.00',
            currency: 'EUR',
            registrations: [{ id: 'r1', paymentBrand: 'VISA' }, { bogus: true }],
          }),
        ),
    );
    const read = await readSession(BASE, 'ABC.n1', asFetch(ok));
    expect(ok.mock.calls[0]![0]).toBe('https://gw.test/v1/checkouts/ABC.n1/session');
    expect((ok.mock.calls[0]![1] as RequestInit).credentials).toBe('omit');
    expect(read).toMatchObject({
      kind: 'ok',
      session: { kind: 'registration', registrations: [{ id: 'r1' }] },
    });
    const after = vi.fn(
      async () =>
        new Response(
          JSON.stringify({
            state: 'open',
            lastResult: { code: '100.396.101', description: 'Cancelled by user' },
          }),
        ),
    );
    expect(await readSession(BASE, 'ABC.n1', asFetch(after))).toMatchObject({
      session: { state: 'open', lastResult: { code: '100.396.101', description: 'Cancelled by user' } },
    });
    const odd = vi.fn(async () => new Response(JSON.stringify({ lastResult: { code: 7 } })));
    expect(((await readSession(BASE, 'X', asFetch(odd))) as { session: object }).session).toMatchObject({
      lastResult: undefined,
    });
    const missing = vi.fn(async () => new Response('{}', { status: 404 }));
    expect(await readSession(BASE, 'X', asFetch(missing))).toEqual({ kind: 'notFound' });
    const down = vi.fn(async () => {
      throw new TypeError('network');
    });
    expect((await readSession(BASE, 'X', asFetch(down))).kind).toBe('error');
  });

  it('posts form-encoded fields to the payment or registration path', async () => {
    const f = vi.fn(
      async () => new Response(JSON.stringify({ result: { code: '000.100.110' } }), { status: 200 }),
    );
    const answer = await postCheckout(
      BASE,
      'ABC.n1',
      'registration',
      [
        ['paymentBrand', 'DIRECTDEBIT_SEPA'],
        ['a b', 'ä&='],
      ],
      asFetch(f),
    );
    const [url, init] = f.mock.calls[0]! as unknown as [string, RequestInit];
    expect(url).toBe('https://gw.test/v1/checkouts/ABC.n1/registration');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('omit');
    expect(init.body).toBe('paymentBrand=DIRECTDEBIT_SEPA&a+b=%C3%A4%26%3D');
    expect(answer).toEqual({ status: 200, body: { result: { code: '000.100.110' } } });
    expect(formBody([['x', '1']])).toBe('x=1');
    expect(submitPath('A/B', 'payment')).toBe('checkouts/A%2FB/payment');
  });

  it('classifies answers by HTTP status', () => {
    expect(classify({ status: 200, body: { result: { code: '000.100.110' } } })).toBe('done');
    expect(classify({ status: 200, body: { redirect: { url: 'https://x.test' } } })).toBe('redirect');
    expect(classify({ status: 400, body: { result: { parameterErrors: [{ name: 'card.holder' }] } } })).toBe(
      'invalid',
    );
    expect(classify({ status: 400, body: { result: { code: '800.100.151' } } })).toBe('declined');
    expect(classify({ status: 404, body: undefined })).toBe('notFound');
    expect(classify({ status: 500, body: undefined })).toBe('error');
  });

  it('builds the result address from the form action, else shopperResultUrl, else the page', () => {
    const page = 'https://shop.test/checkout';
    const u = new URL(resultUrl('/return?order=7', undefined, 'ABC.n1', 'payment', page)!);
    expect(u.href.startsWith('https://shop.test/return?order=7&id=ABC.n1&resourcePath=')).toBe(true);
    expect(u.searchParams.get('resourcePath')).toBe('/v1/checkouts/ABC.n1/payment');
    expect(u.search).toContain('resourcePath=%2Fv1%2Fcheckouts%2FABC.n1%2Fpayment');
    expect(resultUrl(null, 'https://shop.test/r', 'X', 'registration', page)).toBe(
      'https://shop.test/r?id=X&resourcePath=%2Fv1%2Fcheckouts%2FX%2Fregistration',
    );
    expect(resultUrl('', undefined, 'X', 'payment', page)).toMatch(/^https:\/\/shop\.test\/checkout\?id=X/);
    expect(resultUrl('javascript:alert(1)', undefined, 'X', 'payment', page)).toBeUndefined();
    expect(resourcePath('X', 'payment')).toBe('/v1/checkouts/X/payment');
  });
});
