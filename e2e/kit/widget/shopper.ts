/**
 * The pages the shopper answers outside the widget's forms, the issuer's 3-D Secure challenge and
 * a redirect method's provider page: inside the widget's modal (its `iframe.wpwl-target`) or as
 * the whole page after a full redirect (`paymentTarget`, or a brand not listed in `inlineFlow`).
 * Whichever shows first is the one answered.
 */
import { expect, type FrameLocator, type Page } from '@playwright/test';
import { CHALLENGE_CODE } from '../cards';
import { ChallengePage } from './ChallengePage';
import { ProviderPage } from './ProviderPage';

/** The document showing the simulator's page: the modal's frame, or the page itself. */
async function shopperDocument(page: Page): Promise<Page | FrameLocator> {
  const modalFrame = page.locator('div.wpwl-modal iframe.wpwl-target:not(.wpwl-sheet)');
  const topTitle = page.locator('h1#sim-title');
  await expect(modalFrame.or(topTitle).first()).toBeVisible();
  return (await modalFrame.count()) > 0 ? modalFrame.contentFrame() : page;
}

/** The issuer's challenge: `answer(code)` (the simulator's code by default), `fail()`, `cancel()`. */
export class ChallengePart {
  constructor(readonly page: Page) {}

  async shown(): Promise<ChallengePage> {
    const challenge = new ChallengePage(await shopperDocument(this.page));
    await challenge.expectShown();
    return challenge;
  }

  async answer(code: string = CHALLENGE_CODE): Promise<void> {
    await (await this.shown()).answer(code);
  }

  async fail(): Promise<void> {
    await (await this.shown()).fail();
  }

  async cancel(): Promise<void> {
    await (await this.shown()).cancel();
  }
}

/** A redirect method's provider page: `approve()`, `decline()`, `cancel()`. */
export class ProviderPart {
  constructor(readonly page: Page) {}

  async shown(): Promise<ProviderPage> {
    const provider = new ProviderPage(await shopperDocument(this.page));
    await provider.expectShown();
    return provider;
  }

  async approve(): Promise<void> {
    await (await this.shown()).approve();
  }

  async decline(): Promise<void> {
    await (await this.shown()).decline();
  }

  async cancel(): Promise<void> {
    await (await this.shown()).cancel();
  }
}
