/**
 * The shopper's browser in a connector's pending payment, for API-level tests: from the gateway's
 * redirect (`/connectors/redirect`) to the processor's page, the answer given there, and back to
 * the gateway's return address, which ends the payment and sends the shopper on to the merchant.
 *
 * The processor's page is the kind's (`ProcessorShopper`): `oppShopper` answers the pages of a
 * gateway of this family standing for the processor (its simulator's 3-D Secure challenge and
 * redirect providers). Another kind's harness gives its own (ConnectorWorld.shopper).
 */
import { CHALLENGE_CODE } from '../../processors/simulator/access-control-server';
import type { TestGateway, TestResponse } from '../gateway';

/** What the shopper does on the processor's page. */
export type ShopperChoice = 'approve' | 'decline';

/** The form the gateway's redirect page submits: the processor's page and its parameters. */
export interface ProcessorPage {
  readonly action: string;
  readonly method: 'get' | 'post';
  readonly fields: Readonly<Record<string, string>>;
}

/** The shopper on a kind's processor page: where the processor sends them back (absolute URL). */
export type ProcessorShopper = (page: ProcessorPage, choice: ShopperChoice) => Promise<string>;

/** One address of a gateway in process (gw, or gw.live). */
export interface GatewayAddress {
  send(method: string, path: string, body: string | undefined): Promise<TestResponse>;
}

const decode = (text: string): string =>
  text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

const pathOf = (url: string): string => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** The gateway's redirect page (the answer's `redirect`), read as the browser would submit it. */
export async function forwardedPage(
  gateway: GatewayAddress,
  redirect: { readonly url: string; readonly parameters: readonly { name: string; value: string }[] },
): Promise<ProcessorPage> {
  const body = new URLSearchParams(redirect.parameters.map((p) => [p.name, p.value])).toString();
  const page = await gateway.send('POST', pathOf(redirect.url), body);
  if (page.status !== 200)
    throw new Error(`the gateway's redirect page answered ${page.status}: ${page.text}`);
  const form = /<form id="forward" method="(get|post)" action="([^"]+)">/.exec(page.text);
  if (form === null) throw new Error(`no forwarding form on the gateway's redirect page: ${page.text}`);
  const fields: Record<string, string> = {};
  for (const [, name, value] of page.text.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
    fields[decode(name ?? '')] = decode(value ?? '');
  return { method: form[1] as 'get' | 'post', action: decode(form[2] ?? ''), fields };
}

/** The pages of a gateway of the family standing for the processor (test mode INTERNAL's simulator). */
export function oppShopper(processor: Pick<TestGateway, 'send'>): ProcessorShopper {
  return async (page, choice) => {
    const path = new URL(page.action).pathname;
    const answer: Record<string, string> = path.endsWith('/acs/challenge')
      ? {
          threeDSSessionData: page.fields.threeDSSessionData ?? '',
          action: 'submit',
          otp: choice === 'approve' ? CHALLENGE_CODE : '0000',
        }
      : { session: page.fields.session ?? '', action: choice };
    const sent = await processor.send('POST', `${path}/answer`, new URLSearchParams(answer).toString());
    const location = sent.headers.get('location');
    if (sent.status !== 303 || location === null)
      throw new Error(`the processor's page answered ${sent.status}: ${sent.text}`);
    return location;
  };
}

/**
 * The shopper back at the gateway's return address: where the gateway sends them on, if anywhere
 * (its page's meta refresh: connector-return.ts says why it is no 303).
 */
export async function backAtGateway(
  gateway: GatewayAddress,
  returnAddress: string,
): Promise<{ readonly status: number; readonly location: string | null }> {
  const back = await gateway.send('GET', pathOf(returnAddress), undefined);
  const refresh = /<meta http-equiv="refresh" content="0;url=([^"]*)">/.exec(back.text)?.[1];
  const onward = refresh?.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'");
  return { status: back.status, location: back.headers.get('location') ?? onward ?? null };
}

/** The whole round: the gateway's redirect, the opp processor's page answered, back at the gateway. */
export async function shopperAtProcessor(
  gateway: GatewayAddress,
  processor: Pick<TestGateway, 'send'>,
  redirect: { readonly url: string; readonly parameters: readonly { name: string; value: string }[] },
  choice: ShopperChoice,
): Promise<{ readonly status: number; readonly location: string | null }> {
  const page = await forwardedPage(gateway, redirect);
  return backAtGateway(gateway, await oppShopper(processor)(page, choice));
}
