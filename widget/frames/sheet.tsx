/**
 * The simulated wallet sheet (frames/wallet-sheet.html, gateway origin), shown in the widget's
 * modal: the wallet's name, the merchant, the order's items and total, the simulator's test cards
 * (`GET /simulators/wallets/cards`), a billing address when the page asks for one, and Pay / Cancel.
 * Pay gets a token for the chosen card from the gateway (`POST /simulators/wallets/token`,
 * same-origin) and hands the page the paymentData; the page's onPaymentAuthorized decides, and an
 * ERROR keeps the sheet open with its message. Protocol and checks: wallet-protocol.ts.
 *
 * Parts: `bind` (the address), `readInit` / `begin` (the page's init: options checked, texts and
 * cards fetched), `dataChanged` / `addressChanged` / `applyUpdate` (onPaymentDataChanged), `pay` /
 * `requestToken` (the token and the paymentData), `handlers` (the shopper's input), `hostListener`
 * (the page's messages). State and checks: sheet-model.ts; markup: sheet-view.tsx.
 */
import { render } from 'preact';
import type { WalletToken } from '../../shared/contract/reads';
import { bcp47, EN_WALLET, fill, isRtl, resolveLocale } from '../language';
import {
  billingFields,
  checkField,
  type Field,
  loadTexts,
  readCards,
  type SheetEnv,
  type State,
  toAddress,
  type WalletCard,
  walletName,
} from './sheet-model';
import { type Handlers, View } from './sheet-view';
import {
  type Bare,
  type BillingAddress,
  type CallbackTrigger,
  dataError,
  displayItems,
  type HostToSheet,
  isWalletMessage,
  type PaymentData,
  readSheetHash,
  type SheetInit,
  type SheetToHost,
  transactionInfo,
  WALLET_GROUPS,
  WALLET_NS,
} from './wallet-protocol';

/** One sheet: its state and what its parts share. */
interface Sheet {
  readonly env: SheetEnv;
  readonly s: State;
  readonly doc: Document;
  /** The gateway's root (the frame lives in `/v1/widget/frames/`). */
  readonly root: URL;
  readonly send: (m: Bare<SheetToHost>) => void;
  readonly update: () => void;
  /** The last data-changed id. */
  next: number;
  /** The last address the page was told, as JSON. */
  sentAddress: string;
  /** Pay was pressed while the page was still answering a data change. */
  queued: boolean;
}

/**
 * The page's origin, read from the frame's address; undefined when the address names none, or when
 * the declared page origin is not the real one (where the browser tells it).
 */
function bind(env: SheetEnv): string | undefined {
  const origin = readSheetHash(new URL(env.href).hash);
  if (origin === undefined) return undefined;
  if (env.ancestorOrigin !== undefined && env.ancestorOrigin !== origin) return undefined;
  return origin;
}

const emptyState = (): State => ({
  init: null,
  texts: EN_WALLET,
  locale: 'en',
  cards: 'loading',
  card: '',
  values: {},
  errors: {},
  order: { amount: undefined, currency: undefined, items: [] },
  pending: 0,
  dataError: '',
  busy: false,
  message: '',
});

const fields = (sh: Sheet): Field[] => (sh.s.init ? billingFields(sh.s.init) : []);
const complete = (sh: Sheet) =>
  fields(sh).every((f) => checkField(f, sh.s.values[f] ?? '', sh.s.texts) === undefined);

/** Asks the page's onPaymentDataChanged; only the answer to the latest ask counts. */
function dataChanged(sh: Sheet, callbackTrigger: CallbackTrigger, billingAddress?: BillingAddress): void {
  sh.s.pending = ++sh.next;
  sh.send({ t: 'data-changed', id: sh.next, callbackTrigger, ...(billingAddress ? { billingAddress } : {}) });
}

/** Tells the page about a complete address that it has not seen; true when it did. */
function addressChanged(sh: Sheet): boolean {
  if (fields(sh).length === 0 || !complete(sh)) return false;
  const address = toAddress(fields(sh), sh.s.values);
  const key = JSON.stringify(address);
  if (key === sh.sentAddress) return false;
  sh.sentAddress = key;
  dataChanged(sh, 'BILLING_ADDRESS', address);
  return true;
}

/** The page's options arrive as it wrote them (a JSON copy): each field is checked here. */
function readInit(message: SheetInit): SheetInit {
  const o = message.options ?? {};
  const text = (v: unknown, max = 100) =>
    typeof v === 'number' ? String(v) : typeof v === 'string' && v.length <= max ? v : undefined;
  return {
    ...message,
    wallet: WALLET_GROUPS[`WALLET${String(message.wallet).slice(-1)}`] ?? 'walletA',
    checkoutId: String(message.checkoutId),
    amount: text(message.amount, 32),
    currency: text(message.currency, 3),
    options: {
      ...o,
      merchantName: text(o.merchantName),
      displayItems: displayItems(o.displayItems) ?? [],
    },
  };
}

/** The page's init: language and order shown, texts and test cards fetched (at once, side by side). */
function begin(sh: Sheet, message: SheetInit): void {
  const { s, doc, env } = sh;
  const init = readInit(message);
  const locale = resolveLocale(init.locale);
  s.init = init;
  s.locale = locale;
  doc.documentElement.lang = bcp47(locale);
  doc.documentElement.dir = isRtl(locale) ? 'rtl' : 'ltr';
  s.order = {
    amount: init.options.prefetchPriceStatus === 'NOT_CURRENTLY_KNOWN' ? undefined : init.amount,
    currency: init.currency,
    items: init.options.displayItems ?? [],
  };
  void loadTexts(locale, env.href, env.fetch).then((texts) => {
    s.texts = texts;
    doc.title = fill(texts.title, { wallet: walletName(init.wallet) });
    sh.update();
  });
  void env
    .fetch(new URL('simulators/wallets/cards', sh.root).href, {
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    })
    .then(async (res) => (res.ok ? readCards(await res.json()) : []))
    .catch(() => [])
    .then((list) => {
      s.cards = list.length ? list : 'error';
      s.card = list[0]?.id ?? '';
      sh.update();
    });
  dataChanged(sh, 'INITIALIZE');
}

/** Checks every billing field; false (focus on the first invalid one) when one is wrong. */
function checkBilling(sh: Sheet): boolean {
  const { s } = sh;
  s.errors = {};
  for (const f of fields(sh)) {
    const m = checkField(f, s.values[f] ?? '', s.texts);
    if (m !== undefined) s.errors[f] = m;
  }
  const first = fields(sh).find((f) => s.errors[f] !== undefined);
  if (first === undefined) return true;
  sh.update();
  sh.doc.getElementById(first)?.focus();
  return false;
}

/**
 * The simulator's token for the chosen card (the contract's WalletToken), or undefined. Read as
 * partial: the sheet shows what came and falls back to the chosen card for the rest.
 */
async function requestToken(
  sh: Sheet,
  init: SheetInit,
  chosen: WalletCard,
): Promise<Partial<WalletToken> | undefined> {
  try {
    const res = await sh.env.fetch(new URL('simulators/wallets/token', sh.root).href, {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8',
        Accept: 'application/json',
      },
      body: new URLSearchParams({
        wallet: init.wallet,
        checkoutId: init.checkoutId,
        card: chosen.id,
      }).toString(),
    });
    if (res.ok) return (await res.json()) as Partial<WalletToken>;
  } catch {
    // No token: the sheet says so.
  }
  return undefined;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** What the page's onPaymentAuthorized receives. */
function paymentData(sh: Sheet, chosen: WalletCard, token: Partial<WalletToken>): PaymentData {
  return {
    paymentMethodData: {
      type: 'CARD',
      description: chosen.label,
      info: {
        cardNetwork: text(token.cardNetwork) || chosen.network,
        cardDetails: text(token.last4),
        cardType: text(token.cardType) || chosen.type,
      },
      tokenizationData: { type: 'PAYMENT_GATEWAY', token: text(token.paymentToken) },
    },
    ...(fields(sh).length ? { billingAddress: toAddress(fields(sh), sh.s.values) } : {}),
  };
}

/** Pay: the address checked (and told to the page first), a token, then `authorize` to the page. */
async function pay(sh: Sheet): Promise<void> {
  const { s } = sh;
  const init = s.init;
  if (init === null || s.busy) return;
  if (!checkBilling(sh)) return;
  if (addressChanged(sh) || s.pending !== 0) {
    // Pay once the page has answered the data change (unless it refuses the data).
    sh.queued = true;
    s.busy = true;
    sh.update();
    return;
  }
  const chosen = Array.isArray(s.cards) ? s.cards.find((c) => c.id === s.card) : undefined;
  if (s.dataError || chosen === undefined) return;
  s.busy = true;
  s.message = '';
  sh.update();
  const token = await requestToken(sh, init, chosen);
  if (!token || !text(token.paymentToken)) {
    s.busy = false;
    s.message = s.texts.tokenError;
    sh.update();
    return;
  }
  // Busy until the page answers: an ERROR comes back here, a SUCCESS closes the sheet.
  sh.send({ t: 'authorize', paymentData: paymentData(sh, chosen, token) });
}

/** The shopper's input: values, leaving a field (checked, the address told), the card, Pay, Cancel. */
function handlers(sh: Sheet): Handlers {
  const { s } = sh;
  return {
    input(field, value) {
      s.values = { ...s.values, [field]: value };
      if (s.errors[field] !== undefined)
        s.errors = { ...s.errors, [field]: checkField(field, value, s.texts) };
      sh.update();
    },
    leave(field) {
      const value = s.values[field] ?? '';
      if (value !== '' || s.errors[field] !== undefined)
        s.errors = { ...s.errors, [field]: checkField(field, value, s.texts) };
      addressChanged(sh);
      sh.update();
    },
    card(id) {
      s.card = id;
      sh.update();
    },
    pay: () => void pay(sh),
    cancel: () => sh.send({ t: 'cancel' }),
  };
}

/** The page's answer to the latest data change: its error blocks Pay, its transaction info is shown. */
function applyUpdate(sh: Sheet, m: Extract<HostToSheet, { t: 'update' }>): void {
  const { s } = sh;
  s.pending = 0;
  const error = dataError(m.error);
  s.dataError = error ? error.message || s.texts.updateError : '';
  const info = transactionInfo(m.transactionInfo);
  if (info && !error) {
    s.order = {
      amount: info.totalPrice ?? s.order.amount,
      currency: info.currencyCode ?? s.order.currency,
      items: info.displayItems ?? s.order.items,
    };
  }
  if (sh.queued) {
    sh.queued = false;
    s.busy = false;
    if (!s.dataError) void pay(sh);
  }
}

/** The page's messages, from `window.parent` with the bound origin only. */
function hostListener(sh: Sheet, origin: string) {
  const { s } = sh;
  return (event: MessageEvent) => {
    if (event.source !== sh.env.parent || event.origin !== origin || !isWalletMessage(event.data)) return;
    const m = event.data as HostToSheet;
    if (m.t === 'init') {
      if (s.init === null) begin(sh, m);
    } else if (m.t === 'update') {
      // Only the answer to the latest change counts.
      if (s.pending === 0 || m.id !== s.pending) return;
      applyUpdate(sh, m);
    } else if (m.t === 'authorized') {
      s.busy = false;
      s.message = (typeof m.message === 'string' && m.message) || s.texts.authorizeError;
    } else {
      return;
    }
    sh.update();
  };
}

/** Starts the sheet; returns a stop function, or undefined when the frame refuses to run. */
export function startSheet(env: SheetEnv): (() => void) | undefined {
  const origin = bind(env);
  if (origin === undefined) return undefined;
  const s = emptyState();
  let on: Handlers;
  const sh: Sheet = {
    env,
    s,
    doc: env.root.ownerDocument,
    root: new URL('../../../', env.href),
    send: (m) => env.parent.postMessage({ ns: WALLET_NS, ...m }, origin),
    update: () => render(<View s={s} on={on} />, env.root),
    next: 0,
    sentAddress: '',
    queued: false,
  };
  on = handlers(sh);
  const onMessage = hostListener(sh, origin);
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape' || event.key === 'Esc') sh.send({ t: 'cancel' });
  };
  env.window.addEventListener('message', onMessage);
  env.window.addEventListener('keydown', onKey);
  sh.update();
  sh.send({ t: 'ready' });
  return () => {
    env.window.removeEventListener('message', onMessage);
    env.window.removeEventListener('keydown', onKey);
    render(null, env.root);
  };
}
