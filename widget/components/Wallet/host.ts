/**
 * The page's side of a wallet with a sheet (WALLETA, WALLETB, WALLETC): the wallet block of
 * `wpwlOptions` (`walletA`, …) read for the button and the sheet, the sheet opened in the widget's
 * modal, the merchant's callbacks (`onPaymentDataChanged`, `onPaymentAuthorized`) between the
 * sheet's messages, and the payment's fields from the sheet's paymentData.
 *
 * The sheet (frames/wallet-sheet.html, gateway origin) shows the order, lists the simulator's test
 * cards, collects the billing address and gets the token from the gateway itself; the page only
 * ever sees the token, the card's network, type and last four digits, and the address.
 */
import { charges, type Money, shownMoney } from '../../core/amount';
import type { Fields } from '../../core/api';
import { brandName } from '../../core/brands';
import type { WidgetContext } from '../../core/context';
import {
  type Bare,
  type BillingAddress,
  type CallbackTrigger,
  type DataError,
  type HostToSheet,
  isWalletMessage,
  type PaymentData,
  SHEET_PATH,
  type SheetInit,
  type SheetOptions,
  type SheetToHost,
  sheetHash,
  type TransactionInfo,
  WALLET_GROUPS,
  WALLET_NS,
  type WalletGroup,
} from '../../frames/wallet-protocol';
import { fill, resolveLocale } from '../../language';
import { customerName } from '../internal/names';
import { challengeSize, type ModalFlow } from '../internal/redirect';
import { direct, type Send } from '../internal/submit';

type Block = Readonly<Record<string, unknown>>;

export const walletGroup = (brand: string): WalletGroup => WALLET_GROUPS[brand] ?? 'walletA';

/** `wpwlOptions[group]`, or an empty block. */
export function walletBlock(options: unknown, group: WalletGroup): Block {
  const block = (options as Record<string, unknown> | null | undefined)?.[group];
  return block !== null && typeof block === 'object' ? (block as Block) : {};
}

/** A JSON copy (functions and anything postMessage cannot clone dropped); undefined when there is none. */
export function plain<T>(value: unknown): T | undefined {
  try {
    return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as T);
  } catch {
    return undefined;
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The block as the sheet gets it: a JSON copy without the callbacks (the sheet checks each field). */
export const sheetOptions = (block: Block): SheetOptions => plain<SheetOptions>(block) ?? {};

/**
 * `walletC.buttonColor`'s values, as the wallet whose block it is names them (`Gold`, `LightGray`,
 * `DarkGray`), and the plain `black` and `white` of the other wallets' buttons; each has its
 * `wpwl-button-color-<value>` rule in paymentWidgets.css. Any other value leaves the widget's colours.
 */
export const BUTTON_COLORS = ['gold', 'lightgray', 'darkgray', 'black', 'white'] as const;

/** The button's extra classes and attributes: `wpwl-button-color-<buttonColor>`, placement, productType. */
export function buttonLook(block: Block): { cls: string; attrs: Record<string, string> } {
  const attrs: Record<string, string> = {};
  const placement = str(block.placement);
  const productType = str(block.productType);
  if (placement) attrs['data-placement'] = placement;
  if (productType) attrs['data-product-type'] = productType;
  const color = str(block.buttonColor)?.toLowerCase();
  const known = (BUTTON_COLORS as readonly string[]).includes(color ?? '');
  return { cls: known ? ` wpwl-button-color-${color}` : '', attrs };
}

/**
 * What the wallet shows before a checkout exists (fast checkout): its block's `amount` and
 * `currencyCode`, else `wpwlOptions.checkout`. `ledgerCurrency` is the merchant's ledger, never
 * the currency shown.
 */
export function fastMoney(ctx: Pick<WidgetContext, 'options' | 'settings'>, group: WalletGroup): Money {
  const block = walletBlock(ctx.options, group);
  const amount = str(block.amount) ?? (typeof block.amount === 'number' ? String(block.amount) : undefined);
  return {
    amount: amount ?? ctx.settings.checkoutAmount,
    currency: str(block.currencyCode) ?? ctx.settings.checkoutCurrency,
  };
}

/** What the sheet needs to start: the wallet, the checkout, the order, the language. */
export function initMessage(ctx: WidgetContext, group: WalletGroup, checkoutId: string): Bare<SheetInit> {
  const block = walletBlock(ctx.options, group);
  const session = ctx.checkout.session.peek();
  // The sheet opens once the checkout exists: it shows what the checkout charges.
  const { amount, currency } = session ? shownMoney(ctx.settings, session) : fastMoney(ctx, group);
  const language = str(block.checkoutLanguage);
  return {
    t: 'init',
    wallet: group,
    checkoutId,
    options: sheetOptions(block),
    amount,
    currency,
    locale: language ? resolveLocale(language) : ctx.locale,
  };
}

const call = async (block: Block, name: string, arg: unknown): Promise<Block> => {
  const fn = block[name];
  return ((typeof fn === 'function' ? await fn.call(block, arg) : undefined) ?? {}) as Block;
};

/** onPaymentDataChanged's answer as an `update` for the sheet; a failing callback changes nothing. */
export async function dataChanged(
  block: Block,
  id: number,
  callbackTrigger: CallbackTrigger,
  billingAddress: BillingAddress | undefined,
): Promise<Bare<HostToSheet>> {
  let result: Block = {};
  try {
    result = await call(
      block,
      'onPaymentDataChanged',
      billingAddress ? { callbackTrigger, billingAddress } : { callbackTrigger },
    );
  } catch (error) {
    console.error('onPaymentDataChanged', error);
  }
  return {
    t: 'update',
    id,
    transactionInfo: plain<TransactionInfo>(result.newTransactionInfo),
    error: plain<DataError>(result.error),
  };
}

/**
 * onPaymentAuthorized's verdict: no callback is SUCCESS; anything but `{transactionState:
 * 'SUCCESS'}` (ERROR, nothing, a throw, a rejection) is an error, with the page's message if any.
 */
export async function authorize(block: Block, paymentData: PaymentData): Promise<true | string | undefined> {
  if (typeof block.onPaymentAuthorized !== 'function') return true;
  try {
    const result = await call(block, 'onPaymentAuthorized', paymentData);
    return result.transactionState === 'SUCCESS' || str((result.error as Block | undefined)?.message);
  } catch (error) {
    console.error('onPaymentAuthorized', error);
    return undefined;
  }
}

/** The sheet's paymentData (a JSON copy), when it carries a token. */
export function readPaymentData(value: unknown): PaymentData | undefined {
  const data = plain<PaymentData>(value);
  return str(data?.paymentMethodData?.tokenizationData?.token) ? data : undefined;
}

/**
 * The payment's fields from the sheet's paymentData: `<group>.paymentToken` (walletA also
 * cardNetwork and cardType, as the spec lists them), the billing address as billing.*, and the name
 * and phone as customer.* (given names, then the last word as surname).
 */
export function walletFields(group: WalletGroup, data: PaymentData): Fields {
  const method = data.paymentMethodData;
  const out: [string, string][] = [[`${group}.paymentToken`, method.tokenizationData.token]];
  const add = (name: string, value: unknown) => {
    const v = typeof value === 'string' ? value.trim() : '';
    if (v) out.push([name, v]);
  };
  if (group === 'walletA') {
    add('walletA.cardNetwork', method.info?.cardNetwork);
    add('walletA.cardType', method.info?.cardType);
  }
  const a = data.billingAddress;
  if (a) {
    add('billing.street1', a.address1);
    add('billing.city', a.locality);
    add('billing.postcode', String(a.postalCode ?? '').replace(/[\s-]/g, ''));
    add('billing.country', String(a.countryCode ?? '').toUpperCase());
    for (const [name, value] of customerName(String(a.name ?? ''))) add(name, value);
    add('customer.phone', a.phoneNumber);
  }
  return out;
}

export interface SheetHandlers {
  readonly block: Block;
  readonly init: Bare<SheetInit>;
  /** onPaymentAuthorized said SUCCESS: close the sheet and pay; `total` is what the sheet showed last. */
  readonly done: (paymentData: PaymentData, total: Money) => void;
  readonly cancel: () => void;
}

/** The host's answers to the sheet's messages (their window and origin already checked). */
export function sheetMessages(h: SheetHandlers): (data: unknown, reply: (message: unknown) => void) => void {
  let authorizing = false;
  // The total the sheet shows: the init's, then each totalPrice onPaymentDataChanged gives it.
  let total: Money = {
    amount: h.init.options.prefetchPriceStatus === 'NOT_CURRENTLY_KNOWN' ? undefined : h.init.amount,
    currency: h.init.currency,
  };
  return (data, reply) => {
    if (!isWalletMessage(data)) return;
    const send = (message: Bare<HostToSheet>) => reply({ ns: WALLET_NS, ...message });
    const m = data as SheetToHost;
    switch (m.t) {
      case 'ready':
        send(h.init);
        break;
      case 'data-changed':
        if (typeof m.id !== 'number') return;
        void dataChanged(
          h.block,
          m.id,
          m.callbackTrigger === 'BILLING_ADDRESS' ? 'BILLING_ADDRESS' : 'INITIALIZE',
          plain<BillingAddress>(m.billingAddress),
        ).then((update) => {
          const info = update.t === 'update' ? update.transactionInfo : undefined;
          if (info?.totalPrice !== undefined)
            total = { amount: info.totalPrice, currency: info.currencyCode ?? total.currency };
          send(update);
        });
        break;
      case 'authorize': {
        if (authorizing) return;
        const paymentData = readPaymentData(m.paymentData);
        if (paymentData === undefined) {
          send({ t: 'authorized', transactionState: 'ERROR' });
          return;
        }
        authorizing = true;
        void authorize(h.block, paymentData).then((verdict) => {
          authorizing = false;
          if (verdict === true) h.done(paymentData, total);
          else send({ t: 'authorized', transactionState: 'ERROR', message: verdict });
        });
        break;
      }
      case 'cancel':
        h.cancel();
        break;
    }
  };
}

let sheets = 0;

/** What the shopper authorized in the sheet, and the total it showed them. */
export interface Authorized {
  readonly paymentData: PaymentData;
  readonly total: Money;
}

/**
 * Opens the sheet for a checkout in the widget's modal; resolves with the paymentData the page
 * authorized, or undefined when the shopper cancelled (the sheet's Cancel, the modal's close, Escape).
 */
export function openSheet(
  ctx: WidgetContext,
  brand: string,
  checkoutId: string,
): Promise<Authorized | undefined> {
  const group = walletGroup(brand);
  return new Promise((resolve) => {
    let result: Authorized | undefined;
    const flow: ModalFlow = {
      name: `wpwl-sheet-${++sheets}`,
      title: fill(ctx.strings.labels.payWith, { brand: brandName(brand) }),
      size: challengeSize(undefined, ctx.win),
      src: new URL(SHEET_PATH, ctx.apiBase).href + sheetHash(ctx.pageOrigin),
      receive: sheetMessages({
        block: walletBlock(ctx.options, group),
        init: initMessage(ctx, group, checkoutId),
        done: (paymentData, total) => {
          result = { paymentData, total };
          flow.end('complete');
        },
        cancel: () => flow.end('cancel'),
      }),
      end: () => {
        if (ctx.modal.peek() === flow) ctx.modal.value = null;
        resolve(result);
      },
    };
    ctx.modal.value = flow;
  });
}

/** A wallet form's send: the sheet, then the payment with the wallet's fields. */
export function walletSend(ctx: WidgetContext, brand: string): Send {
  const post = direct(ctx);
  return async (checkoutId, kind, fields) => {
    const authorized = await openSheet(ctx, brand, checkoutId);
    if (authorized === undefined) return { kind: 'cancelled' };
    // onPaymentDataChanged may have changed the total the shopper agreed to: never charge another.
    if (!charges(authorized.total, shownMoney(ctx.settings, ctx.checkout.session.peek())))
      return { kind: 'amountChanged' };
    const wallet = walletFields(walletGroup(brand), authorized.paymentData);
    const own = new Set(wallet.map(([name]) => name));
    const [brandField, ...rest] = fields;
    const others = rest.filter(([name]) => !own.has(name));
    return post(checkoutId, kind, brandField ? [brandField, ...wallet, ...others] : [...wallet, ...others]);
  };
}
