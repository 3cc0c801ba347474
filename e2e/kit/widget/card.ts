/**
 * The widget's card form (`form.wpwl-form-card`) as a QA flow drives it: number and CVV are
 * inputs inside gateway-origin frames (`iframe.wpwl-control-iframe`), expiry and holder are the
 * page's own inputs. Typed key by key, as a shopper does (the frames format as they go).
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type { Card } from '../cards';

/** The card form's fields, as the widget names them (`wpwl-control-<field>`). */
export type CardField = 'cardNumber' | 'expiry' | 'cvv' | 'cardHolder';

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

  /** Types the fields given (all four for a full card), each replacing what was there. */
  async fill(card: Partial<Card>): Promise<void> {
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

  async pay(): Promise<void> {
    await this.payButton.click();
  }
}
