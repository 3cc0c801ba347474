/**
 * A checkout's result as the shop's result page reads it: `GET {gateway}{resourcePath}` without
 * credentials (the public view: result, ids, amount, brand). Pending codes (000.200.x) are waited
 * out, so a flow can ask right after the shopper's last click.
 */
import { expect, type Page } from '@playwright/test';

export interface ResultOptions {
  /** How long to wait for a final result; Playwright's expect timeout by default. */
  readonly timeout?: number;
}

export interface Result {
  readonly code: string;
  readonly description: string;
}

const PENDING = /^000\.200\./;

/**
 * The checkout's resource the widget named; for a checkout created by the click (fast checkout)
 * and left at once for a provider, the `resourcePath` of the shopper's return address.
 */
async function resourcePathOf(page: Page, known: string | undefined, timeout?: number): Promise<string> {
  if (known !== undefined) return known;
  await page.waitForURL(
    (url) => url.searchParams.get('resourcePath')?.startsWith('/v1/checkouts/') === true,
    {
      timeout,
    },
  );
  return new URL(page.url()).searchParams.get('resourcePath')!;
}

async function read(url: string): Promise<Result> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  const body = (await response.json()) as { result?: Partial<Result> };
  return {
    code: body.result?.code ?? `HTTP ${response.status}`,
    description: body.result?.description ?? '',
  };
}

/**
 * The result of the checkout the widget paid (`resourcePath`, when the widget named it); waits while it is pending unless `expectPending`
 * (the checkout is expected to stay open, e.g. after a cancel).
 */
export async function readResult(
  page: Page,
  gatewayUrl: string | undefined,
  resourcePath: string | undefined,
  options: ResultOptions & { readonly expectPending?: boolean } = {},
): Promise<Result> {
  if (gatewayUrl === undefined) throw new Error('no gateway: the widget was never seen on this page');
  const url = new URL(await resourcePathOf(page, resourcePath, options.timeout), gatewayUrl).href;
  let last = await read(url);
  if (options.expectPending) return last;
  await expect
    .poll(
      async () => {
        last = await read(url);
        return PENDING.test(last.code);
      },
      { message: `the checkout's result is still pending (${url})`, timeout: options.timeout },
    )
    .toBe(false);
  return last;
}
