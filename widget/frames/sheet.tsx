/**
 * The simulated wallet sheet (frames/wallet-sheet.html, gateway origin), shown in the widget's
 * modal: the wallet's name, the merchant, the order's items and total, the simulator's test cards
 * (`GET /simulators/wallets/cards`), a billing address when the page asks for one, and Pay / Cancel.
 * Pay gets a token for the chosen card from the gateway (`POST /simulators/wallets/token`,
 * same-origin) and hands the page the paymentData; the page's onPaymentAuthorized decides, and an
 * ERROR keeps the sheet open with its message. Protocol and checks: wallet-protocol.ts.
 */
import { render } from 'preact';
import { useMemo } from 'preact/hooks';
import { COUNTRIES, isCountry2 } from '../../shared/geo';
import {
  bcp47,
  EN_WALLET,
  fill,
  formatAmount,
  isRtl,
  type Locale,
  pickStrings,
  resolveLocale,
  type WalletTexts,
} from '../language';
import {
  type Bare,
  type BillingAddress,
  type CallbackTrigger,
  type DisplayItem,
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

export interface SheetEnv {
  /** Where messages arrive (the frame's window). */
  readonly window: Window;
  /** The frame's own address (its fragment names the page's origin). */
  readonly href: string;
  /** `window.parent`: the shop page. */
  readonly parent: Pick<Window, 'postMessage'>;
  readonly fetch: typeof fetch;
  /** `location.ancestorOrigins[0]` where the browser offers it. */
  readonly ancestorOrigin?: string | undefined;
  readonly root: HTMLElement;
}

export interface WalletCard {
  readonly id: string;
  readonly label: string;
  readonly network: string;
  readonly type: string;
}

type Field = 'name' | 'street' | 'city' | 'postcode' | 'country' | 'phone';

/** The billing fields the options ask for, in order. */
export function billingFields(init: Pick<SheetInit, 'options'>): Field[] {
  const o = init.options;
  if (o.billingAddressRequired !== true) return [];
  const full = o.billingAddressParameters?.format === 'FULL';
  const fields: Field[] = full
    ? ['name', 'street', 'city', 'postcode', 'country']
    : ['name', 'postcode', 'country'];
  if (o.billingAddressParameters?.phoneNumberRequired === true) fields.push('phone');
  return fields;
}

/** The message for a billing field's value, or undefined when it is fine. */
export function checkField(field: Field, raw: string, texts: WalletTexts): string | undefined {
  const value = raw.trim();
  switch (field) {
    case 'name':
      return /\S+\s+\S+/.test(value) && value.length <= 100
        ? undefined
        : value
          ? texts.nameError
          : texts.required;
    case 'postcode':
      return /^[A-Za-z0-9]{1,16}$/.test(value.replace(/[\s-]/g, '')) ? undefined : texts.postcodeError;
    case 'country':
      return isCountry2(value) ? undefined : texts.countryError;
    case 'phone':
      return /^[+0-9][0-9 .()/-]{4,24}$/.test(value) ? undefined : texts.phoneError;
    default:
      return value ? undefined : texts.required;
  }
}

export function toAddress(fields: readonly Field[], v: Readonly<Record<string, string>>): BillingAddress {
  const get = (f: Field) => (v[f] ?? '').trim();
  return {
    name: get('name').replace(/\s+/g, ' '),
    ...(fields.includes('street') ? { address1: get('street') } : {}),
    ...(fields.includes('city') ? { locality: get('city') } : {}),
    postalCode: get('postcode'),
    countryCode: get('country'),
    ...(fields.includes('phone') ? { phoneNumber: get('phone') } : {}),
  };
}

const AUTOCOMPLETE: Readonly<Record<Field, string>> = {
  name: 'billing name',
  street: 'billing address-line1',
  city: 'billing address-level2',
  postcode: 'billing postal-code',
  country: 'billing country',
  phone: 'billing tel',
};
const MAX: Readonly<Record<Field, number>> = {
  name: 100,
  street: 100,
  city: 80,
  postcode: 16,
  country: 2,
  phone: 25,
};

/** The wallet's texts in a language: English built in, any other fetched from the gateway. */
export async function loadTexts(locale: Locale, href: string, fetchImpl: typeof fetch): Promise<WalletTexts> {
  if (locale === 'en') return EN_WALLET;
  try {
    const res = await fetchImpl(new URL(`../locales/${locale}.json`, href).href, { credentials: 'omit' });
    if (!res.ok) return EN_WALLET;
    return pickStrings(EN_WALLET, ((await res.json()) as { wallet?: unknown }).wallet);
  } catch {
    return EN_WALLET;
  }
}

export function readCards(body: unknown): WalletCard[] {
  const list = (body as { cards?: unknown } | null)?.cards;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (c): c is WalletCard =>
      c !== null &&
      typeof c === 'object' &&
      typeof c.id === 'string' &&
      typeof c.label === 'string' &&
      typeof c.network === 'string' &&
      typeof c.type === 'string',
  );
}

interface Order {
  readonly amount: string | undefined;
  readonly currency: string | undefined;
  readonly items: readonly DisplayItem[];
}

/** Everything the sheet shows; the handlers below change it and render again. */
interface State {
  init: SheetInit | null;
  texts: WalletTexts;
  locale: Locale;
  cards: WalletCard[] | 'loading' | 'error';
  card: string;
  values: Record<string, string>;
  errors: Partial<Record<Field, string>>;
  order: Order;
  /** The data-changed the page has not answered yet (0: none). */
  pending: number;
  /** onPaymentDataChanged's error: the sheet cannot pay until the data changes. */
  dataError: string;
  busy: boolean;
  message: string;
}

const walletName = (group: string) => `Wallet ${group.slice(-1).toUpperCase()}`;

/** Starts the sheet; returns a stop function, or undefined when the frame refuses to run. */
export function startSheet(env: SheetEnv): (() => void) | undefined {
  const origin = readSheetHash(new URL(env.href).hash);
  if (origin === undefined) return undefined;
  // The declared page origin must be the real one where the browser tells us.
  if (env.ancestorOrigin !== undefined && env.ancestorOrigin !== origin) return undefined;
  const doc = env.root.ownerDocument;
  const root = new URL('../../../', env.href);
  const s: State = {
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
  };
  let next = 0;
  let sentAddress = '';
  /** Pay was pressed while the page was still answering a data change. */
  let queued = false;

  const send = (m: Bare<SheetToHost>) => env.parent.postMessage({ ns: WALLET_NS, ...m }, origin);
  const update = () => render(<View s={s} on={handlers} />, env.root);
  const fields = () => (s.init ? billingFields(s.init) : []);
  const complete = () => fields().every((f) => checkField(f, s.values[f] ?? '', s.texts) === undefined);

  const dataChanged = (callbackTrigger: CallbackTrigger, billingAddress?: BillingAddress) => {
    s.pending = ++next;
    send({ t: 'data-changed', id: next, callbackTrigger, ...(billingAddress ? { billingAddress } : {}) });
  };
  /** Tells the page about a complete address that it has not seen; true when it did. */
  const addressChanged = (): boolean => {
    if (fields().length === 0 || !complete()) return false;
    const address = toAddress(fields(), s.values);
    const key = JSON.stringify(address);
    if (key === sentAddress) return false;
    sentAddress = key;
    dataChanged('BILLING_ADDRESS', address);
    return true;
  };

  const start = (message: SheetInit) => {
    // The page's options arrive as it wrote them (a JSON copy): each field is checked here.
    const o = message.options ?? {};
    const text = (v: unknown, max = 100) =>
      typeof v === 'number' ? String(v) : typeof v === 'string' && v.length <= max ? v : undefined;
    const init: SheetInit = {
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
      update();
    });
    void env
      .fetch(new URL('simulators/wallets/cards', root).href, {
        credentials: 'same-origin',
        headers: { Accept: 'application/json' },
      })
      .then(async (res) => (res.ok ? readCards(await res.json()) : []))
      .catch(() => [])
      .then((list) => {
        s.cards = list.length ? list : 'error';
        s.card = list[0]?.id ?? '';
        update();
      });
    dataChanged('INITIALIZE');
  };

  const pay = async () => {
    const init = s.init;
    if (init === null || s.busy) return;
    s.errors = {};
    for (const f of fields()) {
      const m = checkField(f, s.values[f] ?? '', s.texts);
      if (m !== undefined) s.errors[f] = m;
    }
    const first = fields().find((f) => s.errors[f] !== undefined);
    if (first !== undefined) {
      update();
      doc.getElementById(first)?.focus();
      return;
    }
    if (addressChanged() || s.pending !== 0) {
      // Pay once the page has answered the data change (unless it refuses the data).
      queued = true;
      s.busy = true;
      update();
      return;
    }
    const chosen = Array.isArray(s.cards) ? s.cards.find((c) => c.id === s.card) : undefined;
    if (s.dataError || chosen === undefined) return;
    s.busy = true;
    s.message = '';
    update();
    let token: Record<string, unknown> | undefined;
    try {
      const res = await env.fetch(new URL('simulators/wallets/token', root).href, {
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
      if (res.ok) token = (await res.json()) as Record<string, unknown>;
    } catch {
      token = undefined;
    }
    const text = (v: unknown) => (typeof v === 'string' ? v : '');
    if (!token || !text(token.paymentToken)) {
      s.busy = false;
      s.message = s.texts.tokenError;
      update();
      return;
    }
    const paymentData: PaymentData = {
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
      ...(fields().length ? { billingAddress: toAddress(fields(), s.values) } : {}),
    };
    // Busy until the page answers: an ERROR comes back here, a SUCCESS closes the sheet.
    send({ t: 'authorize', paymentData });
  };

  const handlers: Handlers = {
    input(field, value) {
      s.values = { ...s.values, [field]: value };
      if (s.errors[field] !== undefined)
        s.errors = { ...s.errors, [field]: checkField(field, value, s.texts) };
      update();
    },
    leave(field) {
      const value = s.values[field] ?? '';
      if (value !== '' || s.errors[field] !== undefined)
        s.errors = { ...s.errors, [field]: checkField(field, value, s.texts) };
      addressChanged();
      update();
    },
    card(id) {
      s.card = id;
      update();
    },
    pay: () => void pay(),
    cancel: () => send({ t: 'cancel' }),
  };

  const onMessage = (event: MessageEvent) => {
    if (event.source !== env.parent || event.origin !== origin || !isWalletMessage(event.data)) return;
    const m = event.data as HostToSheet;
    if (m.t === 'init') {
      if (s.init === null) start(m);
    } else if (m.t === 'update') {
      // Only the answer to the latest change counts.
      if (s.pending === 0 || m.id !== s.pending) return;
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
      if (queued) {
        queued = false;
        s.busy = false;
        if (!s.dataError) void pay();
      }
    } else if (m.t === 'authorized') {
      s.busy = false;
      s.message = (typeof m.message === 'string' && m.message) || s.texts.authorizeError;
    } else {
      return;
    }
    update();
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape' || event.key === 'Esc') send({ t: 'cancel' });
  };
  env.window.addEventListener('message', onMessage);
  env.window.addEventListener('keydown', onKey);
  update();
  send({ t: 'ready' });

  return () => {
    env.window.removeEventListener('message', onMessage);
    env.window.removeEventListener('keydown', onKey);
    render(null, env.root);
  };
}

interface Handlers {
  input(field: Field, value: string): void;
  leave(field: Field): void;
  card(id: string): void;
  pay(): void;
  cancel(): void;
}

function View({ s, on }: { s: State; on: Handlers }) {
  const { init, texts } = s;
  const countries = useMemo(() => countryOptions(s.locale), [s.locale]);
  if (init === null) {
    return (
      <p class="loading" role="status">
        {texts.loading}
      </p>
    );
  }
  const fields = billingFields(init);
  const money = (amount: string) => formatAmount(amount, s.order.currency, s.locale);
  const label: Record<Field, string> = {
    name: texts.name,
    street: texts.street,
    city: texts.city,
    postcode: texts.postcode,
    country: texts.country,
    phone: texts.phone,
  };
  const control = (f: Field) => ({
    id: f,
    name: f,
    autocomplete: AUTOCOMPLETE[f],
    'aria-invalid': s.errors[f] ? ('true' as const) : ('false' as const),
    'aria-describedby': s.errors[f] ? `${f}-error` : undefined,
    value: s.values[f] ?? '',
  });
  return (
    <form
      class="sheet"
      aria-labelledby="sheet-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        on.pay();
      }}
    >
      <header class="sheet-header">
        <h1 id="sheet-title">{fill(texts.title, { wallet: walletName(init.wallet) })}</h1>
        {init.options.sandbox === true ? <span class="badge">{texts.sandbox}</span> : null}
      </header>
      {init.options.merchantName ? (
        <p class="merchant">{fill(texts.merchant, { merchant: init.options.merchantName })}</p>
      ) : null}
      <section class="order" aria-live="polite">
        {s.order.items.length ? (
          <ul class="items">
            {s.order.items.map((item, i) => (
              <li key={`${i}:${item.label}`} class="item" data-type={item.type}>
                <span>{item.label}</span>
                <span>{money(item.price)}</span>
              </li>
            ))}
          </ul>
        ) : null}
        <p class="total">
          <span>{texts.total}</span>
          <strong>{s.order.amount === undefined ? '…' : money(s.order.amount)}</strong>
        </p>
      </section>
      <fieldset class="cards" disabled={s.busy}>
        <legend>{texts.chooseCard}</legend>
        {s.cards === 'loading' ? <p role="status">{texts.loading}</p> : null}
        {Array.isArray(s.cards)
          ? s.cards.map((c) => (
              <label key={c.id} class="card" data-network={c.network}>
                <input
                  type="radio"
                  name="card"
                  value={c.id}
                  checked={s.card === c.id}
                  onChange={() => on.card(c.id)}
                />
                <span>{c.label}</span>
              </label>
            ))
          : null}
      </fieldset>
      {fields.length ? (
        <fieldset class="billing" disabled={s.busy}>
          <legend>{texts.billingAddress}</legend>
          {fields.map((f) => (
            <div key={f} class={`field field-${f}`}>
              <label for={f}>{label[f]}</label>
              {f === 'country' ? (
                <select
                  {...control(f)}
                  onChange={(e) => {
                    on.input(f, e.currentTarget.value);
                    on.leave(f);
                  }}
                >
                  <option value="">—</option>
                  {countries.map(([code, name]) => (
                    <option key={code} value={code}>
                      {name}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  {...control(f)}
                  type={(f === 'phone' ? 'tel' : 'text') as 'text'}
                  maxLength={MAX[f]}
                  onInput={(e) => on.input(f, e.currentTarget.value)}
                  onBlur={() => on.leave(f)}
                />
              )}
              {s.errors[f] ? (
                <p class="error" id={`${f}-error`}>
                  {s.errors[f]}
                </p>
              ) : null}
            </div>
          ))}
        </fieldset>
      ) : null}
      <p class="message" role="alert">
        {s.dataError || s.message || (s.cards === 'error' ? texts.cardsError : '')}
      </p>
      <div class="actions">
        <button
          type="submit"
          class="pay"
          disabled={s.busy || !Array.isArray(s.cards)}
          aria-busy={s.busy ? 'true' : 'false'}
        >
          {s.busy
            ? texts.processing
            : s.order.amount === undefined
              ? texts.payPlain
              : fill(texts.pay, { amount: money(s.order.amount) })}
        </button>
        <button type="button" class="cancel" onClick={on.cancel}>
          {texts.cancel}
        </button>
      </div>
    </form>
  );
}

/** [code, name] of every country, named in the language and sorted by name. */
function countryOptions(locale: Locale): [string, string][] {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([bcp47(locale)], { type: 'region' });
  } catch {
    names = undefined;
  }
  const out = COUNTRIES.map((c): [string, string] => [c.alpha2, names?.of(c.alpha2) ?? c.alpha2]);
  return out.sort((a, b) => a[1].localeCompare(b[1], bcp47(locale)));
}
