/**
 * Messages between the shop page (host) and the simulated wallet sheet, a gateway-origin frame
 * document shown in the widget's modal (`/v1/widget/frames/wallet-sheet.html`). Both sides check
 * origin and window on every message, as with the card-field frames: the host sends to the
 * gateway origin and accepts only the sheet iframe's window with that origin; the sheet sends to
 * the page origin its address declares (and the browser confirms through ancestorOrigins) and
 * accepts only `window.parent` with that origin.
 *
 *   host → sheet  init          {wallet, checkoutId, options, amount, currency, locale}
 *   sheet → host  data-changed  {id, callbackTrigger: INITIALIZE | BILLING_ADDRESS, billingAddress?}
 *   host → sheet  update        {id, transactionInfo?, error?}   onPaymentDataChanged's answer
 *   sheet → host  authorize     {paymentData}                    after the sheet got its token
 *   host → sheet  authorized    {transactionState: ERROR, message?}   the sheet stays open
 *   sheet → host  cancel
 *
 * A SUCCESS is never sent: the host closes the sheet and submits the payment. `options` is the
 * page's wallet block as a JSON copy (its callbacks stay on the page); the sheet checks every field
 * it reads, as it does the page's `update` (displayItems, transactionInfo, dataError below).
 */

/** Marks every message of this protocol (not the card fields' `wpwl:1`). */
export const WALLET_NS = 'wpwl-wallet:1';

export type WalletGroup = 'walletA' | 'walletB' | 'walletC';

/** Brand → parameter group (the spec's walletA, walletB, walletC). */
export const WALLET_GROUPS: Readonly<Record<string, WalletGroup>> = {
  WALLETA: 'walletA',
  WALLETB: 'walletB',
  WALLETC: 'walletC',
};

/** The sheet document, relative to the gateway's `/v1/`. */
export const SHEET_PATH = 'widget/frames/wallet-sheet.html';

export interface DisplayItem {
  readonly label: string;
  readonly type: string;
  readonly price: string;
}

/** The wallet block of `wpwlOptions` as the sheet reads it (what the page wrote; checked there). */
export interface SheetOptions {
  readonly merchantName?: string;
  readonly merchantId?: string;
  readonly gatewayMerchantId?: string;
  readonly currencyCode?: string;
  readonly prefetchPriceStatus?: string;
  readonly amount?: string;
  readonly displayItems?: readonly DisplayItem[];
  readonly billingAddressRequired?: boolean;
  readonly billingAddressParameters?: {
    readonly format: 'MIN' | 'FULL';
    readonly phoneNumberRequired: boolean;
  };
  readonly ledgerCurrency?: string;
  readonly sandbox?: boolean;
  readonly checkoutLanguage?: string;
  readonly productType?: string;
  readonly placement?: string;
  readonly buttonColor?: string;
}

/** The address the sheet collects (MIN: name, postcode, country; FULL adds street and city). */
export interface BillingAddress {
  readonly name: string;
  readonly address1?: string;
  readonly locality?: string;
  readonly postalCode: string;
  readonly countryCode: string;
  readonly phoneNumber?: string;
}

export interface PaymentData {
  readonly paymentMethodData: {
    readonly type: 'CARD';
    readonly description: string;
    readonly info: { readonly cardNetwork: string; readonly cardDetails: string; readonly cardType?: string };
    readonly tokenizationData: { readonly type: 'PAYMENT_GATEWAY'; readonly token: string };
  };
  readonly billingAddress?: BillingAddress;
  readonly email?: string;
}

export type CallbackTrigger = 'INITIALIZE' | 'BILLING_ADDRESS';

export interface TransactionInfo {
  readonly totalPrice?: string;
  readonly currencyCode?: string;
  readonly displayItems?: readonly DisplayItem[];
}

export interface DataError {
  readonly reason?: string;
  readonly message?: string;
  readonly intent?: string;
}

export interface SheetInit {
  readonly ns: typeof WALLET_NS;
  readonly t: 'init';
  readonly wallet: WalletGroup;
  readonly checkoutId: string;
  readonly options: SheetOptions;
  readonly amount?: string;
  readonly currency?: string;
  /** One of the widget's language codes. */
  readonly locale: string;
}

export type HostToSheet =
  | SheetInit
  | {
      readonly ns: typeof WALLET_NS;
      readonly t: 'update';
      readonly id: number;
      readonly transactionInfo?: TransactionInfo;
      readonly error?: DataError;
    }
  | {
      readonly ns: typeof WALLET_NS;
      readonly t: 'authorized';
      readonly transactionState: 'ERROR';
      /** The page's message; the sheet shows its own when there is none. */
      readonly message?: string;
    };

export type SheetToHost =
  | { readonly ns: typeof WALLET_NS; readonly t: 'ready' }
  | {
      readonly ns: typeof WALLET_NS;
      readonly t: 'data-changed';
      readonly id: number;
      readonly callbackTrigger: CallbackTrigger;
      readonly billingAddress?: BillingAddress;
    }
  | { readonly ns: typeof WALLET_NS; readonly t: 'authorize'; readonly paymentData: PaymentData }
  | { readonly ns: typeof WALLET_NS; readonly t: 'cancel' };

/** A message without its `ns` (distributes over unions). */
export type Bare<M> = M extends unknown ? Omit<M, 'ns'> : never;

export const isWalletMessage = (data: unknown): data is { ns: typeof WALLET_NS; t: string } =>
  data !== null && typeof data === 'object' && (data as { ns?: unknown }).ns === WALLET_NS;

const text = (v: unknown, max = 200): string | undefined =>
  typeof v === 'string' && v.length <= max ? v : undefined;

/** Display items as the sheet shows them: label, type and price strings, at most 50. */
export function displayItems(value: unknown): DisplayItem[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: DisplayItem[] = [];
  for (const item of value.slice(0, 50)) {
    const o = (item ?? {}) as Record<string, unknown>;
    const label = text(o.label);
    const price = typeof o.price === 'number' ? String(o.price) : text(o.price, 32);
    if (label !== undefined && price !== undefined)
      out.push({ label, type: text(o.type, 32) ?? 'LINE_ITEM', price });
  }
  return out;
}

/** `onPaymentDataChanged`'s newTransactionInfo, strings only. */
export function transactionInfo(value: unknown): TransactionInfo | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const o = value as Record<string, unknown>;
  const price = typeof o.totalPrice === 'number' ? String(o.totalPrice) : text(o.totalPrice, 32);
  return {
    totalPrice: price,
    currencyCode: text(o.currencyCode, 3),
    displayItems: displayItems(o.displayItems),
  };
}

/** An error of onPaymentDataChanged, strings only. */
export function dataError(value: unknown): DataError | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const o = value as Record<string, unknown>;
  return { reason: text(o.reason, 64), message: text(o.message, 500), intent: text(o.intent, 64) };
}

/** The sheet's address parameters (in the fragment, so the document stays one cacheable file). */
export const sheetHash = (pageOrigin: string): string => `#${new URLSearchParams({ o: pageOrigin })}`;

export function readSheetHash(hash: string): string | undefined {
  const origin = new URLSearchParams(hash.replace(/^#/, '')).get('o') ?? '';
  try {
    return new URL(origin).origin === origin ? origin : undefined;
  } catch {
    return undefined;
  }
}
