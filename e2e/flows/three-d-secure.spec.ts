/**
 * 3-D Secure through the real pages (the demo channel has it on; the shop sends a billing address
 * and the widget the browser data): a frictionless card, a challenge in the widget's modal passed
 * and failed, and a challenge by full-page redirect (preset `full-redirect`). Each ends on the
 * shop's result page, which shows what the shop read from the gateway.
 */
import { fileURLToPath } from 'node:url';
import { cards } from '../kit/cards';
import type { Card } from '../pages/CardForm';
import { CHALLENGE_CODE, ChallengePage } from '../pages/ChallengePage';
import { FAILED_RESULT_402 } from '../pages/ResultPage';
import { seriousViolations } from '../support/axe';
import { expect, test } from '../support/fixtures';
import { checkoutStatus } from '../support/gateway';

const DIR = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** Enrolled, authenticated without a challenge (Y, ECI 05). */
const FRICTIONLESS: Card = cards.frictionless;
/** Enrolled, challenged: the issuer's page asks for the code. */
const CHALLENGE: Card = cards.challenge;

test('a frictionless card is authenticated at once and pays (ECI 05, status Y)', async ({
  shop,
  card,
  result,
  request,
  harness,
  page,
}) => {
  // No issuer page on the way: nothing asks the simulator's pages for anything.
  const simulatorPages: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/simulators/')) simulatorPages.push(r.url());
  });
  await shop.open();
  await card.ready();
  const checkoutId = await shop.checkoutId();
  await card.fill(FRICTIONLESS);
  await card.pay();
  await result.expectOutcome('success', '000.100.110');
  expect(simulatorPages).toEqual([]);
  const status = await checkoutStatus(request, harness, checkoutId);
  expect(status.result?.code).toBe('000.100.110');
  expect(status.threeDSecure).toMatchObject({ eci: '05', authenticationStatus: 'Y' });
  expect(status.threeDSecure?.verificationId).toBeTruthy();
});

test('a challenge passed in the widget modal pays; onLoadThreeDIframe is called', async ({
  shop,
  card,
  result,
  modal,
  page,
}) => {
  // axe over the modal and the challenge's frame takes 10-15 s of a busy 2-core machine on its own
  test.slow();
  // The page's own hook on the challenge frame (wpwlOptions.onLoadThreeDIframe), added to
  // whatever options the shop's preset sets.
  await page.addInitScript(() => {
    const w = window as unknown as { wpwlOptions?: Record<string, unknown>; threeDLoads: string[] };
    w.threeDLoads = [];
    let options: Record<string, unknown> | undefined;
    Object.defineProperty(window, 'wpwlOptions', {
      configurable: true,
      get: () => options,
      set: (value: Record<string, unknown>) => {
        options = {
          ...value,
          onLoadThreeDIframe(this: HTMLIFrameElement) {
            w.threeDLoads.push(this.className);
          },
        };
      },
    });
  });
  await shop.open();
  await card.ready();
  await card.fill(CHALLENGE);
  await card.pay();

  await modal.expectOpen('Pay with Visa');
  const challenge = modal.challenge();
  await challenge.expectShown();
  // The dialog has focus, so the shopper's keyboard starts inside it.
  await expect(modal.dialog).toBeFocused();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { threeDLoads: string[] }).threeDLoads))
    .toEqual(['wpwl-target']);

  // axe on the open modal, the issuer's page in its frame included.
  expect(await seriousViolations(page, '.wpwl-modal')).toEqual([]);
  await page.screenshot({ path: `${DIR}challenge-modal-1280.png` });

  await challenge.answer(CHALLENGE_CODE);
  await result.expectOutcome('success', '000.100.110');
});

test('a challenge failed in the widget modal shows the decline; the shop reads 800.400.200', async ({
  shop,
  card,
  result,
  modal,
  page,
  browserErrors,
}) => {
  browserErrors.allow(FAILED_RESULT_402);
  // EMV size 02: 390 × 400.
  await shop.open({ preset: 'challenge-window' });
  await card.ready();
  const checkoutId = await shop.checkoutId();
  await card.fill(CHALLENGE);
  const shopUrl = page.url();
  await card.pay();

  await modal.expectOpen('Pay with Visa');
  await expect(modal.dialog).toHaveClass(/\bwpwl-modal-size-2\b/);
  await modal.challenge().expectShown();
  const frame = (await modal.frame.boundingBox())!;
  expect([frame.width, frame.height]).toEqual([390, 400]);
  // On a small screen the window shrinks to the viewport.
  await page.setViewportSize({ width: 320, height: 400 });
  await expect
    .poll(async () => {
      const box = (await modal.dialog.boundingBox())!;
      return box.x >= 0 && box.y >= 0 && box.x + box.width <= 320 && box.y + box.height <= 400;
    })
    .toBe(true);
  expect((await modal.frame.boundingBox())!.width).toBeLessThan(390);
  await page.setViewportSize({ width: 1280, height: 800 });

  await modal.challenge().answer('0000');
  await modal.expectClosed();
  await expect(card.message).toHaveText(/The payment was declined/);
  await expect(card.message).toContainText('Invalid Payer Authentication in 3DSecure transaction');
  expect(page.url()).toBe(shopUrl);
  // The forms are usable again for another try, and focus is back on the pay button.
  await expect(card.payButton).toBeEnabled();
  await expect(card.payButton).toBeFocused();
  await expect(card.frameInput('cardNumber')).toBeEditable();

  // What the shop shows when it reads this checkout now.
  await page.goto(shop.resultUrl(checkoutId));
  await result.expectOutcome('failed', '800.400.200');
});

test('a challenge by full-page redirect (preset full-redirect) returns to the result page', async ({
  shop,
  card,
  result,
  modal,
  page,
  harness,
}) => {
  await shop.open({ preset: 'full-redirect' });
  await card.ready();
  await card.fill(CHALLENGE);
  await card.pay();

  await page.waitForURL(`${harness.gatewayUrl}/simulators/acs/challenge`);
  await expect(modal.modal).toHaveCount(0);
  const challenge = new ChallengePage(page);
  await challenge.expectShown();
  await challenge.answer(CHALLENGE_CODE);
  await result.expectOutcome('success', '000.100.110');
  expect(new URL(page.url()).origin).toBe(harness.shopUrl);
});
