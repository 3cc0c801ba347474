/**
 * `paymentWidget(page)`: the widget on any page that embeds `paymentWidgets.js`, driven as a
 * shopper drives it. It needs only the page: the gateway's address is read from the widget's own
 * script, the checkout from `window.wpwl` or from the shopper's return address, so it works
 * against a gateway the QA team started themselves as well as against startTestGateway's.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type { WalletCard } from '../cards';
import { CardPart } from './card';
import { DirectDebitForm } from './DirectDebitForm';
import { OneClickForm } from './OneClickForm';
import { type ResultOptions, readResult } from './result';
import { ChallengePart, ProviderPart } from './shopper';
import { type BillingAddress, JANE, WalletSheet } from './WalletSheet';

export type { CardBillingAddress, CardField } from './card';
export type { BillingAddress } from './WalletSheet';

export interface PaymentWidgetOptions {
  /** The gateway's address, when the page loads the script from elsewhere (a CDN, a proxy). */
  readonly gatewayUrl?: string;
}

/** A brand's own button (redirect methods, wallets, virtual accounts); card brands have none: the card form pays them. */
function payButton(page: Page, brand: string) {
  return page
    .locator(
      [
        `form.wpwl-form-onlineTransfer-${brand} button.wpwl-button-pay`,
        `form.wpwl-form-wallet-${brand} button.wpwl-button-brand`,
        `form.wpwl-form-virtualAccount-${brand} button.wpwl-button-pay`,
        `form.wpwl-form-${brand} button.wpwl-button-pay`,
      ].join(', '),
    )
    .first();
}

export class PaymentWidget {
  readonly card: CardPart;
  /** The widget's own notice, above its forms: an expired, paid or unknown checkout. */
  readonly notice: Locator;
  readonly challenge: ChallengePart;
  readonly provider: ProviderPart;
  /** Where `pay()` without a brand clicks: the form filled or chosen last (the card form at first). */
  private last: 'card' | 'directDebit' | 'oneClick' = 'card';
  private gateway: string | undefined;
  private checkout: string | undefined;
  /** `wpwl.checkout.resourcePath`: the checkout's payment or registration. */
  private resourcePath: string | undefined;

  constructor(
    readonly page: Page,
    readonly options: PaymentWidgetOptions = {},
  ) {
    this.gateway = options.gatewayUrl;
    // Filling the card form makes it the one `pay()` submits.
    this.card = new CardPart(page, async () => {
      await this.ready();
      this.last = 'card';
    });
    this.notice = page.locator('div.wpwl-widget > .wpwl-message');
    this.challenge = new ChallengePart(page);
    this.provider = new ProviderPart(page);
  }

  /**
   * Waits until the widget reports ready (`wpwl.isReady`), and remembers the gateway it came from
   * and its checkout (fast checkout: none until a button's createCheckout).
   */
  async ready(): Promise<void> {
    await this.page.waitForFunction(
      () => (window as { wpwl?: { isReady?: boolean } }).wpwl?.isReady === true,
    );
    await this.remember();
  }

  /** The checkout id the widget pays (after the shopper left the page: the one it was paying). */
  async checkoutId(): Promise<string> {
    await this.remember();
    if (this.checkout === undefined) throw new Error('the widget has no checkout yet');
    return this.checkout;
  }

  private async remember(): Promise<void> {
    const seen = await this.page
      .evaluate(() => {
        const script = [...document.scripts].find((s) => /\/v1\/paymentWidgets\.js(\?|$)/.test(s.src));
        const wpwl = (window as { wpwl?: { checkout?: { id?: string; resourcePath?: string } } }).wpwl;
        return { src: script?.src, id: wpwl?.checkout?.id, resourcePath: wpwl?.checkout?.resourcePath };
      })
      .catch(() => ({ src: undefined, id: undefined, resourcePath: undefined }));
    if (seen.src !== undefined && this.options.gatewayUrl === undefined)
      this.gateway = new URL(seen.src).origin;
    if (seen.id) this.checkout = seen.id;
    if (seen.resourcePath) this.resourcePath = seen.resourcePath;
  }

  /** SEPA direct debit: fills holder and IBAN. */
  readonly directDebit = {
    fill: async (account: { readonly holder?: string; readonly iban: string }): Promise<void> => {
      await this.ready();
      const form = new DirectDebitForm(this.page);
      if (account.holder !== undefined) await form.fillHolder(account.holder);
      await form.fillIban(account.iban);
      this.last = 'directDebit';
    },
  };

  /**
   * One-click: chooses a stored registration, by its id or its place in the list (0 first), and
   * types its CVV when given (in the gateway's CVV frame: the page or the card's channel asks for it).
   */
  readonly oneClick = {
    choose: async (registration: string | number, card: { readonly cvv?: string } = {}): Promise<void> => {
      await this.ready();
      const form = new OneClickForm(this.page);
      const choice =
        typeof registration === 'number'
          ? form.form.locator('input.wpwl-control-registration').nth(registration)
          : form.registration(registration);
      await choice.check();
      if (card.cvv !== undefined) await form.fillCvv(card.cvv);
      this.last = 'oneClick';
    },
  };

  /**
   * Pays: without a brand, the form filled or chosen last; with one, that brand's button (a
   * redirect method's, a wallet's, or the card form's for a card brand).
   */
  async pay(brand?: string): Promise<void> {
    await this.remember();
    if (brand !== undefined) {
      await this.ready();
      const button = payButton(this.page, brand);
      // A card brand has no form of its own: the card form pays it.
      return (await button.count()) > 0 ? button.click() : this.card.pay();
    }
    switch (this.last) {
      case 'card':
        return this.card.pay();
      case 'directDebit':
        return new DirectDebitForm(this.page).pay();
      case 'oneClick':
        return new OneClickForm(this.page).pay();
    }
  }

  /** The simulated wallet sheet in the widget's modal: `pay({ card, billing })`, `cancel()`. */
  readonly walletSheet = {
    pay: async (
      choice: { readonly card?: WalletCard; readonly billing?: BillingAddress } = {},
    ): Promise<void> => {
      const sheet = await this.shownSheet();
      if (choice.card !== undefined) await sheet.card(choice.card.label).check();
      // The sheet asks for a billing address only when the page's wallet options do.
      if ((await sheet.field('Full name').count()) > 0) await sheet.fillBilling(choice.billing ?? JANE);
      await sheet.pay();
    },
    cancel: async (): Promise<void> => {
      await (await this.shownSheet()).cancel();
    },
  };

  private async shownSheet(): Promise<WalletSheet> {
    const sheet = new WalletSheet(this.page);
    await expect(sheet.content.getByRole('radio').first()).toBeVisible();
    // createCheckout has run by now (fast checkout): the checkout the sheet pays.
    await this.remember();
    return sheet;
  }

  /** Fast checkout (a page without a checkout): clicks a wallet's or redirect method's button. */
  readonly fastCheckout = {
    click: async (brand: string): Promise<void> => {
      await this.ready();
      await payButton(this.page, brand).click();
    },
  };

  /**
   * Waits until the payment has its final result and checks its code: read from the gateway as
   * the shop's result page does (`resourcePath` of the shopper's return address, else the
   * checkout's status; the public view, without credentials). A status read counts as the
   * merchant's, so the gateway's 29-minute shopperResultUrl call is not made after it.
   */
  async expectResult(code: string | RegExp, options: ResultOptions = {}): Promise<void> {
    await this.remember();
    const expectPending = typeof code === 'string' && code.startsWith('000.200.');
    const resourcePath =
      this.resourcePath ??
      (this.checkout === undefined ? undefined : `/v1/checkouts/${this.checkout}/payment`);
    const result = await readResult(this.page, this.gateway, resourcePath, { ...options, expectPending });
    expect(result.code, `the payment's result (${result.description})`).toMatch(
      typeof code === 'string' ? new RegExp(`^${code.replaceAll('.', '\\.')}$`) : code,
    );
  }
}

/** The widget on `page`, whichever page embeds it. */
export function paymentWidget(page: Page, options: PaymentWidgetOptions = {}): PaymentWidget {
  return new PaymentWidget(page, options);
}
