/**
 * A hostile script on the shop page (a skimmer, a compromised third-party script) tries to make
 * the gateway's card frames send what the shopper types to another checkout, one its own merchant
 * account made (a registration checkout would store the card for later charges): a forged
 * `submit` naming that checkout, a frame of its own in the form's sibling group, the real frame's
 * address rewritten. Each card frame is bound to the one checkout (and page origin) it was created
 * for: the other checkout's status stays open, and the shopper's own payment still goes through.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { TEST_CARD } from '../pages/CardForm';
import { expect, test } from '../support/fixtures';
import { checkoutStatus } from '../support/gateway';
import type { HarnessInfo } from '../support/harness';

/** The attacker's registration-only checkout (createRegistration=true), made server-to-server. */
async function otherCheckout(request: APIRequestContext, harness: HarnessInfo): Promise<string> {
  const res = await request.post(`${harness.gatewayUrl}/v1/checkouts`, {
    headers: { authorization: `Bearer ${harness.accessToken}` },
    form: {
      entityId: harness.entityId,
      createRegistration: 'true',
      'billing.street1': 'Hauptstrasse 1',
      'billing.city': 'Berlin',
      'billing.postcode': '10115',
      'billing.country': 'DE',
    },
  });
  const body = (await res.json()) as { id?: string };
  expect(res.status(), JSON.stringify(body)).toBe(200);
  return body.id!;
}

/** Nothing was submitted to the checkout: its status is still "open" (000.200.000). */
async function expectUntouched(request: APIRequestContext, harness: HarnessInfo, id: string) {
  const status = await checkoutStatus(request, harness, id, 'registration');
  expect(status.result?.code, `the other checkout ${id}: ${JSON.stringify(status)}`).toBe('000.200.000');
}

/** What the page script says to a card frame, in every shape the protocol has had. */
const forgedSubmit = (id: string, other: string) => ({
  ns: 'wpwl:1',
  t: 'submit',
  id,
  path: `checkouts/${other}/registration`,
  checkout: other,
  kind: 'registration',
  fields: [
    ['paymentBrand', 'VISA'],
    ['card.holder', 'Jane Jones'],
    ['card.expiryMonth', '05'],
    ['card.expiryYear', '2034'],
  ],
  collect: ['cvv'],
  cvv: 'required',
});

type Outcome = { t: string; reason?: string; status?: number };

/**
 * Posts a message to a frame (selected by CSS) as the page's own script, and waits for the frame's
 * `result` or `failed` for that id (or gives up after `ms`).
 */
function postFromPage(page: Page, selector: string, message: Record<string, unknown>, ms = 9000) {
  return page.evaluate(
    ({ selector, message, ms }) =>
      new Promise<Outcome>((resolve) => {
        const frame = document.querySelector<HTMLIFrameElement>(selector)!;
        const gateway = new URL(frame.src).origin;
        const done = (outcome: Outcome) => {
          removeEventListener('message', on);
          resolve(outcome);
        };
        const on = (event: MessageEvent) => {
          const data = event.data as { id?: unknown; t?: unknown } | null;
          if (event.origin !== gateway || data === null || data.id !== message.id) return;
          if (data.t === 'result' || data.t === 'failed') done(data as Outcome);
        };
        addEventListener('message', on);
        setTimeout(() => done({ t: 'no answer' }), ms);
        frame.contentWindow!.postMessage(message, gateway);
      }),
    { selector, message, ms },
  );
}

const NUMBER_FRAME = 'iframe.wpwl-control-cardNumber';

test('a forged submit naming another checkout: the number frame refuses, the shopper still pays', async ({
  shop,
  card,
  result,
  page,
  request,
  harness,
}) => {
  await shop.open();
  await card.ready();
  await card.fill(TEST_CARD);
  const other = await otherCheckout(request, harness);

  const outcome = await postFromPage(page, NUMBER_FRAME, forgedSubmit('evil-1', other));
  expect(outcome.t, JSON.stringify(outcome)).not.toBe('result');
  await expectUntouched(request, harness, other);
  // The frame still holds the number for the shopper's own payment.
  await expect(card.frameInput('cardNumber')).toHaveValue('4200 0000 0000 0000');

  await card.pay();
  await result.expectOutcome('success', '000.100.110');
  await expectUntouched(request, harness, other);
});

test('rewriting the number frame’s address does not rebind it to another checkout', async ({
  shop,
  card,
  result,
  page,
  request,
  harness,
}) => {
  await shop.open();
  await card.ready();
  await card.fill(TEST_CARD);
  const other = await otherCheckout(request, harness);

  // Only the fragment changes: the same document stays, with the typed number, under a new address.
  await page.evaluate(
    ({ selector, other }) => {
      const frame = document.querySelector<HTMLIFrameElement>(selector)!;
      const url = new URL(frame.src);
      const params = new URLSearchParams(url.hash.slice(1));
      params.set('c', other);
      url.hash = params.toString();
      frame.src = url.href;
    },
    { selector: NUMBER_FRAME, other },
  );
  await expect(card.frameInput('cardNumber')).toHaveValue('4200 0000 0000 0000');

  const outcome = await postFromPage(page, NUMBER_FRAME, forgedSubmit('evil-2', other));
  expect(outcome.t, JSON.stringify(outcome)).not.toBe('result');
  await expectUntouched(request, harness, other);

  await card.pay();
  await result.expectOutcome('success', '000.100.110');
  await expectUntouched(request, harness, other);
});

test('a frame the page makes for another checkout cannot collect the shopper’s CVV', async ({
  shop,
  card,
  result,
  page,
  request,
  harness,
}) => {
  await shop.open();
  await card.ready();
  await card.fill(TEST_CARD);
  const other = await otherCheckout(request, harness);

  // The attacker's own card-field frame: the real frames' group and origin, the other checkout.
  await page.evaluate(
    ({ selector, other }) =>
      new Promise<void>((resolve, reject) => {
        const real = document.querySelector<HTMLIFrameElement>(selector)!;
        const url = new URL(real.src);
        const params = new URLSearchParams(url.hash.slice(1));
        params.set('c', other);
        url.hash = params.toString();
        const frame = document.createElement('iframe');
        frame.id = 'evil';
        frame.src = url.href;
        const on = (event: MessageEvent) => {
          if (event.source !== frame.contentWindow || (event.data as { t?: unknown })?.t !== 'ready') return;
          removeEventListener('message', on);
          frame.contentWindow!.postMessage(
            {
              ns: 'wpwl:1',
              t: 'init',
              label: 'Card number',
              placeholder: '',
              dir: 'ltr',
              brands: ['VISA', 'MASTER'],
              priority: [],
              mask: false,
              style: { input: {}, placeholder: {} },
              autofocus: false,
              submitOnEnter: false,
            },
            url.origin,
          );
          resolve();
        };
        addEventListener('message', on);
        setTimeout(() => reject(new Error('the attacker’s frame never said ready')), 8000);
        document.body.append(frame);
      }),
    { selector: NUMBER_FRAME, other },
  );
  // A number in the attacker's frame (its own test card, or one a shopper was fooled into typing).
  const evilInput = page.frameLocator('#evil').locator('input#field');
  await expect(evilInput).toBeEnabled();
  await evilInput.pressSequentially('4111111111111111');

  // It asks the form's CVV frame for the CVV (required), then would post both to the other checkout.
  const outcome = await postFromPage(page, '#evil', forgedSubmit('evil-3', other), 12_000);
  expect(outcome.t, JSON.stringify(outcome)).not.toBe('result');
  await expectUntouched(request, harness, other);

  await card.pay();
  await result.expectOutcome('success', '000.100.110');
  await expectUntouched(request, harness, other);
});
