/**
 * The widget's side of the Checkout API: the session read, the payment post (for the forms that
 * hold no card data; card numbers go from the card-field frame straight to the gateway), how an
 * answer is classified, and where the shopper goes afterwards.
 */
import type {
  CheckoutSession,
  CheckoutSessionAnswer,
  ParameterError as ContractParameterError,
  OfferedRegistration,
  PublicPaymentView,
  Redirect,
  Result,
} from '../../shared/contract';

export type CheckoutKind = CheckoutSessionAnswer['kind'];

/** A stored card the session offers: its brand and last four digits, nothing that names its owner. */
export type StoredRegistration = Pick<OfferedRegistration, 'id' | 'paymentBrand'> & {
  readonly card?: Partial<NonNullable<OfferedRegistration['card']>>;
  /** The channel asks for this card's CVV: the one-click form draws the CVV frame for it. */
  readonly cvvRequired?: boolean;
};

/** The session (shared/contract/checkout.ts) as the widget keeps it: read leniently, brands upper-cased. */
export interface Session {
  readonly id: string;
  readonly kind: CheckoutKind;
  readonly state: CheckoutSessionAnswer['state'];
  readonly expiresAt?: string;
  readonly amount?: string;
  readonly currency?: string;
  readonly paymentType?: string;
  readonly shopperResultUrl?: string;
  readonly registrations: readonly StoredRegistration[];
  readonly result?: { readonly code: string; readonly description: string };
  /** The latest submission's result (after a 3-D Secure challenge or a redirect flow: its outcome). */
  readonly lastResult?: { readonly code: string; readonly description?: string };
  /**
   * The brands the checkout's channel accepts, when it restricts them; absent: every brand. The
   * widget draws only the data-brands that are also here.
   */
  readonly brands?: readonly string[];
  /**
   * The billing fields (`street1`, `city`, `postcode`, `country`) the checkout lacks while its
   * channel authenticates shoppers with 3-D Secure: an enrolled card's payment needs them, one that
   * is not enrolled does not. A hint: the card form asks for them only once the gateway does.
   */
  readonly authenticationBillingFields?: readonly string[];
}

/**
 * A parameter error of the contract, read leniently: the name, and (null for a missing parameter:
 * what the gateway asks for, e.g. a v2 billing field) the value and message when given.
 */
export type ParameterError = Pick<ContractParameterError, 'name'> &
  Partial<Pick<ContractParameterError, 'value' | 'message'>>;

/**
 * The parts of a payment answer the widget reads (never card data): a submission's public view
 * (shared/contract/checkout.ts) or a refusal's envelope, each part possibly missing.
 */
export interface PaymentAnswer {
  readonly id?: PublicPaymentView['id'];
  readonly result?: Partial<Pick<Result, 'code' | 'description'>> & {
    readonly parameterErrors?: readonly ParameterError[];
  };
  readonly redirect?: Redirect;
}

export interface Answer {
  readonly status: number;
  readonly body: PaymentAnswer | undefined;
}

export type Fields = readonly (readonly [string, string])[];

/** Checkout ids: letters, digits, dots and hyphens (the family's pattern), at most 64 characters. */
export const CHECKOUT_ID = /^[A-Za-z0-9.-]{1,64}$/;

export const resourcePath = (checkoutId: string, kind: CheckoutKind): string =>
  `/v1/checkouts/${checkoutId}/${kind}`;

/** The submit path relative to the gateway's `/v1/`. */
export const submitPath = (checkoutId: string, kind: CheckoutKind): string =>
  `checkouts/${encodeURIComponent(checkoutId)}/${kind}`;

export type SessionRead =
  | { readonly kind: 'ok'; readonly session: Session }
  | { readonly kind: 'notFound' }
  | { readonly kind: 'error'; readonly message: string };

function asSession(id: string, raw: unknown): Session {
  // the contract's shape, every part checked: the answer comes over the network
  const o = (raw ?? {}) as Partial<Record<keyof CheckoutSession, unknown>>;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const state = o.state === 'completed' || o.state === 'expired' ? o.state : 'open';
  return {
    id: text(o.id) ?? id,
    kind: o.kind === 'registration' ? 'registration' : 'payment',
    state,
    expiresAt: text(o.expiresAt),
    amount: text(o.amount),
    currency: text(o.currency),
    paymentType: text(o.paymentType),
    shopperResultUrl: text(o.shopperResultUrl),
    registrations: Array.isArray(o.registrations)
      ? (o.registrations as StoredRegistration[]).filter(
          (r) => r && typeof r.id === 'string' && typeof r.paymentBrand === 'string',
        )
      : [],
    result: o.result as Session['result'],
    lastResult: asResult(o.lastResult),
    brands: Array.isArray(o.brands)
      ? o.brands.filter((b): b is string => typeof b === 'string').map((b) => b.toUpperCase())
      : undefined,
    authenticationBillingFields: Array.isArray(o.authenticationBillingFields)
      ? o.authenticationBillingFields.filter((f): f is string => typeof f === 'string')
      : undefined,
  };
}

function asResult(raw: unknown): Session['lastResult'] {
  const o = (raw ?? {}) as Partial<Record<keyof NonNullable<CheckoutSession['lastResult']>, unknown>>;
  if (typeof o.code !== 'string') return undefined;
  return { code: o.code, description: typeof o.description === 'string' ? o.description : undefined };
}

export async function readSession(
  apiBase: string,
  checkoutId: string,
  fetchImpl = fetch,
): Promise<SessionRead> {
  try {
    const url = new URL(`checkouts/${encodeURIComponent(checkoutId)}/session`, apiBase).href;
    const res = await fetchImpl(url, { credentials: 'omit', headers: { Accept: 'application/json' } });
    if (res.status === 404) return { kind: 'notFound' };
    if (!res.ok) return { kind: 'error', message: `session read answered HTTP ${res.status}` };
    return { kind: 'ok', session: asSession(checkoutId, await res.json()) };
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}

export const formBody = (fields: Fields): string =>
  new URLSearchParams(fields as [string, string][]).toString();

/** Posts a form that carries no card data (SEPA, virtual account, gift card, redirect brands, one-click). */
export async function postCheckout(
  apiBase: string,
  checkoutId: string,
  kind: CheckoutKind,
  fields: Fields,
  fetchImpl = fetch,
): Promise<Answer> {
  const res = await fetchImpl(new URL(submitPath(checkoutId, kind), apiBase).href, {
    method: 'POST',
    credentials: 'omit',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8',
      Accept: 'application/json',
    },
    body: formBody(fields),
  });
  let body: PaymentAnswer | undefined;
  try {
    body = (await res.json()) as PaymentAnswer;
  } catch {
    body = undefined;
  }
  return { status: res.status, body };
}

export type Outcome = 'done' | 'redirect' | 'invalid' | 'declined' | 'notFound' | 'error';

/**
 * HTTP 200 is a final answer (success or pending): the shopper leaves, through `redirect.url` when
 * the method needs shopper steps. 400 with parameterErrors is a form to fix; any other 400 a decline
 * (or a closed checkout: the caller reads the session again to tell).
 */
export function classify(answer: Answer): Outcome {
  if (answer.status >= 200 && answer.status < 300) return answer.body?.redirect?.url ? 'redirect' : 'done';
  if (answer.status === 404) return 'notFound';
  if (answer.status === 400) return answer.body?.result?.parameterErrors?.length ? 'invalid' : 'declined';
  return 'error';
}

/**
 * Where the shopper goes after a final answer: the merchant form's `action` (or, without one, the
 * checkout's shopperResultUrl; without both, this page) with `id` and `resourcePath` added.
 */
export function resultUrl(
  action: string | null | undefined,
  shopperResultUrl: string | undefined,
  checkoutId: string,
  kind: CheckoutKind,
  pageUrl: string,
): string | undefined {
  const target = action?.trim() || shopperResultUrl || pageUrl;
  let url: URL;
  try {
    url = new URL(target, pageUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  url.searchParams.set('id', checkoutId);
  url.searchParams.set('resourcePath', resourcePath(checkoutId, kind));
  return url.href;
}
