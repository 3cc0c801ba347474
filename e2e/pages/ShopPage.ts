/**
 * The demo shop's checkout page (server/demo-shop/shop.ts): each variant is a query string, and
 * the widget renders before its `form.paymentWidgets`. The harness serves several shops (the demo
 * channel's, one per brand-restricted channel, the live merchant's): `shopUrl` picks one, the demo
 * channel's by default.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type { HarnessInfo } from '../support/harness';

export interface ShopVariant {
  /** The form's data-brands, e.g. `VISA MASTER AMEX` (the shop's default) or `DIRECTDEBIT_SEPA`. */
  readonly brands?: string;
  readonly amount?: string;
  readonly currency?: string;
  readonly preset?:
    | 'default'
    | 'de'
    | 'ar'
    | 'labels'
    | 'holder-check'
    | 'save-card'
    /** PAYPAL, SOFORTUEBERWEISUNG and KLARNA_PAYMENTS_PAYLATER in the widget's modal (inlineFlow). */
    | 'inline'
    /** 3-D Secure challenges by full-page redirect (paymentTarget '_top'). */
    | 'full-redirect'
    /** The challenge window at EMV size 02, 390 × 400 (browser.threeDChallengeWindow 2). */
    | 'challenge-window'
    /** walletA with a MIN billing address; onPaymentAuthorized resolves SUCCESS. */
    | 'walletA-success'
    /** The same, onPaymentAuthorized resolves ERROR ("The shop cannot accept this card."). */
    | 'walletA-error';
  /** A stored registration to offer (one-click). */
  readonly registration?: string;
  /** A registration-only checkout. */
  readonly register?: boolean;
  /** A strict Content-Security-Policy with a nonce and Trusted Types. */
  readonly csp?: 'strict';
  /** false: the shop sends no billing address with the checkout (it sends one by default). */
  readonly billing?: false;
  /** The shop's order number, sent as merchantTransactionId. */
  readonly order?: string;
}

/** The fast-checkout page (`/fast`): no checkout until a button's createCheckout. */
export interface FastVariant {
  /** The form's data-brands (default WALLETA). */
  readonly brands?: string;
  /** The script tag's SRI value: the gateway's (default) or a wrong one. */
  readonly integrity?: 'ok' | 'wrong';
  /** createCheckout rejects instead of asking the shop's /checkout. */
  readonly createCheckout?: 'reject';
}

export class ShopPage {
  readonly widget: Locator;
  /** The checkout-level notice (expired, completed, invalid checkout). */
  readonly notice: Locator;

  constructor(
    readonly page: Page,
    readonly harness: HarnessInfo,
    readonly shopUrl: string = harness.shopUrl,
  ) {
    this.widget = page.locator('div.wpwl-widget');
    this.notice = this.widget.locator(':scope > .wpwl-message');
  }

  /** The same page object on another of the harness's shops. */
  at(shopUrl: string): ShopPage {
    return new ShopPage(this.page, this.harness, shopUrl);
  }

  url(variant: ShopVariant = {}): string {
    const url = new URL('/', this.shopUrl);
    const q = url.searchParams;
    if (variant.brands) q.set('brands', variant.brands);
    if (variant.amount) q.set('amount', variant.amount);
    if (variant.currency) q.set('currency', variant.currency);
    if (variant.preset) q.set('preset', variant.preset);
    if (variant.registration) q.set('registration', variant.registration);
    if (variant.register) q.set('register', '1');
    if (variant.csp) q.set('csp', variant.csp);
    if (variant.billing === false) q.set('billing', '0');
    if (variant.order) q.set('order', variant.order);
    return url.href;
  }

  fastUrl(variant: FastVariant = {}): string {
    const url = new URL('/fast', this.shopUrl);
    if (variant.brands) url.searchParams.set('brands', variant.brands);
    if (variant.integrity) url.searchParams.set('integrity', variant.integrity);
    if (variant.createCheckout) url.searchParams.set('createCheckout', variant.createCheckout);
    return url.href;
  }

  /** Opens the fast-checkout page and waits until the widget reports ready. */
  async openFast(variant: FastVariant = {}): Promise<void> {
    const response = await this.page.goto(this.fastUrl(variant));
    expect(response?.status(), 'the shop read the widget’s integrity').toBe(200);
    await this.page.waitForFunction(
      () => (window as { wpwl?: { isReady?: boolean } }).wpwl?.isReady === true,
    );
    await expect(this.widget).toBeVisible();
  }

  /**
   * What the page's wallet options and createCheckout were called with, `[name, argument]` pairs
   * (the shop keeps them in sessionStorage, so the result page still has them).
   */
  async shopLog(): Promise<[string, unknown][]> {
    return this.page.evaluate(() => JSON.parse(sessionStorage.getItem('shopLog') ?? '[]'));
  }

  /** Opens the variant and waits until the widget reports ready (`wpwl.isReady`, onReady done). */
  async open(variant: ShopVariant = {}): Promise<void> {
    const response = await this.page.goto(this.url(variant));
    expect(response?.status(), 'the shop created the checkout').toBe(200);
    await this.page.waitForFunction(
      () => (window as { wpwl?: { isReady?: boolean } }).wpwl?.isReady === true,
    );
    await expect(this.widget).toBeVisible();
  }

  /**
   * The shop's result page for a checkout, as the gateway's redirect (and the widget) address it:
   * `/result?id=…&resourcePath=/v1/checkouts/{id}/payment`.
   */
  resultUrl(checkoutId: string): string {
    const url = new URL('/result', this.shopUrl);
    url.searchParams.set('id', checkoutId);
    url.searchParams.set('resourcePath', `/v1/checkouts/${checkoutId}/payment`);
    return url.href;
  }

  /** The checkout id the page's widget script was loaded with. */
  async checkoutId(): Promise<string> {
    const id = await this.page.evaluate(
      () => (window as { wpwl?: { checkout?: { id?: string } } }).wpwl?.checkout?.id,
    );
    if (!id) throw new Error('the widget has no checkout id');
    return id;
  }
}
