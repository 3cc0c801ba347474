/**
 * Acme Tea's checkout, tested with open-payment-gateway's kit: a throwaway gateway for the worker,
 * the shop's own backend pointed at it, the widget driven on the shop's own page, the gateway's
 * clock moved and its webhooks read back.
 */
import { test as base, expect } from '@playwright/test';
import { cards, paymentWidget, startTestGateway, type TestGateway } from 'open-payment-gateway/testing';
import { type Shop, startShop } from '../shop/server';

const test = base.extend<object, { gateway: TestGateway; shop: Shop }>({
  gateway: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixtures name their dependencies so
    async ({}, use) => {
      const gateway = await startTestGateway({ threeDSecure: true });
      await use(gateway);
      await gateway.stop();
    },
    { scope: 'worker' },
  ],
  shop: [
    async ({ gateway }, use) => {
      // Your shop's backend, given the gateway's url, entityId and accessToken.
      const shop = await startShop(gateway);
      await use(shop);
      await shop.close();
    },
    { scope: 'worker' },
  ],
});

// Each flow reads only its own notifications.
test.beforeEach(async ({ gateway }) => {
  await gateway.webhooks.clear();
});

test('a card payment', async ({ page, shop, gateway }) => {
  await page.goto(shop.url);
  const widget = paymentWidget(page);
  await widget.card.fill(cards.success);
  expect(await widget.card.brand()).toBe('VISA');
  await widget.pay();
  await widget.expectResult('000.100.110');
  await expect(page.locator('#result-code')).toHaveText('000.100.110');

  const notification = await gateway.webhooks.next({ type: 'PAYMENT' });
  expect(notification.payload).toMatchObject({ paymentType: 'DB', amount: '12.50', currency: 'EUR' });
  expect(notification.payload.result?.code).toBe('000.100.110');
});

test('a 3-D Secure challenge', async ({ page, shop, gateway }) => {
  await page.goto(shop.url);
  const widget = paymentWidget(page);
  await widget.card.fill(cards.challenge);
  await widget.pay();
  await widget.challenge.answer(); // the simulator's code, 1234
  await widget.expectResult('000.100.110');

  // The payment was pending while the shopper answered, then ended.
  const ended = await gateway.webhooks.next({ type: 'PAYMENT', action: 'UPDATED' });
  expect(ended.payload.result?.code).toBe('000.100.110');
  expect(ended.payload).toMatchObject({ threeDSecure: { authenticationStatus: 'Y' } });
});

test('an expired checkout', async ({ page, shop, gateway }) => {
  await page.goto(shop.url);
  const widget = paymentWidget(page);
  await widget.card.fill(cards.success);
  const moved = await gateway.clock.advance('31m'); // a checkout lives 30 minutes
  expect(moved.ran.checkoutExpiry).toBeGreaterThanOrEqual(1);
  await widget.pay();
  await expect(widget.notice).toHaveText(
    'This payment session has expired. Please return to the shop and start again.',
  );
  expect(await gateway.webhooks.all({ type: 'PAYMENT' })).toEqual([]);
});

test('a scheduled payment fires at its time', async ({ page, shop, gateway }) => {
  // A first payment that stores the card, then a daily delivery charging it.
  await page.goto(`${shop.url}/?subscribe`);
  const widget = paymentWidget(page);
  await widget.card.fill(cards.success);
  await widget.pay();
  await widget.expectResult('000.100.110');
  const first = await gateway.webhooks.next({ type: 'PAYMENT' });
  await page.getByRole('button', { name: 'Deliver every day' }).click();
  await expect(page.locator('#next-payment')).not.toBeEmpty();
  const nextRunTime = (await page.locator('#next-payment').textContent()) ?? '';

  const moved = await gateway.clock.set(nextRunTime);
  expect(moved.ran.schedules).toBe(1);
  const scheduled = await gateway.webhooks.next({ type: 'PAYMENT' });
  expect(scheduled.payload.id).not.toBe(first.payload.id);
  expect(scheduled.payload).toMatchObject({
    paymentType: 'DB',
    amount: '12.50',
    registrationId: first.payload.registrationId,
    result: { code: '000.100.110' },
  });
});
