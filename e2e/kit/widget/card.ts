/**
 * The widget's card form (`form.wpwl-form-card`) as a QA flow drives it: number and CVV are
 * inputs inside gateway-origin frames (`iframe.wpwl-control-iframe`), expiry and holder are the
 * page's own inputs. Typed key by key, as a shopper does (the frames format as they go). The
 * billing address (`fieldset.wpwl-group-billing`) is there only when the widget asks for it: when
 * the page does, or once the gateway names what an enrolled card needs (then `pay()` fills it
 * from `fill`'s address and pays again).
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type { Card } from '../cards';

/** The card form's fields, as the widget names them (`wpwl-control-<field>`). */
export type CardField = 'cardNumber' | 'expiry' | 'cvv' | 'cardHolder';

/** The card form's billing address, typed when the widget shows its fields. */
export interface CardBillingAddress {
  readonly street1?: string;
  readonly city?: string;
  readonly postcode?: string;
  /** ISO 3166-1 alpha-2 (`DE`): the country select's value. */
  readonly country?: string;
  readonly state?: string;
}

const BILLING_ORDER = ['street1', 'city', 'postcode', 'country', 'state'] as const;

/** What the form shows after a click on pay, read in the page. */
interface FormState {
  /** The page left (a result page, a full-page redirect), or the form is gone. */
  readonly gone: boolean;
  readonly busy: boolean;
  /** The widget's window is open (a challenge, an inline flow). */
  readonly modal: boolean;
  /** The widget's notice (an expired or paid checkout). */
  readonly notice: boolean;
  /** `field: message` of every field showing an error. */
  readonly errors: readonly string[];
  /** The form's own message (a decline, a technical error). */
  readonly message: string;
}

const GONE: FormState = { gone: true, busy: false, modal: false, notice: false, errors: [], message: '' };

export class CardPart {
  readonly form: Locator;
  readonly payButton: Locator;
  /** The brand indicator at the end of the number field (`wpwl-brand-<BRAND>`). */
  readonly indicator: Locator;

  constructor(
    readonly page: Page,
    /** Run before filling: the driver waits for the widget and remembers the form. */
    private readonly beforeFill: () => Promise<void> = async () => {},
  ) {
    this.form = page.locator('form.wpwl-form-card');
    this.payButton = this.form.locator('button.wpwl-button-pay');
    this.indicator = this.form.locator('.wpwl-wrapper-cardNumber .wpwl-brand-card');
  }

  /** The element that carries `wpwl-has-error` for a field: the frame for number and CVV. */
  control(field: CardField): Locator {
    if (field === 'cardNumber' || field === 'cvv')
      return this.form.locator(`iframe.wpwl-control-iframe.wpwl-control-${field}`);
    return this.form.locator(`input.wpwl-control-${field}`);
  }

  /** Where the shopper types: the input inside the frame for number and CVV. */
  input(field: CardField): Locator {
    if (field === 'cardNumber' || field === 'cvv')
      return this.control(field).contentFrame().locator('input#field');
    return this.control(field);
  }

  /** Waits until the form is shown and the host has initialised both frames. */
  async ready(): Promise<void> {
    await expect(this.form).toBeVisible();
    await expect(this.input('cardNumber')).toBeEnabled();
    await expect(this.input('cvv')).toBeEnabled();
  }

  /** The billing address's fieldset, when the widget shows one. */
  get billing(): Locator {
    return this.form.locator('fieldset.wpwl-group-billing');
  }

  /** The billing address `fill` was given: typed when the widget asks for it after a pay. */
  private address: CardBillingAddress | undefined;

  /**
   * Types the fields given (all four for a full card), each replacing what was there, and the
   * billing address's fields the widget shows now; the rest of it when the widget asks (`pay`).
   */
  async fill(card: Partial<Card>, billing?: CardBillingAddress): Promise<void> {
    await this.beforeFill();
    await this.ready();
    const typed: [CardField, string | undefined][] = [
      ['cardNumber', card.number],
      ['expiry', card.expiry],
      ['cvv', card.cvv],
    ];
    for (const [field, value] of typed) {
      if (value === undefined) continue;
      const input = this.input(field);
      await input.fill('');
      await input.pressSequentially(value);
    }
    if (card.holder !== undefined) await this.input('cardHolder').fill(card.holder);
    if (billing !== undefined) {
      this.address = billing;
      await this.fillBilling(billing);
    }
  }

  /** Types the billing fields the widget shows; the others are left for when it asks. */
  private async fillBilling(address: CardBillingAddress): Promise<void> {
    for (const field of BILLING_ORDER) {
      const value = address[field];
      const control = this.billing.locator(`.wpwl-control-${field}`);
      if (value === undefined || (await control.count()) === 0) continue;
      if (field === 'country') await control.selectOption(value);
      else await control.fill(value);
    }
  }

  /** The brand the number frame detected (`VISA`, `MASTER`, …): waits until one is shown. */
  async brand(): Promise<string> {
    await expect(this.indicator).toHaveClass(/\bwpwl-brand-[A-Z0-9_]+\b/);
    const classes = (await this.indicator.getAttribute('class')) ?? '';
    const brand = /\bwpwl-brand-([A-Z0-9_]+)\b/.exec(classes)?.[1];
    if (brand === undefined) throw new Error(`no brand in "${classes}"`);
    return brand;
  }

  /** The field's inline error as the shopper reads it, or undefined when the field has none. */
  async error(field: CardField): Promise<string | undefined> {
    const classes = (await this.control(field).getAttribute('class')) ?? '';
    if (!/\bwpwl-has-error\b/.test(classes)) return undefined;
    const hint = this.form.locator(`.wpwl-wrapper-${field} .wpwl-hint`);
    return (await hint.count()) === 0 ? '' : ((await hint.textContent()) ?? '').trim();
  }

  /** The form's own message (a decline shown in the form, a technical error), or undefined when empty. */
  async message(): Promise<string | undefined> {
    const message = this.form.locator('.wpwl-message');
    const text = (await message.count()) === 0 ? '' : ((await message.textContent()) ?? '').trim();
    return text === '' ? undefined : text;
  }

  /**
   * Clicks pay and waits until the widget has reacted: the page left, the widget's window opened, a
   * decline shown, or fields flagged. Flagged fields fail at once, naming each with its message;
   * unless they are the billing fields the widget asks for after the gateway named them and
   * `fill` was given an address: then they are typed and pay is clicked again.
   */
  async pay(): Promise<void> {
    let state = await this.clickPay();
    if (state.errors.length > 0 && this.address !== undefined && (await this.billing.count()) > 0) {
      await this.fillBilling(this.address);
      state = await this.clickPay();
    }
    if (state.errors.length > 0)
      throw new Error(`the widget refused the card form: ${state.errors.join('; ')}`);
  }

  /** Clicks pay and waits for the widget's reaction (its checks run at once; a submission takes a round trip). */
  private async clickPay(): Promise<FormState> {
    const before = (await this.state()).message;
    await this.payButton.click();
    const reacted = (s: FormState) =>
      s.gone || s.busy || s.modal || s.notice || s.errors.length > 0 || s.message !== before;
    let state = await this.state();
    // The click's own checks: errors at once, else the form is busy (or gone) within moments; a
    // page's onBeforeSubmitCard may stop it without either.
    const checked = Date.now() + 5_000;
    while (!reacted(state) && Date.now() < checked) {
      await this.page.waitForTimeout(50);
      state = await this.state();
    }
    // The gateway's answer: the form stays busy until it is handled (and through a challenge).
    const answered = Date.now() + 20_000;
    while (state.busy && !state.gone && !state.modal && !state.notice && Date.now() < answered) {
      await this.page.waitForTimeout(100);
      state = await this.state();
    }
    return state;
  }

  private async state(): Promise<FormState> {
    if (this.page.isClosed()) return GONE;
    return this.form
      .evaluate(
        (form: HTMLFormElement): FormState => {
          const button = form.querySelector('button.wpwl-button-pay');
          const doc = form.ownerDocument;
          const errors = [...form.querySelectorAll('.wpwl-group')]
            // A field's own group (not the billing fieldset holding several).
            .filter(
              (g) => g.querySelector('.wpwl-group') === null && g.querySelector('.wpwl-has-error') !== null,
            )
            .map((g) => {
              const field = [...g.classList]
                .find((c) => c.startsWith('wpwl-group-'))
                ?.slice('wpwl-group-'.length);
              const hint = g.querySelector('.wpwl-hint')?.textContent?.trim();
              return `${field}${hint ? `: ${hint}` : ''}`;
            });
          return {
            gone: !form.isConnected,
            busy: button?.getAttribute('aria-busy') === 'true',
            modal: doc.querySelector('.wpwl-modal') !== null,
            notice: (doc.querySelector('div.wpwl-widget > .wpwl-message')?.textContent ?? '').trim() !== '',
            errors,
            message: (form.querySelector('.wpwl-message')?.textContent ?? '').trim(),
          };
        },
        undefined,
        { timeout: 2_000 },
      )
      .catch(() => GONE);
  }
}
