/**
 * Brands on the shop page `data-brands="VISA MASTER MADA APPLEPAY"`, on real channels of the demo
 * merchant (the harness creates them as the operator CLI does, `ChannelSettings.brands`, each with
 * its own shop):
 * - a channel accepting only VISA MASTER MADA: a MADA card (BIN 446404, co-badged with Visa) is
 *   detected as MADA, its logo shown in the number field, and pays through the card form as MADA;
 *   APPLEPAY, which the channel does not accept (nor the gateway know), draws nothing, so the card
 *   form is the only form, offering VISA, MASTER and MADA; the same on the unrestricted demo
 *   channel;
 * - a channel accepting only VISA MASTER: the widget's session says so, the card form offers just
 *   those, and the MADA number is detected and paid as Visa (the channel refuses MADA itself).
 * Screenshots of the card form with the MADA logo at 390 and 1280 px go to e2e/screenshots/.
 */
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { seriousViolations } from '../support/axe';
import { expect, test } from '../support/fixtures';
import { checkoutStatus } from '../support/gateway';

const BRANDS = 'VISA MASTER MADA APPLEPAY';
const MADA_CARD = { number: '4464040000000007', expiry: '05/34', cvv: '123', holder: 'Jane Jones' };
const DIR = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** The card form's brand list (its `paymentBrand` select), which the number frame detects among. */
const cardBrands = (page: Page) =>
  page
    .locator('form.wpwl-form-card select[name="paymentBrand"] option')
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));

test('a channel accepting VISA MASTER MADA: a MADA card is detected as MADA, shows its logo, and pays as MADA', async ({
  shop,
  card,
  result,
  page,
  request,
  harness,
}) => {
  const channel = harness.channels.visaMasterMada;
  const madaShop = shop.at(channel.shopUrl);
  await madaShop.open({ brands: BRANDS });
  await card.ready();
  await card.fillNumber(MADA_CARD.number);
  await expect(card.brand).toHaveClass(/\bwpwl-brand-MADA\b/);
  await card.expectLogo('mada');
  await expect(card.logo).toHaveAttribute('src', `${harness.gatewayUrl}/v1/widget/logos/MADA.svg`);
  // A Visa number next to it is Visa again.
  await card.fillNumber('4200000000000000');
  await expect(card.brand).toHaveClass(/\bwpwl-brand-VISA\b/);
  await card.expectLogo('Visa');

  await card.fill(MADA_CARD);
  await card.expectLogo('mada');
  expect(await seriousViolations(page)).toEqual([]);
  const checkoutId = await madaShop.checkoutId();
  await card.pay();
  await result.expectOutcome('success', '000.100.110');
  expect(page.url()).toBe(madaShop.resultUrl(checkoutId));
  const status = await checkoutStatus(request, channel, checkoutId);
  expect(status.paymentBrand).toBe('MADA');
});

for (const restricted of [true, false]) {
  test(`APPLEPAY draws nothing on ${restricted ? 'a channel accepting VISA MASTER MADA' : 'the unrestricted demo channel'}: the card form alone shows`, async ({
    shop,
    card,
    page,
    harness,
  }) => {
    const session = page.waitForResponse((r) =>
      /\/v1\/checkouts\/[^/]+\/session$/.test(new URL(r.url()).pathname),
    );
    await (restricted ? shop.at(harness.channels.visaMasterMada.shopUrl) : shop).open({ brands: BRANDS });
    await card.ready();
    // The channel's accepted brands, as the widget reads them (none listed: every brand).
    const accepted = ((await (await session).json()) as { brands?: string[] }).brands;
    expect(accepted).toEqual(restricted ? ['VISA', 'MASTER', 'MADA'] : undefined);
    await expect(shop.widget.locator('form.wpwl-form')).toHaveCount(1);
    await expect(
      shop.widget.locator('.wpwl-brand-APPLEPAY, .wpwl-form-wallet, .wpwl-form-onlineTransfer'),
    ).toHaveCount(0);
    await expect(shop.widget).not.toContainText(/APPLE ?PAY/i);
    expect(await cardBrands(page)).toEqual(['VISA', 'MASTER', 'MADA']);
  });
}

test('a channel accepting only VISA and MASTER: the card form offers just those, a MADA number is Visa and pays as Visa', async ({
  shop,
  card,
  result,
  page,
  request,
  harness,
}) => {
  const channel = harness.channels.visaMaster;
  const visaMasterShop = shop.at(channel.shopUrl);
  const session = page.waitForResponse((r) =>
    /\/v1\/checkouts\/[^/]+\/session$/.test(new URL(r.url()).pathname),
  );
  await visaMasterShop.open({ brands: BRANDS });
  await card.ready();
  expect(((await (await session).json()) as { brands?: string[] }).brands).toEqual(['VISA', 'MASTER']);
  await expect(shop.widget.locator('form.wpwl-form')).toHaveCount(1);
  expect(await cardBrands(page)).toEqual(['VISA', 'MASTER']);
  await card.fillNumber(MADA_CARD.number);
  await expect(card.brand).toHaveClass(/\bwpwl-brand-VISA\b/);
  await expect(card.brand).not.toHaveClass(/\bwpwl-brand-MADA\b/);
  await card.expectLogo('Visa');

  await card.fill(MADA_CARD);
  const checkoutId = await visaMasterShop.checkoutId();
  await card.pay();
  await result.expectOutcome('success', '000.100.110');
  expect((await checkoutStatus(request, channel, checkoutId)).paymentBrand).toBe('VISA');
  // The channel itself refuses MADA (600.200.201), whatever a page asks for.
  const mada = await request.post(`${channel.gatewayUrl}/v1/payments`, {
    headers: { authorization: `Bearer ${channel.accessToken}` },
    form: {
      entityId: channel.entityId,
      amount: '1.00',
      currency: 'EUR',
      paymentType: 'DB',
      paymentBrand: 'MADA',
      'card.number': MADA_CARD.number,
      'card.holder': MADA_CARD.holder,
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
      'card.cvv': MADA_CARD.cvv,
    },
  });
  expect(((await mada.json()) as { result?: { code?: string } }).result?.code).toBe('600.200.201');
});

for (const width of [390, 1280]) {
  test(`the card form with the MADA logo at ${width} px`, async ({ shop, card, page }) => {
    await page.setViewportSize({ width, height: 800 });
    await shop.open({ brands: BRANDS });
    await card.ready();
    await card.fill(MADA_CARD);
    await card.expectLogo('mada');
    const number = (await card.numberFrame.boundingBox())!;
    const logo = (await card.logo.boundingBox())!;
    expect(logo.x).toBeGreaterThan(number.x);
    expect(logo.x + logo.width).toBeLessThanOrEqual(number.x + number.width);
    expect(logo.y).toBeGreaterThanOrEqual(number.y);
    expect(logo.y + logo.height).toBeLessThanOrEqual(number.y + number.height);
    await page.screenshot({ path: `${DIR}card-form-mada-${width}.png`, fullPage: true });
  });
}

test('each brand in its method’s form, each button with its logo; axe finds nothing serious', async ({
  shop,
  card,
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await shop.open({
    brands:
      'VISA MADA DIRECTDEBIT_SEPA VIRTUAL_ACCOUNT GIFTCARD WALLETA PAYPAL KLARNA_PAYMENTS_PAYLATER APPLEPAY',
  });
  await card.ready();
  // Each form's most specific class: wpwl-form-<method>-<BRAND> (the card form: wpwl-form-card).
  const forms = await shop.widget
    .locator('form.wpwl-form')
    .evaluateAll((all) => all.map((f) => [...f.classList].filter((c) => c.startsWith('wpwl-form-')).pop()));
  expect(forms).toEqual([
    'wpwl-form-card',
    'wpwl-form-directDebit-DIRECTDEBIT_SEPA',
    'wpwl-form-virtualAccount-VIRTUAL_ACCOUNT',
    'wpwl-form-giftCard-GIFTCARD',
    'wpwl-form-wallet-WALLETA',
    'wpwl-form-onlineTransfer-PAYPAL',
    'wpwl-form-onlineTransfer-KLARNA_PAYMENTS_PAYLATER',
  ]);
  // Every form but the card's shows its brand's logo on its button, beside the label that names it.
  for (const [kind, brand] of [
    ['directDebit', 'DIRECTDEBIT_SEPA'],
    ['virtualAccount', 'VIRTUAL_ACCOUNT'],
    ['giftCard', 'GIFTCARD'],
    ['wallet', 'WALLETA'],
    ['onlineTransfer', 'PAYPAL'],
    ['onlineTransfer', 'KLARNA_PAYMENTS_PAYLATER'],
  ] as const) {
    const logo = shop.widget.locator(
      `form.wpwl-form-${kind}-${brand} button.wpwl-button-pay img.wpwl-logo-${brand}`,
    );
    await expect(logo).toHaveAttribute('alt', '');
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
  }
  await expect(shop.widget.getByRole('button', { name: 'Pay with Wallet A', exact: true })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: `${DIR}methods-390.png`, fullPage: true });
});
