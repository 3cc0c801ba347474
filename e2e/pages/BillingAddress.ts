/**
 * The card form's billing address (`fieldset.wpwl-group-billing`), asked only when needed: from the
 * start when the page asks for it, else once the gateway names the fields an enrolled card needs
 * on a channel that authenticates with 3-D Secure: street, city, postcode, country (a select) and,
 * where the country needs one, the state.
 */
import { expect, type Locator, type Page } from '@playwright/test';

export interface Address {
  readonly street1?: string;
  readonly city?: string;
  readonly postcode?: string;
  /** ISO 3166-1 alpha-2, the select's value. */
  readonly country?: string;
  readonly state?: string;
}

export const BERLIN: Address = {
  street1: 'Hauptstrasse 1',
  city: 'Berlin',
  postcode: '10115',
  country: 'DE',
};

export class BillingAddress {
  readonly group: Locator;
  readonly legend: Locator;

  constructor(readonly page: Page) {
    this.group = page.locator('form.wpwl-form-card fieldset.wpwl-group-billing');
    this.legend = this.group.locator('legend');
  }

  /** A field's control: an input, or the country's select. */
  control(field: keyof Address): Locator {
    return this.group.locator(`.wpwl-control-${field}`);
  }

  label(field: keyof Address): Locator {
    return this.group.locator(`.wpwl-label-${field}`);
  }

  hint(field: keyof Address): Locator {
    return this.group.locator(`.wpwl-group-${field} .wpwl-hint`);
  }

  async fill(address: Address): Promise<void> {
    for (const field of ['street1', 'city', 'postcode', 'country', 'state'] as const) {
      const value = address[field];
      if (value === undefined) continue;
      if (field === 'country') await this.control(field).selectOption(value);
      else await this.control(field).fill(value);
    }
  }

  async expectShown(): Promise<void> {
    await expect(this.group).toBeVisible();
  }
}
