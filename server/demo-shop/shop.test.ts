/**
 * The demo shop against a real gateway on a socket: it creates checkouts server-to-server,
 * renders the widget page (with a strict CSP when asked), and shows the outcome from the status.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { createShop, WRONG_INTEGRITY } from './shop';

describe('demo shop', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  let server: ReturnType<typeof serve>;
  let gatewayUrl: string;
  let shop: ReturnType<typeof createShop>;

  beforeAll(async () => {
    gw = await testGateway();
    m = await gw.addMerchant({ channels: 1 });
    server = serve({ fetch: gw.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    gatewayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    shop = createShop({ gatewayUrl, entityId: m.entityId, accessToken: m.token });
  });
  afterAll(async () => {
    server?.close();
    await gw?.cleanup();
  });

  const checkoutIdOf = (page: string): string => {
    const match = /paymentWidgets\.js\?checkoutId=([A-Za-z0-9.%-]+)"/.exec(page);
    if (match === null) throw new Error(`no widget script in ${page}`);
    return decodeURIComponent(match[1]!);
  };

  it('creates a checkout and embeds the widget for it, the form posting back to /result', async () => {
    const res = await shop.request('http://localhost:9999/?brands=VISA%20MASTER&amount=12.50');
    expect(res.status).toBe(200);
    const page = await res.text();
    const id = checkoutIdOf(page);
    expect(id).toMatch(/^[0-9A-F]{32}\.[a-z0-9-]+$/);
    expect(page).toContain(`src="${gatewayUrl}/v1/paymentWidgets.js?checkoutId=`);
    expect(page).toContain(
      '<form action="http://localhost:9999/result" class="paymentWidgets" data-brands="VISA MASTER">',
    );
    expect(page).toContain('12.50 EUR');
    expect(res.headers.get('content-security-policy')).toBeNull();
    const session = await (await fetch(`${gatewayUrl}/v1/checkouts/${id}/session`)).json();
    expect(session).toMatchObject({ amount: '12.50', currency: 'EUR', state: 'open' });
  });

  it("with its own address configured (npm start), the result URL ignores the request's Host", async () => {
    const pinned = createShop({
      gatewayUrl,
      shopUrl: 'http://localhost:9999',
      entityId: m.entityId,
      accessToken: m.token,
    });
    const page = await (
      await pinned.request('http://evil.example/', { headers: { Host: 'evil.example' } })
    ).text();
    expect(page).toContain('<form action="http://localhost:9999/result"');
    expect(page).not.toContain('evil.example');
  });

  it('csp=strict: a nonce on every script and Trusted Types required', async () => {
    const res = await shop.request('http://localhost:9999/?csp=strict');
    const csp = res.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(csp).toContain(`frame-src ${gatewayUrl}`);
    expect(csp).toContain("require-trusted-types-for 'script'");
    const page = await res.text();
    const scripts = page.match(/<script[^>]*>/g) ?? [];
    expect(scripts).toHaveLength(2);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it('shows pending before payment, success after, and refuses foreign resource paths', async () => {
    const id = checkoutIdOf(await (await shop.request('http://localhost:9999/')).text());
    const resourcePath = `/v1/checkouts/${id}/payment`;
    const result = (path: string) =>
      shop.request(`http://localhost:9999/result?id=${id}&resourcePath=${encodeURIComponent(path)}`);

    const before = await result(resourcePath);
    expect(await before.text()).toContain('000.200.000');

    const paid = await fetch(`${gatewayUrl}${resourcePath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'paymentBrand=VISA&card.number=4200000000000000&card.holder=Jane%20Jones&card.expiryMonth=05&card.expiryYear=2034&card.cvv=123',
    });
    expect(paid.status).toBe(200);
    const after = await result(resourcePath);
    expect(after.status).toBe(200);
    const text = await after.text();
    expect(text).toContain('shop-result-success');
    expect(text).toContain('000.100.110');

    expect((await result('/v1/payments/../../admin')).status).toBe(400);
  });

  it('fast checkout: a page without a checkout, the script pinned by its hash; /checkout makes one', async () => {
    const res = await shop.request('http://localhost:9999/fast?brands=WALLETA%20WALLETD_CONTINUE');
    expect(res.status).toBe(200);
    const page = await res.text();
    const { integrity } = (await (await fetch(`${gatewayUrl}/v1/fastcheckout/integrity`)).json()) as {
      integrity: string;
    };
    expect(integrity).toMatch(/^sha384-/);
    expect(page).toContain(
      `<script src="${gatewayUrl}/v1/paymentWidgets.js" integrity="${integrity}" crossorigin="anonymous"></script>`,
    );
    expect(page).toContain('data-brands="WALLETA WALLETD_CONTINUE"');
    expect(page).not.toContain('checkoutId');
    const wrong = await (await shop.request('http://localhost:9999/fast?integrity=wrong')).text();
    expect(wrong).toContain(`integrity="${WRONG_INTEGRITY}"`);
    expect(WRONG_INTEGRITY).not.toBe(integrity);

    const options = await (await shop.request('http://localhost:9999/fast-options.js')).text();
    expect(options).toContain("fetch('/checkout?brand=' + encodeURIComponent(data.brand))");
    const rejecting = await (
      await shop.request('http://localhost:9999/fast-options.js?createCheckout=reject')
    ).text();
    expect(rejecting).toContain('Promise.reject');
    expect(await (await shop.request('http://localhost:9999/fast?createCheckout=reject')).text()).toContain(
      'src="/fast-options.js?createCheckout=reject"',
    );

    const created = await shop.request('http://localhost:9999/checkout?brand=WALLETA');
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    const session = await (await fetch(`${gatewayUrl}/v1/checkouts/${id}/session`)).json();
    expect(session).toMatchObject({ amount: '92.00', currency: 'EUR', state: 'open' });
  });

  it('after a decline the checkout stays open, and the shop shows the declined attempt', async () => {
    const id = checkoutIdOf(await (await shop.request('http://localhost:9999/')).text());
    const resourcePath = `/v1/checkouts/${id}/payment`;
    const declined = await fetch(`${gatewayUrl}${resourcePath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'paymentBrand=VISA&card.number=4444444444444444&card.expiryMonth=05&card.expiryYear=2034',
    });
    const answer = await declined.json();
    expect(answer.result.parameterErrors).toBeUndefined();
    expect(declined.status).toBe(400);
    expect(answer.result.code).toBe('100.100.101');
    // A decline leaves the checkout open; its status is the latest attempt, which the shop shows.
    const res = await shop.request(
      `http://localhost:9999/result?resourcePath=${encodeURIComponent(resourcePath)}`,
    );
    const text = await res.text();
    expect(text).toContain('100.100.101');
    expect(text).not.toContain('000.200.000');
  });
});
